"""The pad's match clock: match time with the referee's pause (R7b), and the 10-second countdown
the referee starts when the turn reaches a player in the last minute (R8a).

All times are seconds (s) of an injected monotonic time source; pauses do not count.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from hikone_carrom.rules import ClockError, MatchClock, RuleOptions

__all__ = ["PadClock"]


class PadClock:
    """Match time and the R8a countdown of a refereed match.

    The match time runs from :meth:`start` and stops while paused (a referee's time-out). In the
    last ``final_phase_s`` (60 s) the referee starts a ``shot_time_s`` (10 s) countdown when the
    turn reaches a player; a shot not taken when it runs out is lost (R8a). Every entry but a time
    call stops it: calling time does not move the turn, so the 10 s still count from when the turn
    reached the player.
    """

    def __init__(self, options: RuleOptions, now: Callable[[], float] = time.monotonic) -> None:
        self._clock = MatchClock.from_options(options, now)
        self._countdown_at: float | None = None

    @property
    def limit_s(self) -> float:
        """Match time, s."""
        return self._clock.limit_s

    @property
    def shot_time_s(self) -> float:
        """Seconds allowed per shot under the 10-second rule (R8a)."""
        return self._clock.shot_time_s

    @property
    def started(self) -> bool:
        """True after :meth:`start`."""
        return self._clock.started

    @property
    def paused(self) -> bool:
        """True while the referee has stopped the clock."""
        return self._clock.paused

    @property
    def running(self) -> bool:
        """True when match time is counting down."""
        return self.started and not self.paused

    def start(self) -> None:
        """Start the match time (once)."""
        self._clock.start()

    def pause(self) -> None:
        """Stop the match time (and a running countdown)."""
        self._clock.pause()

    def resume(self) -> None:
        """Let the match time (and a countdown) run again."""
        self._clock.resume()

    def elapsed(self) -> float:
        """Match time used, s (0 before the start)."""
        return self._clock.elapsed() if self.started else 0.0

    def remaining(self) -> float:
        """Match time left, s (never below 0)."""
        return max(0.0, self.limit_s - self.elapsed())

    @property
    def time_up(self) -> bool:
        """The match time has run out: time is called (R7b)."""
        return self._clock.time_up

    @property
    def ten_second_rule(self) -> bool:
        """The last minute has begun (and lasts while the round is finished): R8a applies."""
        return self._clock.ten_second_rule_active

    def start_countdown(self) -> None:
        """The turn reached a player: their 10 seconds begin (R8a, last minute only)."""
        if not self.running:
            raise ClockError(
                "start the match time first; the countdown runs only with the clock (R8a)",
                "先に試合時間を動かしてください。10秒の計測は時計が動いている間だけです（R8a）",
            )
        if not self.ten_second_rule:
            raise ClockError(
                "the 10-second rule applies only in the last minute (R8a)",
                "10秒ルールは残り1分からです（R8a）",
            )
        self._countdown_at = self.elapsed()

    def stop_countdown(self) -> None:
        """The shot was taken (or the entry made): no countdown runs."""
        self._countdown_at = None

    @property
    def counting_down(self) -> bool:
        """True while a 10-second countdown runs (or has run out unanswered)."""
        return self._countdown_at is not None

    def countdown_deadline(self) -> float | None:
        """Match time (s) at which the shot is lost (R8a), ``None`` when no countdown runs."""
        if self._countdown_at is None:
            return None
        return self._countdown_at + self.shot_time_s

    def countdown_remaining(self) -> float | None:
        """Seconds left for the shot (R8a), ``None`` when no countdown runs."""
        deadline = self.countdown_deadline()
        return None if deadline is None else max(0.0, deadline - self.elapsed())

    @property
    def countdown_expired(self) -> bool:
        """The 10 seconds are over: the shot is lost (R8a)."""
        left = self.countdown_remaining()
        return left is not None and left <= 0.0

    def to_dict(self) -> dict[str, Any]:
        """The clock as a spectator sees it: s used and left, running, countdown left."""
        return {
            "limit": self.limit_s,
            "elapsed": self.elapsed(),
            "remaining": self.remaining(),
            "started": self.started,
            "running": self.running,
            "ten_second_rule": self.ten_second_rule,
            "countdown": self.countdown_remaining(),
        }
