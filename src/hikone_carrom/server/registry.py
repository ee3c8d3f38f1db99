"""All rooms of one server: created on request, restored from the store on first use, and
evicted from memory when nobody has used them for a while (they are stored: the next use
rebuilds them)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from hikone_carrom.board import BoardSpec
from hikone_carrom.server.config import ServerSettings
from hikone_carrom.server.errors import RoomError
from hikone_carrom.server.players import available_levels
from hikone_carrom.server.room import Room, RoomConfig, RoomServices
from hikone_carrom.server.runner import Runner
from hikone_carrom.server.schemas import CreateRoom
from hikone_carrom.server.storage import GameStore, StoreError
from hikone_carrom.server.thinking import ThinkingPool

__all__ = ["DEFAULT_LEVEL", "RoomRegistry"]

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "2"
"""The computer player a room gets when none is named."""


class RoomRegistry:
    """Finds a room by id: in memory, else rebuilt from the store (so a restart loses nothing)."""

    def __init__(
        self,
        store: GameStore,
        runner: Runner,
        thinker: ThinkingPool,
        settings: ServerSettings,
        board: BoardSpec,
    ) -> None:
        self.store = store
        self.runner = runner
        self.settings = settings
        self.board = board
        self.services = RoomServices(store, runner, thinker, board, settings.ai_delay_s)
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()

    async def create(self, request: CreateRoom) -> tuple[Room, str]:
        """A new room as asked; returns it with the creator's seat token."""
        level = request.level
        if request.mode == "computer":
            levels = available_levels()
            if level is None:
                level = DEFAULT_LEVEL
            if level not in levels:
                raise RoomError(
                    "no_such_level",
                    f"No computer player {level!r}; choose one of {', '.join(levels)}",
                    f"コンピュータ {level!r} はありません。{'、'.join(levels)} から選んでください",
                    status=422,
                )
        else:
            level = None
        config = RoomConfig(
            id=secrets.token_urlsafe(6),
            mode=request.mode,
            players=request.players,
            ai_level=level,
            minutes=request.minutes,
            seed=secrets.randbelow(1 << 31),
            hints=request.hints,
        )
        room, token = await Room.create(config, request.name, self.services)
        self.rooms[config.id] = room
        return room, token

    async def get(self, room_id: str) -> Room:
        """The room with this id, restored from the store if this server has not seen it yet."""
        room = self.rooms.get(room_id)
        if room is not None and not room.stale:
            return room
        async with self._loading:
            room = self.rooms.get(room_id)
            if room is not None and not room.stale:
                return room
            try:
                room = await Room.restore(room_id, self.services)
            except StoreError as err:
                raise RoomError(
                    "no_room", "This room does not exist", "この部屋はありません", status=404
                ) from err
            self.rooms[room_id] = room
            return room

    @asynccontextmanager
    async def use(self, room_id: str) -> AsyncIterator[Room]:
        """The room, kept in memory while the caller uses it."""
        room = await self.get(room_id)
        room.holders += 1
        try:
            yield room
        finally:
            room.holders -= 1
            room.last_active = time.monotonic()

    async def evict_idle(self) -> list[str]:
        """Drop from memory every room unused for ``room_idle_s``; returns their ids."""
        now = time.monotonic()
        gone = [
            rid
            for rid, room in self.rooms.items()
            if room.idle_for(now) >= self.settings.room_idle_s
        ]
        for rid in gone:
            room = self.rooms.pop(rid)
            await room.close()
        if gone:
            log.info("evicted %d idle rooms, %d left in memory", len(gone), len(self.rooms))
        return gone

    async def sweep(self) -> None:
        """Evict idle rooms for as long as the server runs."""
        every = min(30.0, max(0.05, self.settings.room_idle_s / 4))
        while True:
            await asyncio.sleep(every)
            await self.evict_idle()

    async def close(self) -> None:
        """Stop every room's tasks."""
        for room in list(self.rooms.values()):
            await room.close()
        self.rooms.clear()
