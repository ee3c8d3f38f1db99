"""Shared helpers for the scoring pad tests: a settable clock and ready-made matches."""

from __future__ import annotations

from hikone_carrom.scoring import MatchSetup, RefereedMatch


class FakeTime:
    """A monotonic time source the test moves by hand (s)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def singles(minutes: float | None = None, **kw: object) -> RefereedMatch:
    """Untimed singles (unless ``minutes``): 田中 red (south), 佐藤 green (north)."""
    return RefereedMatch(MatchSetup.singles("田中", "佐藤", minutes=minutes, **kw))  # type: ignore[arg-type]


def doubles(minutes: float | None = None, **kw: object) -> RefereedMatch:
    """Untimed doubles: 田中/山本 red (S, N), 佐藤/鈴木 green (W, E)."""
    return RefereedMatch(
        MatchSetup.doubles(("田中", "山本"), ("佐藤", "鈴木"), minutes=minutes, **kw)  # type: ignore[arg-type]
    )


def timed(players: int = 2, minutes: float = 5.0, **kw: object) -> tuple[RefereedMatch, FakeTime]:
    """A timed match on a fake clock, not started."""
    now = FakeTime()
    if players == 2:
        setup = MatchSetup.singles("田中", "佐藤", minutes=minutes, **kw)  # type: ignore[arg-type]
    else:
        setup = MatchSetup.doubles(("田中", "山本"), ("佐藤", "鈴木"), minutes=minutes, **kw)  # type: ignore[arg-type]
    return RefereedMatch(setup, now=now), now
