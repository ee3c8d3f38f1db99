"""The game store on SQLite and on a real PostgreSQL server: Alembic schema, rooms, numbered
events, games and their records. The same store code serves both."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect

from hikone_carrom.server.storage import (
    EventWrite,
    GameStore,
    StoredGame,
    StoredSeat,
    StoreError,
    StoreFenced,
    hash_token,
)

BIG_SEED = (1 << 62) - 1
"""The largest game seed a room makes (its seeds are taken modulo 2**62)."""


@pytest.fixture
def store(any_db_url: str) -> Iterator[GameStore]:
    s = GameStore(any_db_url)
    s.migrate()
    yield s
    s.close()


def _room(
    store: GameStore,
    room_id: str = "r1",
    seed: int = 3,
    game: StoredGame | None = None,
) -> int:
    seats = [StoredSeat(0, "human", "A", hash_token("t")), StoredSeat(1, "open", "", None)]
    return store.create_room(
        room_id,
        mode="online",
        players=2,
        ai_level=None,
        minutes=5.0,
        seed=seed,
        seats=seats,
        game=game,
    )


def _event(
    room_id: str, seq: int, game_id: str, kind: str, payload: Any, **more: Any
) -> EventWrite:
    more.setdefault("epoch", 1)
    return EventWrite(
        room_id, seq=seq, game_id=game_id, kind=kind, payload=json.dumps(payload), **more
    )


def _game(room_id: str, number: int, seed: int, started: datetime) -> StoredGame:
    return StoredGame(
        id=f"{room_id}-{number + 1}",
        room_id=room_id,
        number=number,
        seed=seed,
        players=2,
        mode="online",
        seat_names=("A", "彦根"),
        started_at=started,
        finished_at=None,
        shots=0,
        outcome=None,
        record=None,
    )


def test_migrate_creates_the_schema_and_is_idempotent(store: GameStore) -> None:
    store.migrate()
    tables = set(inspect(store.engine).get_table_names())
    assert {"rooms", "seats", "games", "events", "alembic_version"} <= tables


def test_a_sqlite_store_makes_its_folder(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'a' / 'b' / 'g.sqlite3'}")
    store.migrate()
    assert (tmp_path / "a" / "b" / "g.sqlite3").is_file()
    store.close()


def test_events_are_numbered_without_gaps(store: GameStore) -> None:
    start = datetime(2025, 11, 30, 9, 0, tzinfo=UTC)
    assert _room(store, game=_game("r1", 0, 1, start)) == 1
    store.append(_event("r1", 1, "r1-1", "seat", {"a": 1}))
    with pytest.raises(StoreFenced):
        store.append(_event("r1", 3, "r1-1", "seat", {"a": 2}))
    with pytest.raises(StoreFenced):
        store.append(_event("r1", 1, "r1-1", "seat", {"a": 2}))
    with pytest.raises(StoreError):
        store.append(_event("nope", 1, "r1-1", "seat", {}))
    room = store.load_room("r1")
    assert room.last_seq == 1
    assert [e.payload for e in room.events] == [{"a": 1}]
    assert room.seats[0].token_hash == hash_token("t")
    assert room.seats[0].token_hash != "t"
    with pytest.raises(StoreError):
        store.load_room("missing")


def test_a_takeover_fences_off_the_old_owner(store: GameStore) -> None:
    start = datetime(2025, 11, 30, 9, 0, tzinfo=UTC)
    _room(store, game=_game("r1", 0, 1, start))
    store.append(_event("r1", 1, "r1-1", "shot", {"n": 1}, shots=1))
    claimed = store.claim_room("r1")
    assert claimed.epoch == 2 and claimed.last_seq == 1
    with pytest.raises(StoreFenced):  # the first owner's next write is refused
        store.append(_event("r1", 2, "r1-1", "shot", {"n": 2}, shots=2, epoch=1))
    store.append(_event("r1", 2, "r1-1", "shot", {"n": 2}, shots=2, epoch=2))
    assert [e.payload for e in store.events_after("r1", 0)] == [{"n": 1}, {"n": 2}]
    assert [e.seq for e in store.events_after("r1", 1)] == [2]
    assert store.game("r1-1").shots == 2
    with pytest.raises(StoreError):
        store.claim_room("missing")


def test_a_group_of_events_is_stored_in_one_transaction(store: GameStore) -> None:
    start = datetime(2025, 11, 30, 9, 0, tzinfo=UTC)
    for rid in ("r1", "r2", "r3"):
        _room(store, rid, game=_game(rid, 0, 1, start))
    stored = store.append_many(
        [_event(rid, 1, f"{rid}-1", "shot", {"room": rid}, shots=1) for rid in ("r1", "r2", "r3")]
    )
    assert len(stored) == 3 and all(isinstance(t, datetime) for t in stored)
    for rid in ("r1", "r2", "r3"):
        assert [e.payload for e in store.events_after(rid, 0)] == [{"room": rid}]
        assert store.game(f"{rid}-1").shots == 1


def test_a_refused_write_of_a_group_does_not_hold_the_others_back(store: GameStore) -> None:
    start = datetime(2025, 11, 30, 9, 0, tzinfo=UTC)
    for rid in ("r1", "r2"):
        _room(store, rid, game=_game(rid, 0, 1, start))
    store.claim_room("r2")  # r2 taken over: a write at epoch 1 is fenced off
    results = store.append_many(
        [
            _event("r1", 1, "r1-1", "shot", {"n": 1}, shots=1),
            _event("r2", 1, "r2-1", "shot", {"n": 1}, shots=1),
            _event("nope", 1, "nope-1", "shot", {}),
        ]
    )
    assert isinstance(results[0], datetime)
    assert isinstance(results[1], StoreFenced)
    assert isinstance(results[2], StoreError)
    assert [e.payload for e in store.events_after("r1", 0)] == [{"n": 1}]
    assert store.events_after("r2", 0) == []
    assert store.load_room("r2").last_seq == 0 and store.game("r2-1").shots == 0


def test_a_group_stores_seats_new_games_and_records_as_single_writes_do(
    store: GameStore,
) -> None:
    start = datetime(2025, 11, 30, 9, 0, tzinfo=UTC)
    for rid in ("r1", "r2", "r3", "r4"):
        _room(store, rid, game=_game(rid, 0, 1, start))
    outcome = {"winner": "red", "reason": "R7a", "scores": [112, 3]}
    record = {"format": "hikone-carrom-record", "shots": [{"speed": 2.5}]}
    second = _game("r3", 1, 5, start + timedelta(minutes=9))
    results = store.append_many(
        [
            _event("r1", 1, "r1-1", "seat", {}, seat=StoredSeat(1, "human", "ベン", None)),
            _event("r2", 1, "r2-1", "shot", {"n": 1}, shots=4, finished=(outcome, record)),
            _event("r3", 1, "r3-2", "rematch", {}, new_game=second),
            _event("r4", 1, "r4-1", "shot", {"n": 1}, shots=1),
        ]
    )
    assert all(isinstance(t, datetime) for t in results)
    assert [s.name for s in store.load_room("r1").seats] == ["A", "ベン"]
    finished = store.game("r2-1")
    assert finished.shots == 4 and finished.outcome == outcome and finished.record == record
    assert finished.finished_at is not None
    assert [g.id for g in store.load_room("r3").games] == ["r3-1", "r3-2"]
    assert store.game("r4-1").shots == 1
    for rid in ("r1", "r2", "r3", "r4"):
        assert store.load_room(rid).last_seq == 1


def test_a_group_refuses_a_missing_seat_or_game_and_a_gap_on_its_own(store: GameStore) -> None:
    start = datetime(2025, 11, 30, 9, 0, tzinfo=UTC)
    for rid in ("r1", "r2", "r3", "r4"):
        _room(store, rid, game=_game(rid, 0, 1, start))
    results = store.append_many(
        [
            _event("r1", 1, "r1-1", "seat", {}, seat=StoredSeat(7, "human", "X", None)),
            _event("r2", 1, "r2-9", "shot", {}, shots=1),
            _event("r3", 2, "r3-1", "shot", {}, shots=1),  # event 1 is missing: a gap
            _event("r4", 1, "r4-1", "shot", {"n": 1}, shots=1),
        ]
    )
    assert isinstance(results[0], StoreError)
    assert isinstance(results[1], StoreError)
    assert isinstance(results[2], StoreFenced)
    assert isinstance(results[3], datetime)
    assert [store.load_room(r).last_seq for r in ("r1", "r2", "r3", "r4")] == [0, 0, 0, 1]
    assert store.game("r4-1").shots == 1 and store.game("r3-1").shots == 0


def test_rooms_seats_games_and_records_round_trip(store: GameStore) -> None:
    start = datetime(2025, 11, 30, 9, 0, tzinfo=UTC)
    _room(store, seed=(1 << 31) - 1, game=_game("r1", 0, BIG_SEED, start))
    store.append(
        _event("r1", 1, "r1-1", "seat", {}, seat=StoredSeat(1, "human", "ベン", hash_token("u")))
    )
    with pytest.raises(StoreError):
        store.append(_event("r1", 2, "r1-1", "seat", {}, seat=StoredSeat(7, "human", "X", None)))
    store.append(_event("r1", 2, "r1-1", "shot", {"seat": 0, "ja": "パック"}, shots=1))
    outcome = {"winner": "red", "reason": "R7a", "scores": [112, 3]}
    record = {"format": "hikone-carrom-record", "shots": [{"speed": 2.5, "pocketed": ["R1"]}]}
    store.append(_event("r1", 3, "r1-1", "shot", {"seat": 0}, shots=2, finished=(outcome, record)))
    second = _game("r1", 1, 5, start + timedelta(minutes=9))
    store.append(_event("r1", 4, "r1-2", "rematch", {}, new_game=second))
    with pytest.raises(StoreError):
        store.append(_event("r1", 5, "r1-9", "shot", {}, shots=1))  # no such game
    assert store.load_room("r1").last_seq == 4  # the refused events left nothing behind

    room = store.load_room("r1")
    assert room.seed == (1 << 31) - 1 and room.minutes == 5.0
    assert [s.name for s in room.seats] == ["A", "ベン"]
    assert [g.id for g in room.games] == ["r1-1", "r1-2"]
    assert [e.seq for e in room.events] == [1, 2, 3, 4]
    assert room.events[1].payload["ja"] == "パック"
    first = store.game("r1-1")
    assert first.seed == BIG_SEED
    assert first.seat_names == ("A", "彦根")
    assert first.started_at == start and first.started_at.tzinfo is not None
    assert first.finished_at is not None and first.finished_at.tzinfo is not None
    assert first.shots == 2 and first.outcome == outcome and first.record == record
    assert [e.seq for e in store.game_events("r1-1")] == [1, 2, 3]
    assert store.room_ids() == ["r1"]
    with pytest.raises(StoreError):
        store.game("r1-7")


def test_finished_games_are_listed_newest_first(store: GameStore) -> None:
    start = datetime(2025, 11, 30, 9, 0, tzinfo=UTC)
    for k, rid in enumerate(("ra", "rb", "rc")):
        _room(store, rid, game=_game(rid, 0, k, start))
        if rid != "rb":
            store.append(_event(rid, 1, f"{rid}-1", "shot", {}, shots=1, finished=({}, {})))
    assert store.count_finished_games() == 2
    assert [g.id for g in store.finished_games()] == ["rc-1", "ra-1"]
    assert [g.id for g in store.finished_games(limit=1, offset=1)] == ["ra-1"]
    assert store.finished_games(offset=2) == []
