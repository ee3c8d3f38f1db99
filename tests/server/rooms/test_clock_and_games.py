"""Timed matches driven by the server (R7b, R8a), finished games, records, replays, rematch."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, hello, send

from hikone_carrom.records import replay
from hikone_carrom.server.rooms.room import Room


def _room(client: TestClient, room_id: str) -> Room:
    room: Room = client.app.state.registry.rooms[room_id]  # type: ignore[attr-defined]
    return room


def _advance(client: TestClient, room_id: str, seconds: float) -> None:
    """Move the room's match clock forward (s), as if that much time had passed."""
    _room(client, room_id)._time.shift += seconds


def _next_event(ws: Any) -> dict[str, Any]:
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "event", msg
    return msg


def test_timed_match_skips_late_shots_calls_time_and_ends(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=2, minutes=1)
    rid = made["room_id"]
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        snap = hello(ws, made["token"])
        clock = snap["state"]["clock"]
        assert clock["limit_s"] == 60.0 and clock["shot_time_s"] == 10.0
        # the whole minute is the last minute: the 10-second rule applies at once (R8a)
        assert clock["turn_remaining_s"] is not None and clock["turn_remaining_s"] <= 10.0
        _advance(client, rid, 10.5)
        skip = _next_event(ws)["event"]
        assert skip["kind"] == "skip" and skip["seat"] == 0
        assert skip["ruling"]["skipped"] is True and "R8a" in skip["ruling"]["reasons"]
        assert skip["state"]["shooter"] == 1
        assert any("R8a" in line for line in skip["explain"]["en"])
        _advance(client, rid, 60.0)
        kinds = ["skip"]
        while True:
            ev = _next_event(ws)["event"]
            kinds.append(ev["kind"])
            if ev["state"]["over"]:
                break
            _advance(client, rid, 10.5)
        assert "time_called" in kinds
        outcome = ev["state"]["outcome"]
        assert outcome["reason"] in ("R7b", "R7c", "R7d")
        assert ev["state"]["outcome_text"]["ja"]
    games = client.get("/api/games").json()
    assert games["total"] == 1
    game = games["games"][0]
    assert game["outcome"] == outcome and game["room_id"] == rid
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["format"] == "hikone-carrom-record"
    replay(record)  # the library re-simulates it and checks every ruling
    rp = client.get(f"/api/games/{game['id']}/replay").json()
    assert rp["start"]["actions"] == 0
    assert [e["kind"] for e in rp["events"]] == kinds[: len(rp["events"])]


def test_rematch_starts_a_new_game_in_the_same_room(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=2, minutes=1)
    rid = made["room_id"]
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        hello(ws, made["token"])
        while True:
            _advance(client, rid, 61.0)
            ev = _next_event(ws)["event"]
            if ev["state"]["over"]:
                break
        send(ws, type="rematch")
        ev = _next_event(ws)["event"]
        assert ev["kind"] == "rematch"
        assert ev["room"]["game_number"] == 1
        assert ev["state"]["over"] is False and ev["state"]["actions"] == 0
        assert ev["game_id"] != made["room_id"] + "-1"
