"""Ratings of players over a well-kept library: openskill's Plackett-Luce model for singles and
for doubles pairs, on the Glicko scale (1500, deviation 350; provisional above 110, as lichess)."""

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
