"""The match clock of a timed room (R7b, R8a), and the task that drives it.

The room owns one :class:`RoomClock`; every change it makes happens under the room's lock, as
one of the room's own changes (stored before it is broadcast, undone if the store fails).
"""

from __future__ import annotations

import asyncio
import copy
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hikone_carrom.rules import MatchClock, RuleOptions
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.rooms.room_config import STORE_RETRY_S
from hikone_carrom.server.rooms.room_views import names
from hikone_carrom.server.rooms.views import clock_view, ruling_text

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = ["ClockSaved", "ResumableTime", "RoomClock"]

TICK_S = 0.1
"""How often (s) the clock task looks at the clock."""


class ResumableTime:
    """A monotonic time source (s) that lets a clock resume at a stored elapsed time."""

    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.shift


@dataclass(frozen=True)
class ClockSaved:
    """The clock as it was before a change (see :meth:`RoomClock.save`)."""

    clock: MatchClock | None
    time: ResumableTime
    turn_ready_at: float | None


class RoomClock:
    """The match clock of ``room``'s current game (None when untimed), its time source, and
    when the shooter's time starts (``turn_ready_at``, monotonic s: once the last shot has
    rolled out, R8a)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.clock: MatchClock | None = None
        self.time = ResumableTime()
        self.turn_ready_at: float | None = None
        self.task: asyncio.Task[None] | None = None

    def new_game(self, options: RuleOptions, *, timed: bool, seated: bool) -> None:
        """A fresh clock for a new game; it runs at once if every seat is taken."""
        self.clock = None
        if timed:
            self.time = ResumableTime()
            self.clock = MatchClock.from_options(options, self.time)
            if seated:
                self.clock.start()
                self.clock.turn_started()

    def resume(self, options: RuleOptions, elapsed: float, *, seated: bool, over: bool) -> None:
        """The clock of a replayed game, at its stored ``elapsed`` time (s)."""
        self.clock = MatchClock.from_options(options, self.time)
        if seated:
            self.time.shift = -elapsed
            self.clock.start()
            self.time.shift = 0.0
            if over:
                self.clock.pause()  # a finished match shows its final time
            else:
                self.clock.turn_started()

    def start_when_seated(self, seated: bool) -> bool:
        """Start a clock that waited for the last seat; True if it started now."""
        if seated and self.clock is not None and not self.clock.started:
            self.clock.start()
            self.clock.turn_started()
            return True
        return False

    def running(self) -> bool:
        """True while the clock runs: started, every seat taken, the match not over."""
        return (
            self.clock is not None
            and self.clock.started
            and not self.room.match.is_over
            and not self.room.waiting
        )

    def view(self) -> dict[str, Any] | None:
        """The clock as clients show it."""
        return clock_view(self.clock, running=self.running())

    def settle(self) -> None:
        """Stop a finished match's clock: its final time stays on show."""
        clock = self.clock
        if self.room.match.is_over and clock is not None and clock.started and not clock.paused:
            clock.pause()

    def elapsed(self) -> float | None:
        """Match time used so far (s), once started."""
        if self.clock is None or not self.clock.started:
            return None
        return self.clock.elapsed()

    def shot_rolling(self, duration_s: float) -> None:
        """A shot rolls for ``duration_s``; the next shooter's time starts after it (R8a)."""
        self.turn_ready_at = time.monotonic() + duration_s

    def rolling_for(self) -> float:
        """How long (s) the last shot still rolls."""
        if self.turn_ready_at is None:
            return 0.0
        return max(0.0, self.turn_ready_at - time.monotonic())

    def turn_passed(self) -> None:
        """A turn passed without a shot: the next shooter's time starts now."""
        if self.clock is not None and self.clock.started:
            self.clock.turn_started()

    def save(self) -> ClockSaved:
        """The clock as it is, to return to if a change fails."""
        return ClockSaved(copy.copy(self.clock), self.time, self.turn_ready_at)

    def put_back(self, saved: ClockSaved) -> None:
        """Return to a saved clock."""
        self.clock = saved.clock
        self.time = saved.time
        self.turn_ready_at = saved.turn_ready_at

    def due(self) -> bool:
        """True if the clock runs and no task drives it yet."""
        return self.running() and (self.task is None or self.task.done())

    async def run(self) -> None:
        """Drive the match clock: call time (R7b) and take lost shots (R8a)."""
        room = self.room
        while self.running() and not (room.closed or room.stale):
            await asyncio.sleep(TICK_S)
            try:
                async with room.lock:
                    if not self.running():
                        return
                    await room._guarded(None, self._tick)
            except RoomError as err:
                if err.code != "store_unavailable":
                    raise
                await asyncio.sleep(STORE_RETRY_S)
            room._after_change()

    async def _tick(self) -> None:
        """One look at the clock (the caller holds the lock)."""
        clock = self.clock
        room = self.room
        match = room.match
        if clock is None:
            return
        if self.turn_ready_at is not None and time.monotonic() >= self.turn_ready_at:
            self.turn_ready_at = None
            clock.turn_started()
            room._refresh_state()
        if clock.time_up and not match.referee.time_called:
            match.call_time()
            await room._commit("time_called", {"ruling": None})
        elif self.turn_ready_at is None and clock.turn_expired:
            seat = match.shooter
            ruling = match.skip_turn()
            clock.turn_started()
            payload = {
                "seat": seat,
                "ruling": ruling.to_dict(),
                "explain": ruling_text(ruling, names(room)),
                "shot_time_s": clock.shot_time_s,
            }
            room.agreements.lapse_draw(seat, payload)
            await room._commit("skip", payload)
