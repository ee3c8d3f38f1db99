"""The game store: Alembic schema, rooms, numbered events, finished games."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect

from hikone_carrom.server.storage import GameStore, StoredSeat, StoreError, hash_token


def test_migrate_creates_the_schema_and_is_idempotent(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'a' / 'g.sqlite3'}")
    store.migrate()
    store.migrate()
    tables = set(inspect(store.engine).get_table_names())
    assert {"rooms", "seats", "games", "events", "alembic_version"} <= tables
    store.close()


def test_events_are_numbered_without_gaps(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    store.migrate()
    seats = [StoredSeat(0, "human", "A", hash_token("t")), StoredSeat(1, "open", "", None)]
    store.create_room(
        "r1", mode="online", players=2, ai_level=None, minutes=None, seed=3, seats=seats
    )
    store.append_event("r1", 1, "g1", "seat", {"a": 1})
    with pytest.raises(StoreError):
        store.append_event("r1", 3, "g1", "seat", {"a": 2})
    with pytest.raises(StoreError):
        store.append_event("r1", 1, "g1", "seat", {"a": 2})
    with pytest.raises(StoreError):
        store.append_event("nope", 1, "g1", "seat", {})
    room = store.load_room("r1")
    assert room.last_seq == 1
    assert [e.payload for e in room.events] == [{"a": 1}]
    assert room.seats[0].token_hash == hash_token("t")
    assert room.seats[0].token_hash != "t"
    with pytest.raises(StoreError):
        store.load_room("missing")
    store.close()
