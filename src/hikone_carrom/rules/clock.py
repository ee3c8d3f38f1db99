"""Match clock for timed matches (R7b, R7e) and the 10-second rule (R8a).

The referee reads no clock; the match layer or server owns one of these and calls
``Referee.call_time()`` / ``Referee.skip_turn()`` when it says so. All times are in seconds (s) of
the injected time source (default :func:`time.monotonic`); pauses do not count.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from hikone_carrom.rules.errors import RulesError
from hikone_carrom.rules.options import RuleOptions

__all__ = ["ClockError", "MatchClock"]


class ClockError(RulesError):
    """The clock was used out of order (e.g. read before ``start``, resumed while running)."""


class MatchClock:
    """Match time and per-shot deadlines.

    Args:
        limit_s: match time, s (R7b; Japan Championship 300 s, R7e).
        now: time source returning seconds (monotonic); tests pass a fake.
        final_phase_s: the 10-second rule applies this long before the end, s (R8a).
        shot_time_s: time allowed for each shot under the 10-second rule, s (R8a).
        each_shot: every shot, a continuation too, gets its own ``shot_time_s`` (R8a reading);
            if False a continuation keeps the deadline of its turn.
    """

    def __init__(
        self,
        limit_s: float,
        now: Callable[[], float] = time.monotonic,
        *,
        final_phase_s: float = 60.0,
        shot_time_s: float = 10.0,
        each_shot: bool = True,
    ) -> None:
        for name, value, zero_ok in (
            ("limit_s", limit_s, False),
            ("final_phase_s", final_phase_s, True),
            ("shot_time_s", shot_time_s, False),
        ):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or value < 0
                or (value == 0 and not zero_ok)
            ):
                raise ClockError(
                    f"{name} must be a finite positive number of seconds, not {value!r}",
                    f"{name} は秒単位の有限な正の数で指定してください（{value!r} は不可）",
                )
        self.limit_s = float(limit_s)
        self.final_phase_s = float(final_phase_s)
        self.shot_time_s = float(shot_time_s)
        self.each_shot = each_shot
        self._now = now
        self._started_at: float | None = None
        self._paused_at: float | None = None
        self._paused_total = 0.0
        self._turn_started: float | None = None

    @classmethod
    def from_options(
        cls, options: RuleOptions, now: Callable[[], float] = time.monotonic
    ) -> MatchClock:
        """A clock with the options' match time and 10-second rule (R7b, R8a)."""
        if options.match_time_s is None:
            raise ClockError(
                "the options describe an untimed match (match_time_s is None)",
                "試合時間が設定されていません（match_time_s が None）",
            )
        return cls(
            options.match_time_s,
            now,
            final_phase_s=options.final_phase_s,
            shot_time_s=options.shot_time_s,
            each_shot=options.shot_clock_each_shot,
        )

    # -- running ---------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        """True after :meth:`start`."""
        return self._started_at is not None

    @property
    def paused(self) -> bool:
        """True between :meth:`pause` and :meth:`resume`."""
        return self._paused_at is not None

    def start(self) -> None:
        """Start the match time (once)."""
        if self._started_at is not None:
            raise ClockError("the clock has already started", "時計はすでに動いています")
        self._started_at = self._now()

    def pause(self) -> None:
        """Stop the match time (e.g. a referee's time-out)."""
        self._require_started()
        if self._paused_at is not None:
            raise ClockError("the clock is already paused", "時計はすでに止まっています")
        self._paused_at = self._now()

    def resume(self) -> None:
        """Let the match time run again after :meth:`pause`."""
        if self._paused_at is None:
            raise ClockError("the clock is not paused", "時計は止まっていません")
        self._paused_total += self._now() - self._paused_at
        self._paused_at = None

    def elapsed(self) -> float:
        """Match time used, s (pauses excluded)."""
        started = self._require_started()
        current = self._paused_at if self._paused_at is not None else self._now()
        return current - started - self._paused_total

    def remaining(self) -> float:
        """Match time left, s (never below 0)."""
        return max(0.0, self.limit_s - self.elapsed())

    @property
    def time_up(self) -> bool:
        """True when the match time has run out: call ``Referee.call_time()`` (R7b)."""
        return self.started and self.elapsed() >= self.limit_s

    @property
    def ten_second_rule_active(self) -> bool:
        """True from ``final_phase_s`` before the end on, also while the round is finished (R8a)."""
        return self.started and self.elapsed() >= self.limit_s - self.final_phase_s

    # -- shots -----------------------------------------------------------------------------

    def turn_started(self, continuation: bool = False, *, after: float = 0.0) -> None:
        """The turn (or, with ``each_shot``, a continuation shot) reaches its player ``after``
        seconds from now: when the pieces of the shot just played come to rest (R8a)."""
        if not (math.isfinite(after) and after >= 0.0):
            raise ClockError(
                f"after must be a finite number of seconds >= 0, not {after!r}",
                f"after は0以上の有限な秒数で指定してください（{after!r} は不可）",
            )
        elapsed = self.elapsed()
        if continuation and not self.each_shot and self._turn_started is not None:
            return
        self._turn_started = elapsed + after

    def turn_deadline(self) -> float | None:
        """Match time (s, as :meth:`elapsed`) by which the shot must be taken; ``None`` when the
        10-second rule does not apply yet or no turn was started (R8a). A turn that began before
        the rule applied gets its 10 s from the moment the rule began."""
        if self._turn_started is None or not self.ten_second_rule_active:
            return None
        phase_start = max(0.0, self.limit_s - self.final_phase_s)
        return max(self._turn_started, phase_start) + self.shot_time_s

    def turn_remaining(self) -> float | None:
        """Seconds left for the current shot under the 10-second rule, ``None`` if it does not
        apply (R8a); while the last shot's pieces still move, the full ``shot_time_s``."""
        deadline = self.turn_deadline()
        if deadline is None:
            return None
        return min(self.shot_time_s, max(0.0, deadline - self.elapsed()))

    @property
    def turn_expired(self) -> bool:
        """True when the shot's 10 s are over: call ``Referee.skip_turn()`` (R8a)."""
        deadline = self.turn_deadline()
        return deadline is not None and self.elapsed() >= deadline

    def _require_started(self) -> float:
        if self._started_at is None:
            raise ClockError("the clock has not started", "時計がまだ動いていません")
        return self._started_at
