"""Automatic mode on the server: calls fill the free boards, a busy entrant's match follows the
moment they are free, pools close on their last result unless held, the knockout starts by
itself, a pause stops it all and a restart keeps it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.tournamentkit import event, headers, ready_event

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.tournaments.hub_auto import AutoRunner


def _auto(c: TestClient, tid: str, token: str) -> dict[str, Any]:
    """The automatic mode's view (answered after the passes under way)."""
    r = c.get(f"/api/tournaments/{tid}/auto", headers=headers(token))
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _switch(c: TestClient, tid: str, token: str, on: bool) -> dict[str, Any]:
    r = c.put(f"/api/tournaments/{tid}/auto", json={"on": on}, headers=headers(token))
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _result(c: TestClient, tid: str, token: str, match_id: str, a: int = 112, b: int = 7) -> None:
    r = c.put(f"/api/tournaments/{tid}/matches/{match_id}/result", json={"scores": [a, b]},
              headers=headers(token))  # fmt: skip
    assert r.status_code == 200, r.text
    _auto(c, tid, token)


def _on_boards(c: TestClient, tid: str) -> dict[int, dict[str, Any]]:
    return {m["board"]: m for m in event(c, tid)["matches"] if m["status"] in ("called", "playing")}


def _ids(m: dict[str, Any]) -> set[str]:
    return {s["id"] for s in m["sides"]}


def test_automatic_calls_fill_the_free_boards_nobody_twice(client: TestClient) -> None:
    tid, token = ready_event(client, boards=4)
    assert _on_boards(client, tid) == {}
    view = _switch(client, tid, token, True)
    assert view["on"] is True
    boards = _on_boards(client, tid)
    assert sorted(boards) == [1, 2, 3, 4]
    players = [p for m in boards.values() for p in _ids(m)]
    assert len(players) == len(set(players)) == 8
    # the rest wait, each with its reason in both languages
    waiting = view["waiting"]
    assert waiting and all(w["text"]["ja"] and w["text"]["en"] for w in waiting)
    assert {w["code"] for w in waiting} <= {"board", "entrant", "pool", "match"}
    audit = client.get(f"/api/tournaments/{tid}/director", headers=headers(token)).json()["audit"]
    calls = [a for a in audit if a["action"] == "call"]
    assert len(calls) == 4 and {a["who"] for a in calls} == {"auto"}


def test_a_busy_entrants_match_is_called_the_moment_they_are_free(client: TestClient) -> None:
    # 9 players on 6 boards: 4 matches at once, the others wait for a player
    tid, token = ready_event(client, boards=6)
    view = _switch(client, tid, token, True)
    assert len(_on_boards(client, tid)) == 4
    busy = next(w for w in view["waiting"] if w["code"] == "entrant")
    assert busy["on"] in {m["id"] for m in _on_boards(client, tid).values()}
    assert busy["text"]["ja"].endswith(f"試合 {busy['on']} 中です")
    _result(client, tid, token, busy["on"])
    called = {m["id"] for m in _on_boards(client, tid).values()}
    assert busy["match"] in called


def test_a_pool_closes_itself_on_its_last_result_unless_held(client: TestClient) -> None:
    tid, token = ready_event(client, boards=4)
    h = headers(token)
    r = client.put(f"/api/tournaments/{tid}/auto/holds/GS/2", json={"held": True}, headers=h)
    assert r.status_code == 200 and r.json()["held"] == [["GS", 2]]
    _switch(client, tid, token, True)
    while _on_boards(client, tid):
        for m in _on_boards(client, tid).values():
            _result(client, tid, token, m["id"])
    pools = {p["number"]: p for p in event(client, tid)["divisions"][2]["pools"]}
    assert pools[1]["complete"] and pools[1]["closed"]
    assert pools[2]["complete"] and not pools[2]["closed"]  # held
    held = [w for w in _auto(client, tid, token)["waiting"] if w["code"] == "pool"]
    assert held and all(w["pool"] == ["GS", 2] and w["held"] for w in held)
    # let it go: it closes at once and the knockout starts on the free boards
    r = client.put(f"/api/tournaments/{tid}/auto/holds/GS/2", json={"held": False}, headers=h)
    assert r.status_code == 200 and r.json()["held"] == []
    pools = {p["number"]: p for p in event(client, tid)["divisions"][2]["pools"]}
    assert pools[2]["closed"]
    knockout = [m for m in _on_boards(client, tid).values() if m["stage"] == "knockout"]
    assert knockout


def test_the_knockout_starts_when_its_pools_close(client: TestClient) -> None:
    tid, token = ready_event(client, boards=4)
    _switch(client, tid, token, True)
    while True:
        boards = _on_boards(client, tid)
        pool = [m for m in boards.values() if m["stage"] == "pool"]
        if not pool:
            break
        for m in pool:
            _result(client, tid, token, m["id"])
    assert all(p["closed"] for p in event(client, tid)["divisions"][2]["pools"])
    knockout = list(_on_boards(client, tid).values())
    assert knockout and all(m["stage"] == "knockout" for m in knockout)
    # the knockout plays on to its final by itself
    while _on_boards(client, tid):
        for m in _on_boards(client, tid).values():
            _result(client, tid, token, m["id"])
    places = event(client, tid)["divisions"][2]["places"]
    assert places["1"] and places["2"]


def test_a_pause_stops_calls_and_the_director_still_calls_by_hand(client: TestClient) -> None:
    tid, token = ready_event(client, boards=4)
    _switch(client, tid, token, True)
    board, first = next(iter(_on_boards(client, tid).items()))
    view = _switch(client, tid, token, False)
    assert view["on"] is False
    _result(client, tid, token, first["id"])
    assert board not in _on_boards(client, tid)  # nothing called by itself
    ready = [w for w in _auto(client, tid, token)["waiting"] if w["code"] == "ready"]
    assert ready and ready[0]["board"] == board
    assert "停止中" in ready[0]["text"]["ja"] and "paused" in ready[0]["text"]["en"]
    r = client.post(f"/api/tournaments/{tid}/boards/{board}/call", headers=headers(token))
    assert r.status_code == 200, r.text
    assert board in _on_boards(client, tid)


def test_the_mode_needs_the_directors_token(client: TestClient) -> None:
    tid, _ = ready_event(client)
    assert client.put(f"/api/tournaments/{tid}/auto", json={"on": True}).status_code == 401
    assert client.get(f"/api/tournaments/{tid}/auto").status_code == 401
    assert _on_boards(client, tid) == {}


def test_holding_an_unknown_pool_is_refused(client: TestClient) -> None:
    tid, token = ready_event(client)
    r = client.put(f"/api/tournaments/{tid}/auto/holds/GS/9", json={"held": True},
                   headers=headers(token))  # fmt: skip
    assert r.status_code == 409
    assert r.json()["detail"]["code"] == "no_pool"


def test_a_restart_keeps_automatic_mode(db_url: str) -> None:
    def app() -> TestClient:
        return TestClient(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0)))

    with app() as c:
        tid, token = ready_event(c, boards=4)
        h = headers(token)
        assert c.put(f"/api/tournaments/{tid}/auto/holds/GS/1", json={"held": True}, headers=h)
        _switch(c, tid, token, True)
        first = _on_boards(c, tid)
    with app() as c:
        view = _auto(c, tid, token)
        assert view["on"] is True and view["held"] == [["GS", 1]]
        assert _on_boards(c, tid) == first
        board, match = next(iter(first.items()))
        _result(c, tid, token, match["id"])
        again = _on_boards(c, tid)
        assert board in again and again[board]["id"] != match["id"]


def test_a_restart_resumes_automatic_mode_of_an_event_with_nothing_on_its_boards(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def app() -> TestClient:
        return TestClient(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0)))

    with monkeypatch.context() as m, app() as c:
        # the server stops after automatic mode is stored, before its first pass
        m.setattr(AutoRunner, "poke", lambda self: None)
        tid, token = ready_event(c, boards=4)
        _switch(c, tid, token, True)
        assert _on_boards(c, tid) == {}
    with app() as c:  # nobody opens the event: its boards are called all the same
        hub = c.app.state.tournaments  # type: ignore[attr-defined]
        c.portal.call(asyncio.gather, *c.app.state.readying)  # type: ignore[attr-defined,union-attr]
        assert tid in hub.events
        c.portal.call(hub.events[tid].auto.settled)  # type: ignore[union-attr]
        assert sorted(_on_boards(c, tid)) == [1, 2, 3, 4]
