"""The play protocol: JSON over WebSocket, one connection per browser tab.

A client says ``hello`` with its seat token; it gets a snapshot and from then on every numbered
event of the room. Malformed or illegal messages get an ``error`` back and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from hikone_carrom.match import IllegalShotError, Shot
from hikone_carrom.server.chat import CHAT_BURST, CHAT_PER_SECOND
from hikone_carrom.server.errors import RoomError, error_message
from hikone_carrom.server.ratelimit import MessageRate, cut_off_message, rate_limited_message
from hikone_carrom.server.registry import RoomRegistry
from hikone_carrom.server.room import Room
from hikone_carrom.server.schemas import (
    CLIENT_MESSAGE,
    AnalyseRequest,
    ChatMessage,
    DrawMessage,
    Hello,
    HintRequest,
    Ping,
    Rematch,
    Resign,
    Resync,
    ShotMessage,
)

__all__ = ["Connection", "serve_room"]

log = logging.getLogger(__name__)

MAX_MESSAGE = 4096
"""Longest client message accepted, characters."""

POLICY_VIOLATION = 1008
"""WebSocket close code for a client cut off for flooding."""


class Connection:
    """One client: an outgoing queue drained by its own writer task, and the seats it holds."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.seats: frozenset[int] = frozenset()
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.chat_rate = MessageRate(CHAT_BURST, CHAT_PER_SECOND)

    def send(self, text: str) -> None:
        """Queue a message; a slow client never holds up the room."""
        self.queue.put_nowait(text)

    def send_json(self, message: dict[str, Any]) -> None:
        """Queue a message given as a dict."""
        self.send(json.dumps(message, separators=(",", ":")))

    async def write(self) -> None:
        """Send queued messages until ``None`` is queued or the socket closes."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self.websocket.send_text(text)


async def serve_room(websocket: WebSocket, room_id: str, registry: RoomRegistry) -> None:
    """Run one client's connection to a room until it closes."""
    await websocket.accept()
    conn = Connection(websocket)
    writer = asyncio.create_task(conn.write())
    settings = registry.settings
    rate = MessageRate(settings.message_burst, settings.message_rate)
    close_code = 1000
    room: Room | None = None
    try:
        try:
            room = await registry.get(room_id)
        except RoomError as err:
            conn.send_json(err.to_message())
            return
        while True:
            text = await websocket.receive_text()
            if rate.allow():
                await _handle(room, conn, text, registry)
            elif rate.cut_off:
                conn.send_json(cut_off_message())
                close_code = POLICY_VIOLATION
                return
            elif rate.first_refusal:
                conn.send_json(rate_limited_message(rate))
    except WebSocketDisconnect:
        pass
    finally:
        if room is not None:
            room.disconnect(conn)
        conn.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, timeout=2.0)
        writer.cancel()
        with contextlib.suppress(Exception):
            await websocket.close(code=close_code)


async def _handle(room: Room, conn: Connection, text: str, registry: RoomRegistry) -> None:
    """Validate one message and act on it; every refusal goes back to this client only."""
    if len(text) > MAX_MESSAGE:
        conn.send_json(error_message("bad_message", "Message too long", "メッセージが長すぎます"))
        return
    try:
        msg = CLIENT_MESSAGE.validate_json(text)
    except ValidationError as err:
        first = err.errors()[0] if err.errors() else {"loc": (), "msg": "invalid"}
        where = ".".join(str(p) for p in first.get("loc", ()))
        conn.send_json(
            error_message(
                "bad_message",
                f"Malformed message ({where}: {first.get('msg', '')})",
                f"メッセージの形式が正しくありません（{where}）",
            )
        )
        return
    try:
        if isinstance(msg, Hello):
            room.connect(conn, room.seats_of_token(msg.token))
        elif isinstance(msg, Resync):
            conn.send_json(room.snapshot(conn.seats))
        elif isinstance(msg, Ping):
            conn.send_json({"type": "pong", "seq": room.seq})
        elif conn not in room.subscribers:
            conn.send_json(
                error_message("no_hello", "Say hello first", "最初に hello を送ってください")
            )
        elif isinstance(msg, ShotMessage):
            try:
                shot = Shot(msg.x, msg.y, msg.angle, msg.speed)
            except IllegalShotError as err:
                raise RoomError("illegal_shot", err.reason("en"), err.reason("ja")) from err
            await room.play(conn.seats, msg.seat, shot)
        elif isinstance(msg, HintRequest):
            conn.send_json(await room.hint(conn.seats, msg.seat))
        elif isinstance(msg, Rematch):
            await room.rematch(conn.seats, msg.answer == "yes")
        elif isinstance(msg, DrawMessage):
            await room.draw(conn.seats, msg.seat, msg.answer == "yes")
        elif isinstance(msg, Resign):
            await room.resign(conn.seats, msg.seat)
        elif isinstance(msg, ChatMessage):
            await room.say(conn.seats, msg.preset, msg.text, allow=conn.chat_rate.allow)
        elif isinstance(msg, AnalyseRequest):
            game_id = msg.game_id or room.game_id
            if not game_id.startswith(f"{room.config.id}-"):
                raise RoomError(
                    "no_game", "No such game in this room", "この部屋にその試合はありません"
                )
            conn.send_json(
                await registry.analyses.request(
                    game_id, key=room.config.id, listener=room.broadcast
                )
            )
    except RoomError as err:
        conn.send_json(err.to_message())
