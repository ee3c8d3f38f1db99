"""Ratings of players, over well-kept libraries: Glicko-2 for singles (``glicko2``, as lichess)
and openskill's Plackett-Luce model for doubles pairs, on the same scale (1500, deviation 350)."""

from hikone_carrom.ratings.pairs import pairs_after
from hikone_carrom.ratings.singles import singles_after
from hikone_carrom.ratings.standing import (
    NEW_DEVIATION,
    NEW_RATING,
    NEW_VOLATILITY,
    PROVISIONAL_DEVIATION,
    TIME_CONTROLS,
    Standing,
    time_control_of,
)

__all__ = [
    "NEW_DEVIATION",
    "NEW_RATING",
    "NEW_VOLATILITY",
    "PROVISIONAL_DEVIATION",
    "TIME_CONTROLS",
    "Standing",
    "pairs_after",
    "singles_after",
    "time_control_of",
]
