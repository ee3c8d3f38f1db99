"""Against the computer: the levels that exist, and the computer replying on its own."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, hello, send, straight_shot


def test_levels_are_the_library_players(client: TestClient) -> None:
    levels = client.get("/api/levels").json()["levels"]
    ids = [lv["id"] for lv in levels]
    assert ids[:2] == ["random", "greedy"]
    assert ids[2:] == ["1", "2", "3", "4", "5", "6"]
    assert all(lv["en"] and lv["ja"] for lv in levels)
    # Players read names, not algorithms.
    shown = " ".join(lv["en"] + lv["ja"] for lv in levels).lower()
    assert not any(word in shown for word in ("random", "greedy", "ランダム", "貪欲"))
    bad = client.post("/api/rooms", json={"mode": "computer", "level": "grandmaster"})
    assert bad.status_code == 422
    assert bad.json()["detail"]["code"] == "no_such_level"


def test_the_computer_replies_after_the_human_shot(client: TestClient) -> None:
    made = create_room(client, mode="computer", players=2, level="1", name="Hana")
    rid = made["room_id"]
    assert made["seats"] == [0]
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        snap = hello(ws, made["token"])
        seats = snap["room"]["seats"]
        assert [s["kind"] for s in seats] == ["human", "computer"]
        assert seats[1]["name"] == "1"
        state = snap["state"]
        shots_by = []
        for _ in range(30):
            if state["shooter"] == 0:
                send(ws, **straight_shot(state, speed=1.0 + 0.3 * len(shots_by)))
            msg = ws.receive_json()
            assert msg["type"] == "event", msg
            ev = msg["event"]
            state = ev["state"]
            if ev["kind"] == "shot":
                shots_by.append(ev["seat"])
            if 1 in shots_by or state["over"]:
                break
        assert shots_by[0] == 0
        assert 1 in shots_by  # the computer has replied through the same checked path
        assert ev["kind"] == "shot" and ev["seat"] == 1  # the last event is the reply
        assert set(ev["noise"]) == {"dx", "dy", "dangle", "speed_factor"}


def test_a_person_cannot_shoot_for_the_computer(client: TestClient) -> None:
    made = create_room(client, mode="computer", players=2, level="random")
    with client.websocket_connect(f"/ws/rooms/{made['room_id']}") as ws:
        snap = hello(ws, made["token"])
        send(ws, **{**straight_shot(snap["state"]), "seat": 1})
        assert ws.receive_json()["code"] == "not_your_seat"
