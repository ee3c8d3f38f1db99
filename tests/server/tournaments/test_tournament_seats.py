"""The seats of an online championship match belong to its players' personal links: the room id
is public, but a client without a link sits down nowhere, and the result credited is the game
the real players played."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.organiserkit import organiser
from tests.server.roomkit import hello, send, straight_shot
from tests.server.tournamentkit import CSV, event, headers

PAIRS = "部門,氏名,よみがな,所属,都道府県,年齢,学年,氏名2,よみがな2,所属2,年齢2,学年2\n" + "".join(
    f"GP,選手{i}A,せんしゅ,彦根,滋賀県,30,,選手{i}B,せんしゅ,彦根,30,\n" for i in range(4)
)


def _online_event(client: TestClient, csv: str, division: str) -> tuple[str, str]:
    r = client.post("/api/tournaments", json={"name": "席の大会", "boards": 2, "online": True},
                    headers=organiser(client))  # fmt: skip
    assert r.status_code == 201, r.text
    tid, token = r.json()["id"], r.json()["token"]
    h = headers(token)
    r = client.post(f"/api/tournaments/{tid}/entries/import", content=csv.encode(), headers=h)
    assert r.status_code == 200, r.text
    r = client.post(f"/api/tournaments/{tid}/divisions/{division}/draw", json={}, headers=h)
    assert r.is_success, r.text
    assert client.post(f"/api/tournaments/{tid}/plan", headers=h).is_success
    return tid, token


def _link_keys(client: TestClient, tid: str, token: str) -> dict[str, str]:
    r = client.get(f"/api/tournaments/{tid}/players", headers=headers(token))
    return {p["player"]: p["link"].split("#k=")[1] for p in r.json()["players"]}


@pytest.mark.parametrize(("csv", "division", "seats"), [(CSV, "GS", 2), (PAIRS, "GP", 4)])
def test_a_stranger_takes_no_seat_of_a_championship_room(
    client: TestClient, csv: str, division: str, seats: int
) -> None:
    tid, token = _online_event(client, csv, division)
    keys = _link_keys(client, tid, token)
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    public = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
    room_id = public["room"]["id"]  # anyone reads it
    assert "token" not in str(public) and "seat_tokens" not in str(public)

    for seat in range(seats):
        r = client.post(f"/api/rooms/{room_id}/seats/{seat}", json={"name": "intruder"})
        assert r.status_code in (403, 409), r.text
        detail = r.json()["detail"]
        assert detail["code"] in ("seat_reserved", "seat_taken") and detail["en"] and detail["ja"]
    assert [s["name"] for s in client.get(f"/api/rooms/{room_id}").json()["room"]["seats"]][1:] == [
        ""
    ] * (seats - 1)  # nobody sat down

    sides = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])["sides"]
    seated: dict[int, str] = {}
    for member in range(seats // 2):
        for entry in sides:
            player = f"{entry['id']}.{member}"
            r = client.post(f"/api/tournaments/{tid}/play/{player}", json={"key": keys[player]})
            assert r.status_code == 200, r.text
            seated[r.json()["seat"]] = r.json()["token"]
    assert sorted(seated) == list(range(seats))

    room: Any = client.app.state.registry.rooms[room_id]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        state = hello(ws, seated[0])["state"]
        send(ws, **straight_shot(state))
        ws.receive_json()
        room._time.shift += 301.0  # time is up (R7b); turns lapse under R8a until it is over
        while not ws.receive_json()["event"]["state"]["over"]:
            room._time.shift += 10.5
    for _ in range(50):
        match = next(m for m in event(client, tid)["matches"] if m["id"] == call["match"])
        if match["result"]:
            break
        client.get("/api/health")
    assert match["status"] == "finished" and match["source"] == "online"
    assert match["result"]["scores"] == list(room.match.outcome.scores)
    names = [s["name"] for s in client.get(f"/api/rooms/{room_id}").json()["room"]["seats"]]
    assert "intruder" not in names
