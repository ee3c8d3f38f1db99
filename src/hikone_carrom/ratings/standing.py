"""A player's rating in one time control, and the time controls that are rated."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "NEW_DEVIATION",
    "NEW_RATING",
    "NEW_VOLATILITY",
    "PROVISIONAL_DEVIATION",
    "TIME_CONTROLS",
    "Standing",
    "time_control_of",
]

NEW_RATING, NEW_DEVIATION, NEW_VOLATILITY = 1500.0, 350.0, 0.06
"""Where every player starts (Glicko-2's defaults, the scale the openskill model is set to)."""

PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is shown as provisional (as lichess)."""

TIME_CONTROLS = ("5min", "untimed")
"""The rated time controls: a 5-minute match under championship rules (R7b), and untimed."""


def time_control_of(minutes: float | None) -> str | None:
    """The rated time control of a room's match time (minutes; None: untimed), or None when a
    game of that length is not rated."""
    if minutes is None:
        return "untimed"
    return "5min" if minutes == 5 else None


@dataclass(frozen=True)
class Standing:
    """A rating (points), its deviation (points), a Glicko-2 volatility (stored as it starts:
    openskill has none) and the rated games played."""

    rating: float = NEW_RATING
    deviation: float = NEW_DEVIATION
    volatility: float = NEW_VOLATILITY
    games: int = 0

    @property
    def provisional(self) -> bool:
        """Whether the rating is still uncertain (:data:`PROVISIONAL_DEVIATION`)."""
        return self.deviation > PROVISIONAL_DEVIATION
