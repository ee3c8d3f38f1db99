"""WebSocket play: snapshots, numbered events, validation, seats, spectators, resync."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, hello, receive, send, straight_shot


def test_a_shot_is_simulated_numbered_and_broadcast_to_spectators(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=2)
    rid, token = made["room_id"], made["token"]
    with (
        client.websocket_connect(f"/ws/rooms/{rid}") as player,
        client.websocket_connect(f"/ws/rooms/{rid}") as watcher,
    ):
        snap = hello(player, token)
        assert snap["you"]["seats"] == [0, 1]
        assert snap["board"]["half"] == 0.3
        assert hello(watcher, None)["you"]["seats"] == []
        send(player, **straight_shot(snap["state"]))
        mine = player.receive_json()
        theirs = watcher.receive_json()
        assert mine == theirs
        assert mine["type"] == "event" and mine["seq"] == 1
        ev = mine["event"]
        assert ev["kind"] == "shot" and ev["seat"] == 0
        assert ev["explain"]["en"] and ev["explain"]["ja"]
        striker = next(t for t in ev["tracks"] if t["id"] == "S")
        first = striker["segments"][0]
        assert first["t0"] == 0.0 and first["t1"] > 0.0
        # constant deceleration mu*g against the velocity
        decel = (first["ax"] ** 2 + first["ay"] ** 2) ** 0.5
        assert abs(decel - snap["board"]["deceleration"]) < 1e-9
        assert ev["duration"] >= max(s["t1"] for t in ev["tracks"] for s in t["segments"])
        assert ev["state"]["actions"] == 1


def test_malformed_and_illegal_messages_get_errors_and_change_nothing(
    client: TestClient,
) -> None:
    made = create_room(client, mode="hotseat")
    rid, token = made["room_id"], made["token"]
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        snap = hello(ws, token)
        shot = straight_shot(snap["state"])
        for bad in (
            "not json",
            '{"type": "shot"}',
            '{"type": "teleport"}',
            '{"type": "shot", "seat": 0, "x": 0, "y": 0, "angle": 0, "speed": "fast"}',
            '{"type": "shot", "seat": 0, "x": 0, "y": -0.21, "angle": 0, "speed": 1e400}',
            '{"type": "hello", "token": null, "last_seq": -1}',
        ):
            ws.send_text(bad)
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "bad_message", bad
        send(ws, **{**shot, "x": shot["x"] + 0.05})
        err = ws.receive_json()
        assert err["code"] == "illegal_shot" and err["rule"] == "R2a"
        assert err["message"]["ja"]
        send(ws, **{**shot, "seat": 1})
        assert ws.receive_json()["code"] == "not_your_turn"
        send(ws, **{**shot, "speed": 99.0})
        assert ws.receive_json()["code"] == "illegal_shot"
        send(ws, type="rematch")
        assert ws.receive_json()["code"] == "not_over"
        send(ws, type="resync", last_seq=0)
        again = ws.receive_json()
        assert again["type"] == "snapshot" and again["seq"] == 0
        assert again["state"] == snap["state"]


def test_a_client_cannot_act_for_a_seat_it_does_not_hold(client: TestClient) -> None:
    made = create_room(client, mode="online", players=2, name="A")
    rid = made["room_id"]
    other = client.post(f"/api/rooms/{rid}/seats/1", json={"name": "B"}).json()["token"]
    with (
        client.websocket_connect(f"/ws/rooms/{rid}") as a,
        client.websocket_connect(f"/ws/rooms/{rid}") as b,
        client.websocket_connect(f"/ws/rooms/{rid}") as spectator,
    ):
        snap = hello(a, made["token"])
        assert hello(b, other)["you"]["seats"] == [1]
        assert hello(spectator, "forged-token")["you"]["seats"] == []
        shot = straight_shot(snap["state"])
        send(b, **shot)  # seat 0's shot from seat 1's client
        assert b.receive_json()["code"] == "not_your_seat"
        send(spectator, **shot)
        assert spectator.receive_json()["code"] == "not_your_seat"
        send(a, **shot)
        for ws in (a, b, spectator):
            msg = receive(ws)
            assert msg["seq"] == 2 and msg["event"]["seat"] == 0  # 1 was the seat taken
        nxt = msg["event"]["state"]
        if nxt["shooter"] == 1:
            send(b, **straight_shot(nxt))
            for ws in (a, b, spectator):
                assert receive(ws)["seq"] == 3


def test_shots_wait_until_every_online_seat_is_taken(client: TestClient) -> None:
    made = create_room(client, mode="online", players=2)
    rid = made["room_id"]
    with client.websocket_connect(f"/ws/rooms/{rid}") as a:
        snap = hello(a, made["token"])
        send(a, **straight_shot(snap["state"]))
        assert a.receive_json()["code"] == "waiting"
        client.post(f"/api/rooms/{rid}/seats/1", json={"name": "B"})
        seat_event = a.receive_json()
        assert seat_event["seq"] == 1 and seat_event["event"]["kind"] == "seat"
        assert seat_event["event"]["room"]["seats"][1]["name"] == "B"
        send(a, **straight_shot(snap["state"]))
        assert a.receive_json()["event"]["kind"] == "shot"


def test_unknown_room_over_websocket(client: TestClient) -> None:
    with client.websocket_connect("/ws/rooms/nothere") as ws:
        assert ws.receive_json()["code"] == "no_room"
