"""All rooms of one server: created on request, restored from the store on first use."""

from __future__ import annotations

import asyncio
import secrets

from hikone_carrom.board import BoardSpec
from hikone_carrom.server.analysis import AnalysisJobs
from hikone_carrom.server.config import ServerSettings
from hikone_carrom.server.errors import RoomError
from hikone_carrom.server.players import available_levels
from hikone_carrom.server.room import Room, RoomConfig
from hikone_carrom.server.runner import Runner
from hikone_carrom.server.schemas import CreateRoom
from hikone_carrom.server.storage import GameStore, StoreError

__all__ = ["DEFAULT_LEVEL", "RoomRegistry"]

DEFAULT_LEVEL = "2"
"""The computer player a room gets when none is named."""


class RoomRegistry:
    """Finds a room by id: in memory, else rebuilt from the store (so a restart loses nothing)."""

    def __init__(
        self, store: GameStore, runner: Runner, settings: ServerSettings, board: BoardSpec
    ) -> None:
        self.store = store
        self.runner = runner
        self.settings = settings
        self.board = board
        self.rooms: dict[str, Room] = {}
        self.analyses = AnalysisJobs(store, runner)
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
        if request.names is not None:
            if request.mode != "hotseat":
                raise RoomError(
                    "names_hotseat",
                    "Player names are given on one device only; online players name themselves",
                    "名前の一覧は1台で対戦するときだけです。オンラインでは各自が名前を入れます",
                    status=422,
                )
            if len(request.names) != request.players:
                raise RoomError(
                    "names_count",
                    f"Give one name per player: {request.players} names",
                    f"名前はプレイヤーごとに1つ、{request.players}人分を入れてください",
                    status=422,
                )
        config = RoomConfig(
            id=secrets.token_urlsafe(6),
            mode=request.mode,
            players=request.players,
            ai_level=level,
            minutes=request.minutes,
            seed=secrets.randbelow(1 << 31),
            hints=request.hints_on(),
        )
        room, token = await Room.create(
            config,
            request.name,
            store=self.store,
            runner=self.runner,
            board=self.board,
            ai_delay_s=self.settings.ai_delay_s,
            names=[n.strip() for n in request.names] if request.names else None,
        )
        self.rooms[config.id] = room
        return room, token

    async def get(self, room_id: str) -> Room:
        """The room with this id, restored from the store if this server has not seen it yet."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(room_id)
            if room is not None:
                return room
            try:
                room = await Room.restore(
                    room_id,
                    store=self.store,
                    runner=self.runner,
                    board=self.board,
                    ai_delay_s=self.settings.ai_delay_s,
                )
            except StoreError as err:
                raise RoomError(
                    "no_room", "This room does not exist", "この部屋はありません", status=404
                ) from err
            self.rooms[room_id] = room
            return room

    async def close(self) -> None:
        """Stop every room's tasks and every analysis."""
        await self.analyses.close()
        for room in list(self.rooms.values()):
            await room.close()
        self.rooms.clear()
