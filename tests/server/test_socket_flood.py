"""Flooding a socket: the flooder is told it is rate limited and cut off (close code 1008) while
another client's shot in another room is answered and ``/api/health`` answers, every board
watcher shares one snapshot per event number, the director's full view needs the director's
token, and one address opening sockets in a tight loop is refused after its burst (HTTP 429,
before accepting; longer after a cut-off) while another address still plays."""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect
from tests.server.padkit import Pad, create_board
from tests.server.roomkit import create_room, event, hello, send, straight_shot
from tests.server.tournamentkit import ready_event

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.errors import CloseCode
from hikone_carrom.server.core.ratelimit import CUT_OFF_COST, SocketGate
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


class FromAddress:
    """The app as seen from the client address :attr:`host` (changed between connections)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.host = "192.0.2.1"

    @property
    def state(self) -> Any:
        return self.app.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope = {**scope, "client": (self.host, 50000)}
        await self.app(scope, receive, send)


@pytest.fixture
def seen(db_url: str) -> Iterator[tuple[TestClient, FromAddress]]:
    """A server with the default socket limits (2 a second, 20 at once) and its address."""
    wrapped = FromAddress(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0)))
    with TestClient(wrapped) as c:
        yield c, wrapped


def _sockets_until_refused(client: TestClient, path: str) -> tuple[int, float, Any]:
    """Open and close sockets to ``path`` in a tight loop until one is refused: how many were
    accepted, in how long (s), and the refusal."""
    t0 = time.monotonic()
    for accepted in range(200):
        try:
            with client.websocket_connect(path) as ws:
                ws.send_text(json.dumps({"type": "ping"}))
                ws.receive_json()
        except WebSocketDenialResponse as refused:
            return accepted, time.monotonic() - t0, refused
    raise AssertionError("200 sockets in a row were accepted")


def test_one_address_opening_sockets_in_a_tight_loop_is_refused_while_another_still_plays(
    seen: tuple[TestClient, FromAddress],
) -> None:
    client, address = seen
    b = create_board(client)
    accepted, took_s, refused = _sockets_until_refused(client, f"/ws/boards/{b['id']}")
    assert 20 <= accepted <= 20 + math.ceil(2 * took_s) + 1
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    detail = refused.json()["detail"]
    assert detail["code"] == "rate_limited" and detail["en"] and detail["ja"]
    with pytest.raises(WebSocketDenialResponse):  # every socket kind counts together
        client.websocket_connect(f"/ws/rooms/{create_room(client)['room_id']}").__enter__()
    address.host = "192.0.2.2"  # a second client
    room = create_room(client)
    with client.websocket_connect(f"/ws/rooms/{room['room_id']}") as player:
        state = hello(player, room["token"])["state"]
        assert _shoot(player, state)["event"]["kind"] == "shot"


def test_an_address_whose_socket_was_cut_off_waits_longer_for_its_next_ones(
    seen: tuple[TestClient, FromAddress],
) -> None:
    client, _ = seen
    b = create_board(client)
    with client.websocket_connect(f"/ws/boards/{b['id']}") as ws:
        _, close = _flood(ws, {"type": "resync"})
    assert close == CloseCode.FLOOD
    accepted, took_s, _ = _sockets_until_refused(client, f"/ws/boards/{b['id']}")
    assert accepted <= 20 - 1 - 20 * CUT_OFF_COST + math.ceil(2 * took_s) + 1


def test_the_socket_limit_remembers_few_addresses_and_refuses_before_accepting() -> None:
    reached: list[str] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        reached.append(scope["client"][0])
        await send({"type": "websocket.close", "code": 1000})

    gate = SocketGate(app, 2.0, addresses=100)
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async def receive() -> Message:
        return {"type": "websocket.connect"}

    async def handshakes(addresses: list[str], extensions: dict[str, Any]) -> None:
        for host in addresses:
            scope = {"type": "websocket", "client": (host, 1), "extensions": extensions}
            await gate(scope, receive, send)

    denial = {"websocket.http.response": {}}
    asyncio.run(handshakes([f"10.0.{k // 256}.{k % 256}" for k in range(1000)], denial))
    assert len(gate.rate) <= 100 and len(reached) == 1000
    reached.clear()
    sent.clear()
    asyncio.run(handshakes(["10.9.9.9"] * 25, denial))
    assert len(reached) == 20  # the refused ones never reach the app
    refusals = [m for m in sent if m["type"] == "websocket.http.response.start"]
    assert len(refusals) == 5 and all(m["status"] == 429 for m in refusals)
    sent.clear()
    asyncio.run(handshakes(["10.9.9.9"], {}))  # no HTTP answer to a handshake: close 1008
    assert sent == [{"type": "websocket.close", "code": 1008}] and len(reached) == 20
