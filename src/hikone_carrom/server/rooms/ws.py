"""The play protocol: JSON over WebSocket, one connection per browser tab.

A client says ``hello`` with its seat token; it gets a snapshot and from then on every numbered
event of the room. Malformed or illegal messages get an ``error`` back and change nothing. What
waits to be sent to one client is bounded: a client that falls that far behind is disconnected
(:attr:`CloseCode.TOO_SLOW`) and gets a snapshot when it reconnects. :class:`Connection` and
:func:`serve_connection` serve every socket kind (rooms, boards, tournaments).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from fastapi import WebSocket

from hikone_carrom.server.core import wire
from hikone_carrom.server.core.client_messages import SocketMessages
from hikone_carrom.server.core.errors import CloseCode, DuplicateAction, RoomError, error_message
from hikone_carrom.server.core.ratelimit import Inbox, MessageRate
from hikone_carrom.server.rooms.chat import CHAT_BURST, CHAT_PER_SECOND
from hikone_carrom.server.rooms.registry import RoomRegistry, ServedRoom
from hikone_carrom.server.rooms.schemas import (
    CLIENT_MESSAGE,
    AnalyseRequest,
    ChatMessage,
    Hello,
    HintRequest,
    Ping,
    Resync,
)

__all__ = ["Connection", "WatchLimits", "serve_connection", "serve_room", "serve_watcher"]

log = logging.getLogger(__name__)

MAX_MESSAGE = 4096
"""Longest client message accepted, characters."""

_RECONNECT = {
    "room_moved": CloseCode.ROOM_MOVED,
    "store_unavailable": CloseCode.UNAVAILABLE,
    "cluster_unavailable": CloseCode.UNAVAILABLE,
}
"""Refusals after which a connection cannot go on as it is: it is closed with this code and the
client reconnects (a hello that got no snapshot, a room served from elsewhere now)."""

CLOSE_WAIT_S = 2.0
"""How long (s) a closing connection may take to send what is queued and its close frame."""

ROOM_MESSAGES = SocketMessages(CLIENT_MESSAGE)
"""A room client's messages (``SOCKET_MESSAGES["room"]`` in ``core/access.py``)."""


class Connection:
    """One client: a bounded outgoing buffer drained by its own writer task, and its seats.

    ``buffer_chars`` bounds the characters waiting to be sent; a message that would pass it drops
    the client instead (:attr:`CloseCode.TOO_SLOW`), so a client that never reads costs at most
    that much memory.
    """

    def __init__(self, websocket: WebSocket, *, buffer_chars: int) -> None:
        self.websocket = websocket
        self.seats: frozenset[int] = frozenset()
        self.buffer_chars = buffer_chars
        self.pending: deque[str] = deque()
        self.pending_chars = 0
        self.close_code: int | None = None
        self._ready = asyncio.Event()
        self.dropped = asyncio.Event()
        """Set when the server decides to close this connection (too slow, room moved)."""
        self.chat_rate = MessageRate(CHAT_BURST, CHAT_PER_SECOND)
        """Chat lines this client may send (only lines the room took count)."""

    def send(self, text: str) -> None:
        """Queue a message; a slow client never holds up the room."""
        if self.dropped.is_set():
            return
        if self.pending_chars + len(text) > self.buffer_chars:
            log.info("dropping a client that fell %d characters behind", self.pending_chars)
            self.drop(CloseCode.TOO_SLOW)
            return
        self.pending.append(text)
        self.pending_chars += len(text)
        self._ready.set()

    def forget(self) -> None:
        """The connection is over: let go of what was still waiting to be sent."""
        self.pending.clear()
        self.pending_chars = 0

    def send_json(self, message: dict[str, Any]) -> None:
        """Queue a message given as a dict."""
        self.send(wire.dumps(message))

    def drop(self, code: int) -> None:
        """Close this connection with ``code`` (the client reconnects and resyncs)."""
        if self.close_code is None:
            self.close_code = int(code)
        self.dropped.set()

    async def write(self) -> None:
        """Send queued messages for as long as the connection lives."""
        while True:
            await self._ready.wait()
            while self.pending:
                text = self.pending[0]
                await self.websocket.send_text(text)
                self.pending.popleft()
                self.pending_chars -= len(text)
            self._ready.clear()

    async def flush(self) -> None:
        """Wait until everything queued has been handed to the socket."""
        while self.pending:
            await asyncio.sleep(0.01)


async def serve_room(websocket: WebSocket, room_id: str, registry: RoomRegistry) -> None:
    """Run one client's connection to a room until it closes."""
    await websocket.accept()
    conn = Connection(websocket, buffer_chars=registry.settings.send_buffer_chars)
    await serve_connection(conn, _read(websocket, conn, room_id, registry))


async def serve_connection(conn: Connection, read: Coroutine[Any, Any, None]) -> None:
    """Run an accepted connection: ``read`` handles the client's messages while the writer sends
    what is queued, until the client goes, ``read`` ends or the server drops the connection;
    then what is queued is sent (not to a client too slow for it), the socket is closed with
    :attr:`Connection.close_code` and the queue let go of."""
    websocket = conn.websocket
    writer = asyncio.create_task(conn.write())
    reader = asyncio.create_task(read)
    dropped = asyncio.create_task(conn.dropped.wait())
    try:
        await asyncio.wait({reader, writer, dropped}, return_when=asyncio.FIRST_COMPLETED)
        if not reader.done():
            reader.cancel()
        with contextlib.suppress(BaseException):
            await reader
        if conn.close_code != CloseCode.TOO_SLOW and not writer.done():
            flush = asyncio.create_task(conn.flush())
            await asyncio.wait(
                {flush, writer}, timeout=CLOSE_WAIT_S, return_when=asyncio.FIRST_COMPLETED
            )
            flush.cancel()
    finally:
        for task in (writer, dropped, reader):
            task.cancel()
        with contextlib.suppress(BaseException):
            await writer
        conn.forget()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                websocket.close(code=conn.close_code or 1000), timeout=CLOSE_WAIT_S
            )


@dataclass(frozen=True)
class WatchLimits:
    """What a watcher (a board's or an event's) may send: ``burst`` messages at once, then
    ``per_second``, each at most ``max_chars`` characters."""

    burst: int
    per_second: float
    max_chars: int


class _Watched(Protocol):
    @property
    def subscribers(self) -> set[Any]: ...


W = TypeVar("W", bound=_Watched)


async def serve_watcher(
    conn: Connection,
    lookup: Awaitable[W],
    limits: WatchLimits,
    answer: Callable[[W, str], Awaitable[None]],
    start: Callable[[Inbox, W], Awaitable[bool]] | None = None,
) -> None:
    """Accept a watcher's socket and serve it until it closes: ``lookup`` finds what it
    watches (a refusal is sent and the socket closed); ``start``, if given, runs first and
    may refuse the watcher (False: it has set what to send and the close code); then every
    message its :class:`Inbox` lets through goes to ``answer``. When it ends the watcher is
    no longer one of the ``subscribers`` (:attr:`CloseCode.FLOOD` if it was cut off)."""
    await conn.websocket.accept()
    await serve_connection(conn, _watch(conn, lookup, limits, answer, start))


async def _watch(
    conn: Connection,
    lookup: Awaitable[W],
    limits: WatchLimits,
    answer: Callable[[W, str], Awaitable[None]],
    start: Callable[[Inbox, W], Awaitable[bool]] | None,
) -> None:
    try:
        watched = await lookup
    except RoomError as err:
        conn.send_json(err.to_message())
        return
    rate = MessageRate(limits.burst, limits.per_second)
    inbox = Inbox(conn.websocket, conn, rate, max_chars=limits.max_chars)
    try:
        if start is not None and not await start(inbox, watched):
            return
        while (text := await inbox.next()) is not None:
            await answer(watched, text)
        if inbox.flooded:
            conn.close_code = CloseCode.FLOOD
    finally:
        watched.subscribers.discard(conn)


async def _read(
    websocket: WebSocket, conn: Connection, room_id: str, registry: RoomRegistry
) -> None:
    """Receive and handle the client's messages until it disconnects or is cut off."""
    try:
        async with registry.use(room_id) as room:
            try:
                await _serve(websocket, conn, room, registry)
            finally:
                room.detach(conn)
    except RoomError as err:  # no such room, the store or the other processes unavailable
        conn.send_json(err.to_message())
        if err.code in _RECONNECT:
            conn.drop(_RECONNECT[err.code])


async def _serve(
    websocket: WebSocket, conn: Connection, room: ServedRoom, registry: RoomRegistry
) -> None:
    settings = registry.settings
    rate = MessageRate(settings.message_burst, settings.message_rate)
    inbox = Inbox(websocket, conn, rate, max_chars=MAX_MESSAGE)
    hints: set[asyncio.Task[None]] = set()
    try:
        while (text := await inbox.next()) is not None:
            await _handle(room, conn, text, hints, registry)
        if inbox.flooded:
            conn.close_code = CloseCode.FLOOD
    finally:
        for task in hints:
            task.cancel()


async def _handle(
    room: ServedRoom,
    conn: Connection,
    text: str,
    hints: set[asyncio.Task[None]],
    registry: RoomRegistry,
) -> None:
    """Validate one message and act on it; every refusal goes back to this client only."""
    try:
        msg = ROOM_MESSAGES.read(text)
    except RoomError as err:
        conn.send_json(err.to_message())
        return
    action_id = getattr(msg, "id", None)
    try:
        if isinstance(msg, Hello):
            await room.join(conn, msg.token)
        elif isinstance(msg, Resync):
            await room.resync(conn)
        elif isinstance(msg, Ping):
            conn.send_json({"type": "pong", "seq": room.seq})
        elif conn not in room.subscribers:
            conn.send_json(
                error_message("no_hello", "Say hello first", "最初に hello を送ってください")
            )
        elif isinstance(msg, HintRequest):
            task = asyncio.create_task(_hint(room, conn, msg))
            hints.add(task)
            task.add_done_callback(hints.discard)
        elif isinstance(msg, AnalyseRequest):
            conn.send_json(_with_id(await _analyse(room, msg, registry), msg.id))
        elif isinstance(msg, ChatMessage):
            if not conn.chat_rate.ready:
                raise RoomError(
                    "chat_rate",
                    "You are sending chat too fast: wait a moment",
                    "チャットの送信が速すぎます。少し待ってください",
                )
            await room.act(conn.seats, msg)
            conn.chat_rate.allow()
        else:
            answer = await room.act(conn.seats, msg)
            if answer is not None:
                conn.send_json(answer)
    except DuplicateAction as dup:
        conn.send_json(dup.to_message())
    except RoomError as err:
        conn.send_json(_with_id(err.to_message(), action_id))
        if err.code == "room_moved" or (isinstance(msg, Hello | Resync) and err.code in _RECONNECT):
            conn.drop(_RECONNECT[err.code])  # the client reconnects and says hello again


async def _hint(room: ServedRoom, conn: Connection, msg: HintRequest) -> None:
    """Answer a hint request without holding up the client's other messages."""
    try:
        answer = await room.act(conn.seats, msg)
        if answer is not None:
            conn.send_json(answer)
    except RoomError as err:
        conn.send_json(_with_id(err.to_message(), msg.id))
        if err.code == "room_moved":
            conn.drop(CloseCode.ROOM_MOVED)


async def _analyse(room: ServedRoom, msg: AnalyseRequest, registry: RoomRegistry) -> dict[str, Any]:
    """Start the analysis of one of the room's finished games; its progress goes to every
    client of the room, whichever process serves it."""
    game_id = msg.game_id or str((await room.view(frozenset()))["room"]["game_id"])
    if not game_id.startswith(f"{room.id}-"):
        raise RoomError("no_game", "No such game in this room", "この部屋にその試合はありません")
    return await registry.analyse(room, game_id)


def _with_id(message: dict[str, Any], action_id: str | None) -> dict[str, Any]:
    """An answer to an action, carrying the action's id when it had one."""
    return message if action_id is None else {**message, "id": action_id}
