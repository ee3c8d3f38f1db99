"""The protocol's edges: binary frames, exact JSON types, idempotent
actions, non-finite numbers and huge offsets over REST, the Host check, a finished timed match's
clock after a restart."""

from __future__ import annotations

import math
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.roomkit import create_room, hello, send, straight_shot

from hikone_carrom.match import Match, Shot
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.hosts import LOOPBACK_NAMES, host_name
from hikone_carrom.server.rooms.room import Room, RoomConfig

ROOM_SEED = 424242


def _room(client: TestClient, room_id: str) -> Room:
    room: Room = client.app.state.registry.rooms[room_id]  # type: ignore[attr-defined]
    return room


def test_a_binary_frame_is_a_bad_message_and_the_connection_goes_on(client: TestClient) -> None:
    made = create_room(client, mode="hotseat")
    with client.websocket_connect(f"/ws/rooms/{made['room_id']}") as ws:
        hello(ws, made["token"])
        ws.send_bytes(b'{"type": "ping"}')
        err = ws.receive_json()
        assert err["type"] == "error" and err["code"] == "bad_message"
        assert "Binary" in err["message"]["en"] and "バイナリ" in err["message"]["ja"]
        send(ws, type="ping")
        assert ws.receive_json()["type"] == "pong"


@pytest.mark.parametrize(
    ("field", "value"), [("seat", "1"), ("x", "0.07"), ("speed", True), ("seat", 0.0)]
)
def test_shot_fields_must_have_their_json_types(
    client: TestClient, field: str, value: object
) -> None:
    made = create_room(client, mode="hotseat")
    with client.websocket_connect(f"/ws/rooms/{made['room_id']}") as ws:
        state = hello(ws, made["token"])["state"]
        send(ws, **{**straight_shot(state), field: value})
        err = ws.receive_json()
        assert err["type"] == "error" and err["code"] == "bad_message", err
        assert field in err["message"]["en"]
        send(ws, type="resync", last_seq=0)
        assert ws.receive_json()["seq"] == 0  # nothing was played


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every new room gets the same seed, so the test knows its game."""
    monkeypatch.setattr(secrets, "randbelow", lambda _n: ROOM_SEED)
    yield


def _continuing_first_shot() -> dict[str, Any]:
    """A first shot (from the tee spot, R2a) of the fixed-seed hot-seat game that pockets its own
    puck, so the same seat shoots again (R3a)."""
    config = RoomConfig("r", "hotseat", 2, None, None, ROOM_SEED)
    for k in range(720):
        match = Match(2, config.options(), seed=ROOM_SEED)
        x, y = match.legal_placement().point
        angle = math.pi / 2 + (k % 180 - 90) * math.pi / 360
        shot = Shot(x, y, angle, 2.0 + (k // 180) * 1.0)
        if match.play(shot).ruling.continues:
            return {"type": "shot", "seat": 0, **shot.to_dict()}
    raise AssertionError("no continuing first shot found")


def test_a_shot_sent_twice_is_played_once(db_url: str, fixed_seed: None) -> None:
    shot = _continuing_first_shot()
    settings = ServerSettings(db_url=db_url, ai_delay_s=0.0)
    with TestClient(create_app(settings)) as client:
        made = create_room(client, mode="hotseat")
        rid = made["room_id"]
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            hello(ws, made["token"])
            send(ws, id="s-1", **shot)
            send(ws, id="s-1", **shot)  # the same message again, while it is still seat 0's turn
            first = ws.receive_json()
            assert first["type"] == "event" and first["seq"] == 1
            assert first["event"]["action_id"] == "s-1"
            assert first["event"]["state"]["shooter"] == 0  # a continuation (R3a)
            again = ws.receive_json()
            assert again == {"type": "duplicate", "id": "s-1", "seq": 1}
            assert len(_room(client, rid).match.actions) == 1
    with (  # the ids survive a restart
        TestClient(create_app(settings)) as restarted,
        restarted.websocket_connect(f"/ws/rooms/{rid}") as ws,
    ):
        hello(ws, made["token"])
        send(ws, id="s-1", **shot)
        assert ws.receive_json() == {"type": "duplicate", "id": "s-1", "seq": 1}


@pytest.mark.parametrize("minutes", ["NaN", "Infinity", "-Infinity", "1e309"])
def test_non_finite_minutes_are_refused_with_a_sentence(client: TestClient, minutes: str) -> None:
    body = f'{{"mode": "online", "minutes": {minutes}}}'
    r = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert detail["code"] == "bad_request"
    assert [f["field"] for f in detail["fields"]] == ["minutes"]
    assert detail["en"] == "Minutes must be a finite number."
    assert detail["ja"] == "試合時間（分）は有限の数にしてください。"
    assert client.get("/api/games").json()["total"] == 0


def test_a_huge_offset_is_refused_on_both_stores(any_db_url: str) -> None:
    with TestClient(create_app(ServerSettings(db_url=any_db_url))) as client:
        r = client.get("/api/games?offset=9223372036854775808")
        assert r.status_code == 422
        assert r.json()["detail"]["code"] == "bad_request"
        assert [f["field"] for f in r.json()["detail"]["fields"]] == ["offset"]
        assert client.get("/api/games?offset=1000000000").json()["games"] == []


def test_host_names_are_parsed_with_ports_and_brackets() -> None:
    assert host_name("LocalHost:8765") == "localhost"
    assert host_name("[::1]:8765") == "::1"
    assert host_name("127.0.0.1") == "127.0.0.1"
    assert host_name("::1") == "::1"


def test_a_loopback_server_refuses_other_host_names(tmp_path: Path) -> None:
    settings = ServerSettings(
        db_url=f"sqlite:///{tmp_path / 'g.sqlite3'}", allowed_hosts=(*LOOPBACK_NAMES, "carrom.lan")
    )
    app = create_app(settings)
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        assert client.get("/api/health").status_code == 200
        for host in ("localhost:8765", "[::1]:8765", "carrom.lan"):
            assert client.get("/api/health", headers={"host": host}).status_code == 200, host
        refused = client.get("/api/health", headers={"host": "rebind.attacker.example:8765"})
        assert refused.status_code == 400
        assert refused.json()["detail"]["code"] == "bad_host"
        assert refused.json()["detail"]["ja"]
        made = create_room(client, mode="hotseat")
        url = f"ws://127.0.0.1:8765/ws/rooms/{made['room_id']}"
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(url, headers={"host": "rebind.attacker.example"}) as ws,
        ):
            ws.receive_json()
        with client.websocket_connect(url) as ws:
            hello(ws, made["token"])


def test_a_finished_timed_match_shows_its_final_clock_after_a_restart(db_url: str) -> None:
    settings = ServerSettings(db_url=db_url, ai_delay_s=0.0)
    with TestClient(create_app(settings)) as client:
        made = create_room(client, mode="hotseat", players=2, minutes=1)
        rid = made["room_id"]
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            state = hello(ws, made["token"])["state"]
            send(ws, **straight_shot(state))
            ws.receive_json()
            room = _room(client, rid)
            room._time.shift += 61.0  # time is up (R7b)
            while True:
                event = ws.receive_json()["event"]
                if event["state"]["over"]:
                    break
                room._time.shift += 10.5  # each remaining shot is lost (R8a)
        final = client.get(f"/api/rooms/{rid}").json()["state"]["clock"]
        assert final["paused"] is True and final["remaining_s"] == 0.0
    with TestClient(create_app(settings)) as restarted:
        clock = restarted.get(f"/api/rooms/{rid}").json()["state"]["clock"]
        assert clock == final  # not the full 60 s of a match that never started
