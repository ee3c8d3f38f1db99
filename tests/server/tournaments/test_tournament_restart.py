"""A restart in the middle of a championship day: a match being scored on a board's pad and a
match being played in an online room both carry on after the server comes back, and both
results reach the standings, though nobody opened either event's page in between."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient
from tests.server.organiserkit import organiser
from tests.server.padkit import Pad
from tests.server.roomkit import hello, send, straight_shot
from tests.server.tournamentkit import CSV, event, headers, ready_event

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings


def _app(db_url: str) -> TestClient:
    return TestClient(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0)))


async def _readied(client: TestClient) -> None:
    """Until the server has loaded its events in play again (it answers before, issue 47)."""
    await asyncio.gather(*client.app.state.readying)  # type: ignore[attr-defined]


def _match(client: TestClient, tid: str, match_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(m for m in event(client, tid)["matches"] if m["id"] == match_id)
    return found


def _online(client: TestClient) -> tuple[str, dict[str, Any], dict[str, str]]:
    """An online event with its first match called and both players seated: (event, the call,
    seat tokens by side 0/1)."""
    r = client.post("/api/tournaments", json={"name": "ネット大会", "boards": 2, "online": True},
                    headers=organiser(client))  # fmt: skip
    tid, token = r.json()["id"], r.json()["token"]
    h = headers(token)
    assert client.post(f"/api/tournaments/{tid}/entries/import", content=CSV.encode(), headers=h)
    assert client.post(f"/api/tournaments/{tid}/divisions/GS/draw", json={}, headers=h).is_success
    assert client.post(f"/api/tournaments/{tid}/plan", headers=h).is_success
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=h).json()
    players = client.get(f"/api/tournaments/{tid}/players", headers=h).json()["players"]
    links = {p["name"]: p for p in players}
    seats = {}
    for side, name in enumerate(call["sides"]):
        link = links[name]
        key = link["link"].split("#k=")[1]
        r = client.post(f"/api/tournaments/{tid}/play/{link['player']}", json={"key": key})
        seats[str(side)] = r.json()["token"]
    return tid, call, seats


def test_a_restart_keeps_pad_and_online_matches_feeding_the_standings(db_url: str) -> None:
    with _app(db_url) as c:
        # on the boards: a pad scores the called match on board 1
        tid, token = ready_event(c)
        r = c.post(f"/api/tournaments/{tid}/pads", json={"boards": [1]}, headers=organiser(c))
        link = r.json()["pads"][0]
        call = c.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).json()
        pad_token = link["pad_url"].split("#t=")[1]
        pad = Pad(c, {"id": link["pad_board"], "token": pad_token}, "referee-phone")
        c.post(f"/api/boards/{link['pad_board']}/claim", json={"device": pad.device},
               headers={"authorization": f"Bearer {pad_token}"})  # fmt: skip
        pad.match = 1
        pad.send(pad.shot(), pad.shot(green=4))
        assert _match(c, tid, call["match"])["status"] == "playing"

        # online: the first shot of the called match is played
        otid, ocall, seats = _online(c)
        with c.websocket_connect(f"/ws/rooms/{ocall['room']}") as ws:
            state = hello(ws, seats["0"])["state"]
            send(ws, **straight_shot(state))
            ws.receive_json()
        assert _match(c, otid, ocall["match"])["status"] == "playing"

    with _app(db_url) as c:  # the server is back; nobody has opened either event's page
        hub = c.app.state.tournaments  # type: ignore[attr-defined]
        c.portal.call(_readied, c)  # type: ignore[union-attr]
        assert {tid, otid} <= set(hub.events)  # watched again from the start
        pad.client = c
        pad.send(pad.shot(), pad.shot(red=12), pad.shot(jack=True))
        pad.send(pad.op("confirm"))
        room: Any = None
        with c.websocket_connect(f"/ws/rooms/{ocall['room']}") as ws:
            hello(ws, seats["1"])
            room = c.app.state.registry.rooms[ocall["room"]]  # type: ignore[attr-defined]
            room._time.shift += 301.0  # time is up (R7b); turns lapse under R8a until it is over
            while not ws.receive_json()["event"]["state"]["over"]:
                room._time.shift += 10.5
        for _ in range(50):  # the result is in before anyone asks for the event
            if ocall["match"] in hub.events[otid].event.results:
                break
            c.get("/api/health")
        online = _match(c, otid, ocall["match"])
        on_board = _match(c, tid, call["match"])
        assert on_board["status"] == "finished" and on_board["source"] == "pad"
        assert on_board["result"]["scores"] == [112, 4]
        table = event(c, tid)["divisions"][2]["pools"]
        assert sum(s["points"] for p in table for s in p["standings"]) == 2
        assert online["status"] == "finished" and online["source"] == "online"
        assert online["result"]["scores"] == list(room.match.outcome.scores)
        otable = event(c, otid)["divisions"][2]["pools"]
        assert sum(s["played"] for p in otable for s in p["standings"]) == 2
