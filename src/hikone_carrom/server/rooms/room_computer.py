"""The turns a room takes by itself: a computer player's shot, and a turn passed because the
striker has nowhere to go (R2b reading, R3d).

The computer thinks in the thinking pool without holding the room, then shoots as one of the
room's own changes, under its lock, if the position is still the one it thought about.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from hikone_carrom.match import Noise, Shot
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.rooms.room_config import STORE_RETRY_S, Seat
from hikone_carrom.server.rooms.room_views import names
from hikone_carrom.server.rooms.views import ruling_text
from hikone_carrom.server.thinking.pool import ThinkJob, position_of

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = ["ComputerTurns"]

log = logging.getLogger(__name__)


class ComputerTurns:
    """The computer players of ``room`` (``levels``: their levels by seat) and the task that
    plays the turns nobody at the table plays."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.levels: dict[int, str] = {}
        self.task: asyncio.Task[None] | None = None

    def seat_up(self, seats: list[Seat]) -> None:
        """Take the computer players of a new game from its seats."""
        self.levels = {s.seat: s.name for s in seats if s.kind == "computer"}

    def seed(self, seat: int) -> int:
        """The seed of a computer player's decisions in this game (with the action count, the
        library's player derives each decision's randomness from it)."""
        room = self.room
        return (room.config.seed * 131 + room.game_number * 7 + seat) % (1 << 62)

    def due(self) -> bool:
        """True if the room must play the current turn itself and no task does it yet."""
        match = self.room.match
        return (
            not match.is_over
            and not self.room.waiting
            and (match.shooter in self.levels or match.must_pass)
            and not self.busy()
        )

    def busy(self) -> bool:
        """True while a computer's turn is on its way."""
        return self.task is not None and not self.task.done()

    async def turn(self) -> None:
        """The computer at the shooter's seat thinks (in the thinking pool, without holding the
        room), then shoots if the position is still the one it thought about."""
        room = self.room
        await asyncio.sleep(room.services.ai_delay_s + room.timer.rolling_for())
        seat = room.match.shooter
        level = self.levels.get(seat)
        if room.match.is_over or room.waiting:
            return
        if room.match.must_pass:  # nowhere to put the striker (R2b reading): pass
            await self._retrying(lambda: self._pass_turn(seat))
            return
        if level is None:
            return
        game_id, actions = room.game_id, len(room.match.actions)
        job = ThinkJob(position_of(room.match, game_id), "decide", self.seed(seat), level)
        thought = await room.services.thinker.run(room.config.id, job, urgent=True)
        if thought.shot is None:
            log.error("room %s: no legal shot for the computer (R2b)", room.config.id)
            return

        async def change() -> None:
            if (room.game_id, len(room.match.actions)) != (game_id, actions):
                return  # the position changed while it thought
            await self._shoot(seat, thought.shot, thought.noise)

        await self._retrying(change)

    async def _retrying(self, change: Callable[[], Awaitable[None]]) -> None:
        """Make a change of the room's own (a computer's turn), again after a store failure;
        then let a continuation (R3a) or the next player's turn get its own task."""
        room = self.room
        while not (room.closed or room.stale):
            try:
                await room._act(None, change)
                break
            except RoomError as err:
                if err.code != "store_unavailable":
                    raise
                await asyncio.sleep(STORE_RETRY_S)
        if self.task is asyncio.current_task():
            self.task = None
        room._after_change()

    async def _shoot(self, seat: int, shot: Shot | None, noise: Noise | None) -> None:
        if shot is None:
            return
        room = self.room
        try:
            await room.shots.play(seat, shot, noise)
        except RoomError as err:
            if err.code != "illegal_shot":
                raise
            log.warning("room %s: computer shot refused: %s", room.config.id, err)
            placement = room.match.legal_placement()
            x, y = placement.nearest(shot.x, shot.y)
            await room.shots.play(seat, replace(shot, x=x, y=y), noise)

    async def _pass_turn(self, seat: int) -> None:
        """The shooter has nowhere to put the striker: the turn passes without penalty (R3d,
        ``RuleOptions.covered_area_line = "pass"``); told to everyone like a lost shot."""
        room = self.room
        if room.match.shooter != seat or not room.match.must_pass:
            return
        ruling = room.match.pass_turn()
        room.timer.turn_passed()
        payload = {
            "seat": seat,
            "ruling": ruling.to_dict(),
            "explain": ruling_text(ruling, names(room)),
        }
        room.agreements.lapse_draw(seat, payload)
        await room._commit("skip", payload)
