"""A room's whole life on SQLite and on a real PostgreSQL server: created, shots played, the
server stopped and started again (the room resumes with nothing lost), the game finished (R7b)
and listed at /games with a record the library replays."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, hello, send, straight_shot

from hikone_carrom.records import replay
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.rooms.room import Room


def _next_event(ws: Any) -> dict[str, Any]:
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "event", msg
    return msg


def _advance(client: TestClient, room_id: str, seconds: float) -> None:
    """Move the room's match clock forward (s), as if that much time had passed."""
    room: Room = client.app.state.registry.rooms[room_id]  # type: ignore[attr-defined]
    room._time.shift += seconds


def test_a_room_lives_through_a_restart_and_its_finished_game_is_listed(
    any_db_url: str,
) -> None:
    settings = ServerSettings(db_url=any_db_url, ai_delay_s=0.0)
    with TestClient(create_app(settings)) as first:
        made = create_room(first, mode="hotseat", players=2, minutes=2)
        rid = made["room_id"]
        with first.websocket_connect(f"/ws/rooms/{rid}") as ws:
            state = hello(ws, made["token"])["state"]
            for n in range(1, 4):
                send(ws, **straight_shot(state, speed=2.0 + 0.4 * n))
                msg = _next_event(ws)
                assert msg["seq"] == n and msg["event"]["kind"] == "shot"
                state = msg["event"]["state"]
        before = first.get(f"/api/rooms/{rid}").json()
        assert first.get("/api/games").json()["total"] == 0

    with TestClient(create_app(settings)) as second:
        after = second.get(f"/api/rooms/{rid}").json()
        assert after["seq"] == before["seq"] == 3
        for key in ("layout", "counts", "shooter", "placement", "pile", "scores"):
            assert after["state"][key] == before["state"][key], key
        assert len(after["log"]) == 3
        clock = after["state"]["clock"]
        assert clock["limit_s"] == 120.0
        # it resumes at the time stored with the last event (downtime does not count)
        assert abs(before["state"]["clock"]["remaining_s"] - clock["remaining_s"]) < 5.0
        with second.websocket_connect(f"/ws/rooms/{rid}") as ws:
            snap = hello(ws, made["token"])  # the stored token still holds both seats
            assert snap["you"]["seats"] == [0, 1]
            send(ws, **straight_shot(snap["state"]))
            assert _next_event(ws)["seq"] == 4
            kinds = []
            _advance(second, rid, 121.0)
            while True:
                ev = _next_event(ws)["event"]
                kinds.append(ev["kind"])
                if ev["state"]["over"]:
                    break
                _advance(second, rid, 10.5)
            assert kinds[0] == "time_called" and set(kinds[1:]) <= {"skip", "time_called"}
        games = second.get("/api/games").json()
        assert games["total"] == 1
        game = games["games"][0]
        assert game["id"] == f"{rid}-1" and game["room_id"] == rid
        assert game["shots"] == 4 and game["finished_at"]
        assert game["outcome"] == ev["state"]["outcome"]
        record = second.get(f"/api/games/{game['id']}/record").json()
        replay(record)  # the library re-simulates every shot and checks every ruling
        rp = second.get(f"/api/games/{game['id']}/replay").json()
        assert [e["kind"] for e in rp["events"]][:4] == ["shot"] * 4
        assert len(rp["events"]) == 4 + len(kinds)
