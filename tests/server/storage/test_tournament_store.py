"""Storing tournaments on SQLite and PostgreSQL: a result is written with its match's live row,
not by rewriting the event's document, and comes back on loading; the migration that made it
so folds every result back into the documents when undone."""

from __future__ import annotations

import asyncio
import json

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from tests.tournament.helpers import general_event

from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.storage import GameStore
from hikone_carrom.server.storage.store import _MIGRATIONS
from hikone_carrom.server.storage.tournament_store import TournamentStore
from hikone_carrom.server.tournaments.hub import TournamentHub
from hikone_carrom.tournament import Result, TournamentSettings


def _event_with_a_result(store: GameStore) -> tuple[str, str]:
    runner = Runner(1)

    async def scenario() -> tuple[str, str]:
        hub = TournamentHub(TournamentStore(store.engine), runner)
        live, _ = await hub.create(TournamentSettings("保存の大会"), None)
        for entry in general_event(4).entries.values():
            live.event.add_entry(entry)
        await live.draw("GS", "運営")
        first = live.event.matches("GS")[0].id
        await live.record_result(first, Result.from_scores(112, 3), "審判", "director")
        return live.id, first

    try:
        return asyncio.run(scenario())
    finally:
        runner.close()


def _raw(store: GameStore, tid: str) -> tuple[dict[str, object], list[str | None]]:
    with store.engine.connect() as c:
        found = c.execute(text("SELECT doc FROM tournaments WHERE id = :i"), {"i": tid})
        doc = json.loads(found.scalar_one())
        rows = [r[0] for r in c.execute(text("SELECT result FROM tournament_live"))]
    return doc, rows


def test_a_result_is_stored_with_its_live_row_and_comes_back(any_db_url: str) -> None:
    store = GameStore(any_db_url)
    store.migrate()
    try:
        tid, first = _event_with_a_result(store)
        doc, rows = _raw(store, tid)
        assert doc["results"] == {}  # the document was not rewritten for the result
        assert [json.loads(r) for r in rows if r] == [Result.from_scores(112, 3).to_dict()]
        loaded = TournamentStore(store.engine).load(tid)
        assert loaded.doc["results"] == {first: Result.from_scores(112, 3).to_dict()}
        assert loaded.live[first].result == Result.from_scores(112, 3).to_dict()
    finally:
        store.close()


def test_undoing_the_migration_folds_the_results_into_the_documents(any_db_url: str) -> None:
    store = GameStore(any_db_url)
    store.migrate()
    try:
        tid, first = _event_with_a_result(store)
        config = Config()
        config.set_main_option("script_location", str(_MIGRATIONS))
        config.set_main_option("sqlalchemy.url", any_db_url.replace("%", "%%"))
        with store.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0006")
        with store.engine.connect() as c:
            doc = json.loads(c.execute(text("SELECT doc FROM tournaments")).scalar_one())
        assert doc["results"] == {first: Result.from_scores(112, 3).to_dict()}
        store.migrate()  # and up again
        assert TournamentStore(store.engine).load(tid).doc["results"][first]["scores"] == [112, 3]
    finally:
        store.close()
