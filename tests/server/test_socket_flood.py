"""Flooding a socket: the flooder is told it is rate limited and cut off (close code 1008) while
another client's shot in another room is answered and ``/api/health`` answers, every board
watcher shares one snapshot per event number, and the director's full view needs the
director's token."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.padkit import Pad, create_board
from tests.server.roomkit import create_room, event, hello, send, straight_shot
from tests.server.tournamentkit import ready_event

from hikone_carrom.server.core.errors import CloseCode
from hikone_carrom.server.pads.boards import Board
from hikone_carrom.server.tournaments import hub_feed


def _flood(ws: Any, message: dict[str, Any]) -> tuple[list[str], int]:
    """Send ``message`` until the server closes; the error codes seen and the close code."""
    codes: list[str] = []
    for _ in range(400):
        ws.send_text(json.dumps(message))
    try:
        while True:
            msg = ws.receive_json()
            if msg.get("type") == "error":
                codes.append(msg["code"])
    except WebSocketDisconnect as closed:
        return codes, closed.code


ANSWER_S = 10.0
"""A generous bound (s) for another client's answer during a flood (never a timing figure)."""


def _flooded(client: TestClient, kind: str) -> tuple[str, list[dict[str, Any]], dict[str, Any]]:
    """A socket of ``kind`` to flood: its path, what the flooder says first, what it repeats."""
    if kind == "rooms":
        room = create_room(client, mode="hotseat")
        return f"/ws/rooms/{room['room_id']}", [], {"type": "resync", "last_seq": 0}
    if kind == "boards":
        b = create_board(client)
        Pad(client, b, "device-flood").setup(["田中", "佐藤"])
        return f"/ws/boards/{b['id']}", [], {"type": "resync"}
    tid, token = ready_event(client)
    if kind == "director":
        return (
            f"/ws/tournaments/{tid}?full=1",
            [{"type": "hello", "token": token}],
            {"type": "resync"},
        )
    return f"/ws/tournaments/{tid}", [], {"type": "search", "key": "山"}


def _flood_until_refused(ws: Any, message: dict[str, Any]) -> None:
    """Send ``message`` 400 times, then read until the server says ``rate_limited`` (a
    flooder whose messages keep pace with its refill is throttled, not always cut off)."""
    for _ in range(400):
        ws.send_text(json.dumps(message))
    while ws.receive_json().get("code") != "rate_limited":
        pass


def _shoot(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    send(ws, **straight_shot(state))
    return event(ws)


@pytest.mark.parametrize("kind", ["rooms", "boards", "tournaments", "director"])
def test_a_flood_of_any_socket_kind_never_keeps_another_clients_shot_waiting(
    client: TestClient, kind: str
) -> None:
    path, first, message = _flooded(client, kind)
    room = create_room(client, mode="hotseat")
    with (
        client.websocket_connect(f"/ws/rooms/{room['room_id']}") as player,
        client.websocket_connect(path) as flooder,
        ThreadPoolExecutor(2) as pool,
    ):
        state = hello(player, room["token"])["state"]
        for said in first:
            flooder.send_text(json.dumps(said))
        flooding = pool.submit(_flood_until_refused, flooder, message)
        shot = pool.submit(_shoot, player, state)
        assert shot.result(timeout=ANSWER_S)["event"]["kind"] == "shot"
        assert client.get("/api/health").status_code == 200
        flooding.result(timeout=60)  # the flooder was told it is rate limited


def test_a_board_watcher_that_floods_resync_is_rate_limited_and_cut_off(
    client: TestClient,
) -> None:
    b = create_board(client)
    with client.websocket_connect(f"/ws/boards/{b['id']}") as ws:
        codes, close = _flood(ws, {"type": "resync"})
    assert "rate_limited" in codes and close == CloseCode.FLOOD
    assert client.get("/api/health").status_code == 200  # the server answers the others


def test_a_spectator_that_floods_resync_is_rate_limited_and_cut_off(client: TestClient) -> None:
    tid, _ = ready_event(client)
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        codes, close = _flood(ws, {"type": "resync"})
    assert "rate_limited" in codes and close == CloseCode.FLOOD
    assert client.get("/api/health").status_code == 200


def test_board_watchers_share_one_snapshot_per_event_number(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    b = create_board(client)
    Pad(client, b, "device-flood").setup(["田中", "佐藤"])
    built: list[int] = []
    view = Board.view
    monkeypatch.setattr(Board, "view", lambda self: built.append(self.seq) or view(self))
    with (
        client.websocket_connect(f"/ws/boards/{b['id']}") as one,
        client.websocket_connect(f"/ws/boards/{b['id']}") as two,
    ):
        for ws in (one, two, one, two):
            ws.send_text(json.dumps({"type": "resync"}))
            assert ws.receive_json()["type"] == "snapshot"
    assert len(built) == 1


def test_spectators_asking_the_same_search_share_one_answer_per_change_number(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid, _ = ready_event(client)
    built: list[str] = []
    search = hub_feed.search_view
    monkeypatch.setattr(
        hub_feed, "search_view", lambda live, key: built.append(key) or search(live, key)
    )
    with (
        client.websocket_connect(f"/ws/tournaments/{tid}") as one,
        client.websocket_connect(f"/ws/tournaments/{tid}") as two,
    ):
        for ws in (one, two, one, two):
            assert ws.receive_json()["type"] in ("snapshot", "search")
            ws.send_text(json.dumps({"type": "search", "key": "山"}))
        for ws in (one, two):
            assert ws.receive_json()["type"] == "search"
    assert built == ["山"]


@pytest.mark.parametrize("hello", [None, {"type": "hello", "token": "not-the-token"}])
def test_the_full_view_needs_the_directors_token(
    client: TestClient, hello: dict[str, Any] | None
) -> None:
    tid, _ = ready_event(client)
    with client.websocket_connect(f"/ws/tournaments/{tid}?full=1") as ws:
        ws.send_json(hello or {"type": "resync"})
        first = ws.receive_json()
        assert first["type"] == "error" and first["code"] == "not_director"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4003
