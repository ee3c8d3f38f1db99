"""Online events: a call creates an online room of the browser game, each player takes their own
seat through their personal link, and the finished game's result goes into the standings."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.organiserkit import organiser
from tests.server.roomkit import hello, send, straight_shot
from tests.server.tournamentkit import CSV, changed, event, headers


def _online_event(client: TestClient) -> tuple[str, str]:
    r = client.post(
        "/api/tournaments",
        json={"name": "オンライン大会", "boards": 2, "online": True},
        headers=organiser(client),
    )
    assert r.status_code == 201
    tid, token = r.json()["id"], r.json()["token"]
    h = headers(token)
    assert client.post(f"/api/tournaments/{tid}/entries/import", content=CSV.encode(), headers=h)
    assert client.post(f"/api/tournaments/{tid}/divisions/GS/draw", json={}, headers=h).is_success
    assert client.post(f"/api/tournaments/{tid}/plan", headers=h).is_success
    return tid, token


def _links(client: TestClient, tid: str, token: str) -> dict[str, dict[str, Any]]:
    r = client.get(f"/api/tournaments/{tid}/players", headers=headers(token))
    assert r.status_code == 200
    return {p["name"]: p for p in r.json()["players"]}


def _seat(client: TestClient, tid: str, link: dict[str, Any], status: int = 200) -> dict[str, Any]:
    key = link["link"].split("#k=")[1]
    r = client.post(f"/api/tournaments/{tid}/play/{link['player']}", json={"key": key})
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    return data


def test_an_online_match_from_the_call_to_the_standings(client: TestClient) -> None:
    tid, token = _online_event(client)
    links = _links(client, tid, token)
    assert len(links) == 9 and all("/play/GS-" in p["link"] for p in links.values())
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    assert call["room"] and call["pad"] is None
    red, green = call["sides"]
    idle = next(n for n in links if n not in (red, green))
    refused = _seat(client, tid, links[idle], status=409)
    assert refused["detail"]["code"] == "not_called" and refused["detail"]["ja"]
    forged = {**links[red], "link": links[red]["link"].split("#k=")[0] + "#k=" + "0" * 20}
    assert _seat(client, tid, forged, status=403)["detail"]["code"] == "bad_player_link"

    seat_red = _seat(client, tid, links[red])
    seat_green = _seat(client, tid, links[green])
    assert (seat_red["room"], seat_red["seat"], seat_green["seat"]) == (call["room"], 0, 1)
    assert _seat(client, tid, links[green])["token"] == seat_green["token"]  # same seat again
    room_view = client.get(f"/api/rooms/{call['room']}").json()
    assert [s["name"] for s in room_view["room"]["seats"]] == [red, green]

    room: Any = client.app.state.registry.rooms[call["room"]]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/rooms/{call['room']}") as ws:
        state = hello(ws, seat_red["token"])["state"]
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
    assert client.get(match["room"]["record"]).status_code == 200  # the game's match record
    audit = client.get(f"/api/tournaments/{tid}/director", headers=headers(token)).json()["audit"]
    assert audit[0]["who"] == f"room:{call['room']}" and audit[0]["detail"]["source"] == "online"
    assert all("token" not in str(a["detail"]) for a in audit)  # no seat token in the trail


def test_player_links_need_an_online_event(client: TestClient) -> None:
    r = client.post("/api/tournaments", json={"name": "会場大会"}, headers=organiser(client))
    tid = r.json()["id"]
    r = client.post(f"/api/tournaments/{tid}/play/GS-001.0", json={"key": "x"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "not_online"


def test_an_online_match_is_playing_from_the_first_shot(client: TestClient) -> None:
    tid, token = _online_event(client)
    links = _links(client, tid, token)
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
    red, green = call["sides"]
    seat_red = _seat(client, tid, links[red])
    _seat(client, tid, links[green])  # everyone seated: the room's clock runs

    def match() -> dict[str, Any]:
        found: dict[str, Any] = next(
            m for m in event(client, tid)["matches"] if m["id"] == call["match"]
        )
        return found

    assert match()["status"] == "called"  # seated, nobody has shot yet
    with (
        client.websocket_connect(f"/ws/tournaments/{tid}") as spectator,
        client.websocket_connect(f"/ws/rooms/{call['room']}") as ws,
    ):
        spectator.receive_json()
        state = hello(ws, seat_red["token"])["state"]
        send(ws, **straight_shot(state))
        ws.receive_json()
        update = spectator.receive_json()
        assert update["type"] == "update"
        assert changed(update)[call["match"]]["status"] == "playing"
        live = spectator.receive_json()
        while live["type"] != "live":
            live = spectator.receive_json()
        clock = live["clocks"][call["match"]]
        assert 0 <= clock["elapsed"] < 300 and clock["running"] is True
        assert len(live["scores"][call["match"]]) == 2
    assert match()["status"] == "playing" and match()["started_at"]
