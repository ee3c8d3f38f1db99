"""The spectators' WebSocket: a compact snapshot (every board's current and next match), views
asked for on the same connection and answered in order with the numbered updates, live scores
and clocks gathered into one message a second; the director's console takes the whole event."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from tests.server.tournamentkit import changed, event, headers, ready_event


def _answer(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg


def test_a_spectator_gets_the_boards_first_and_asks_for_the_rest(client: TestClient) -> None:
    tid, _ = ready_event(client, boards=3)
    whole = event(client, tid)
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        text = ws.receive_text()
        snap = json.loads(text)
        view = snap["event"]
        assert snap["full"] is False and view["entries"] == []
        assert [t[0] for t in view["tiles"]] == [1, 2, 3]
        first = {}
        for m in sorted(whole["matches"], key=lambda m: m["planned"]["start_s"]):
            first.setdefault(m["planned"]["board"], m["id"])
        assert {t[0]: t[2] for t in view["tiles"]} == first  # each board's next match
        assert {m["id"] for m in view["matches"]} == set(first.values())
        assert all(d["pools"] == [] for d in view["divisions"])
        assert len(text) * 3 < len(client.get(f"/api/tournaments/{tid}").text)

        ws.send_json({"type": "division", "key": "GS:pools"})
        pools = _answer(ws, "division")
        assert pools["seq"] == snap["seq"] and pools["key"] == "GS:pools"
        tables = pools["data"]["division"]["pools"]
        assert [p["label"] for p in tables] == ["A", "B"]
        assert tables[0]["standings"][0]["name"].startswith("選手")
        ws.send_json({"type": "division", "key": "GS:bracket"})
        bracket = _answer(ws, "division")["data"]
        assert {m["stage"] for m in bracket["matches"]} == {"knockout"}
        assert bracket["division"]["pools"] == [] and bracket["division"]["bracket"]["rounds"]

        ws.send_json({"type": "search", "key": "ヤマダ"})
        found = _answer(ws, "search")["data"]["entries"]
        assert [e["name"] for e in found] == ["選手00 山田"]
        hers = [
            m for m in whole["matches"] if any(s and s["id"] == found[0]["id"] for s in m["sides"])
        ]
        assert found[0]["next"]["status"] == "planned" and len(found[0]["matches"]) == len(hers)
        ws.send_json({"type": "entry", "key": found[0]["id"]})
        mine = _answer(ws, "entry")["data"]
        assert [m["id"] for m in mine["matches"]] == [m["id"] for m in found[0]["matches"]]

        ws.send_json({"type": "entry", "key": "GS-999"})
        assert _answer(ws, "error")["code"] == "no_entry"
        ws.send_json({"type": "division", "key": "GS:everything"})
        assert _answer(ws, "error")["code"] == "bad_view"
        ws.send_text("{not json")
        error = _answer(ws, "error")
        assert error["code"] == "bad_message" and error["message"]["ja"]


def test_an_answer_comes_in_order_with_the_updates(client: TestClient) -> None:
    tid, token = ready_event(client)
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        snap = ws.receive_json()
        call = client.post(f"/api/tournaments/{tid}/boards/2/call", headers=headers(token)).json()
        ws.send_json({"type": "entry", "key": "GS-001"})
        update = ws.receive_json()
        assert update["type"] == "update" and update["seq"] == snap["seq"] + 1
        assert update["call"]["match"] == call["match"]
        assert [2, call["match"]] == update["tiles"][0][:2]  # board 2 now holds the call
        answer = ws.receive_json()
        assert answer["type"] == "entry" and answer["seq"] == update["seq"]


def test_live_scores_are_gathered_into_one_message_a_second(client: TestClient) -> None:
    tid, token = ready_event(client)
    first, second = (
        client.post(f"/api/tournaments/{tid}/boards/{b}/call", headers=headers(token)).json()
        for b in (1, 2)
    )
    live = client.app.state.tournaments.events[tid]  # type: ignore[attr-defined]
    portal = client.portal  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        ws.receive_json()
        clock = {"elapsed": 12.5, "running": True, "at_ms": 1.0e12}
        portal.call(live.live_score, first["match"], (0, 1))
        portal.call(live.live_score, first["match"], (0, 4))
        portal.call(live.live_score, second["match"], (2, 0), clock)
        portal.call(live.live_score, second["match"], (2, 0), clock)  # no change
        msg = ws.receive_json()
        assert msg == {
            "type": "live",
            "scores": {first["match"]: [0, 4], second["match"]: [2, 0]},
            "clocks": {second["match"]: clock},
        }
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        snap = ws.receive_json()  # a newcomer gets the scores and clocks in the snapshot
        assert snap["scores"][first["match"]] == [0, 4]
        assert snap["clocks"] == {second["match"]: clock}


def test_the_directors_console_takes_the_whole_event(client: TestClient) -> None:
    tid, token = ready_event(client)
    with client.websocket_connect(f"/ws/tournaments/{tid}?full=1") as ws:
        ws.send_json({"type": "hello", "token": token})
        snap = ws.receive_json()
    assert snap["full"] is True and len(snap["event"]["entries"]) == 9
    assert len(snap["event"]["matches"]) == len(event(client, tid)["matches"])


def test_a_page_is_sent_the_pool_tables_of_the_division_it_shows_only(
    client: TestClient,
) -> None:
    tid, token = ready_event(client)
    first = next(m for m in event(client, tid)["matches"] if m["pool"] == 1)
    with (
        client.websocket_connect(f"/ws/tournaments/{tid}") as boards,
        client.websocket_connect(f"/ws/tournaments/{tid}") as pools,
        client.websocket_connect(f"/ws/tournaments/{tid}?full=1") as console,
    ):
        console.send_json({"type": "hello", "token": token})
        for ws in (boards, pools, console):
            ws.receive_json()
        pools.send_json({"type": "division", "key": "JA:pools"})
        _answer(pools, "division")
        pools.send_json({"type": "division", "key": "GS:pools"})  # the page moved on to GS
        _answer(pools, "division")
        client.put(f"/api/tournaments/{tid}/matches/{first['id']}/result",
                   json={"scores": [7, 1]}, headers=headers(token))  # fmt: skip
        seen = {name: _answer(ws, "update") for name, ws in
                (("boards", boards), ("pools", pools), ("console", console))}  # fmt: skip
    assert seen["boards"].get("pools", []) == []
    assert [p["label"] for p in seen["pools"]["pools"]] == ["A"]
    assert seen["console"]["pools"] == seen["pools"]["pools"]
    assert changed(seen["boards"]) == changed(seen["pools"])
    done = changed(seen["boards"])[first["id"]]
    assert "pad" not in done and done["result"]["scores"] == [7, 1]  # no empty fields
    whole = next(m for m in seen["console"]["matches"] if m["id"] == first["id"])
    assert whole["pad"] is None
