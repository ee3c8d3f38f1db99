"""Store failures never corrupt a room: a change is kept only if it is
stored. With the database unavailable, a real PostgreSQL server stopped mid-game or a SQLite
file locked by another connection's write transaction, the shot is refused with
``store_unavailable`` (en/ja), the room stays exactly as it was, the same shot plays once the
store is back, and a restarted server rebuilds the room."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, hello, send, straight_shot

from hikone_carrom.bench.throwaway import PostgresCluster
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings

STATE_KEYS = ("layout", "counts", "shooter", "placement", "pile", "scores", "actions")


def _settings(url: str) -> ServerSettings:
    return ServerSettings(db_url=url, ai_delay_s=0.0, store_timeout_s=0.5)


@contextmanager
def _sqlite_locked(path: Path) -> Iterator[None]:
    """Another connection holds a write transaction on the SQLite file."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


@contextmanager
def _pg_stopped(cluster: PostgresCluster) -> Iterator[None]:
    """The PostgreSQL server is down."""
    cluster.pause()
    try:
        yield
    finally:
        cluster.resume()


def _next(ws: Any) -> dict[str, Any]:
    msg: dict[str, Any] = ws.receive_json()
    return msg


def _shot_survives_an_outage(url: str, outage: Callable[[], AbstractContextManager[None]]) -> None:
    with TestClient(create_app(_settings(url))) as client:
        made = create_room(client, mode="hotseat", players=2, minutes=5)
        rid = made["room_id"]
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            state = hello(ws, made["token"])["state"]
            send(ws, **straight_shot(state))
            first = _next(ws)
            assert first["type"] == "event" and first["seq"] == 1
            before = client.get(f"/api/rooms/{rid}").json()
            second = straight_shot(first["event"]["state"], speed=3.1)
            with outage():
                send(ws, **second)
                err = _next(ws)
                assert err["type"] == "error" and err["code"] == "store_unavailable", err
                assert "nothing changed" in err["message"]["en"]
                assert "何も変わっていません" in err["message"]["ja"]
                during = client.get(f"/api/rooms/{rid}").json()
                assert during["seq"] == 1
                for key in STATE_KEYS:
                    assert during["state"][key] == before["state"][key], key
                assert len(during["log"]) == 1
                # a new room cannot be made either, and says so
                refused = client.post("/api/rooms", json={"mode": "hotseat"})
                assert refused.status_code == 503
                assert refused.json()["detail"]["code"] == "store_unavailable"
            send(ws, **second)  # the same shot, now that the store is back
            again = _next(ws)
            assert again["type"] == "event" and again["seq"] == 2, again
            assert again["event"]["seat"] == second["seat"]
            last = again["event"]["state"]
    with TestClient(create_app(_settings(url))) as restarted:
        rebuilt = restarted.get(f"/api/rooms/{rid}")
        assert rebuilt.status_code == 200
        snap = rebuilt.json()
        assert snap["seq"] == 2
        for key in STATE_KEYS:
            assert snap["state"][key] == last[key], key


def test_a_shot_refused_while_sqlite_is_locked_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    _shot_survives_an_outage(f"sqlite:///{path}", lambda: _sqlite_locked(path))


def test_a_shot_refused_while_postgresql_is_stopped_changes_nothing(
    own_pg: PostgresCluster,
) -> None:
    _shot_survives_an_outage(own_pg.database(), lambda: _pg_stopped(own_pg))


def test_a_seat_is_not_given_while_the_store_is_locked(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with TestClient(create_app(_settings(f"sqlite:///{path}"))) as client:
        rid = create_room(client, mode="online", players=2, name="A")["room_id"]
        with _sqlite_locked(path):
            r = client.post(f"/api/rooms/{rid}/seats/1", json={"name": "B"})
            assert r.status_code == 503 and r.json()["detail"]["code"] == "store_unavailable"
            assert client.get(f"/api/rooms/{rid}").json()["room"]["seats"][1]["kind"] == "open"
        r = client.post(f"/api/rooms/{rid}/seats/1", json={"name": "B"})
        assert r.status_code == 200
        snap = client.get(f"/api/rooms/{rid}").json()
        assert snap["seq"] == 1 and snap["room"]["seats"][1]["name"] == "B"


def test_a_lost_shot_of_the_clock_is_taken_once_the_store_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """R8a: the skip that could not be stored is not half-applied; it happens after the lock."""
    path = tmp_path / "games.sqlite3"
    with TestClient(create_app(_settings(f"sqlite:///{path}"))) as client:
        made = create_room(client, mode="hotseat", players=2, minutes=1)
        rid = made["room_id"]
        room = client.app.state.registry.rooms[rid]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            hello(ws, made["token"])
            with caplog.at_level(logging.WARNING), _sqlite_locked(path):
                room._time.shift += 10.5  # the shooter's 10 s are over (R8a)
                deadline = time.monotonic() + 20.0
                while "change undone" not in caplog.text and time.monotonic() < deadline:
                    time.sleep(0.05)  # the clock tries to take the lost shot and fails
                assert "change undone" in caplog.text
                assert client.get(f"/api/rooms/{rid}").json()["seq"] == 0
                assert not room.match.actions
            skip = _next(ws)
            assert skip["type"] == "event" and skip["event"]["kind"] == "skip"
            assert skip["seq"] == 1 and len(room.match.actions) == 1
