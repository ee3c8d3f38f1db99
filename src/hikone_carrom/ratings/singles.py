"""Singles: the two players rated by openskill as two teams of one
(:mod:`hikone_carrom.ratings.model`; no well-kept Glicko-2 library is on PyPI, see
docs/server.md)."""

from __future__ import annotations

from hikone_carrom.ratings.model import rate_teams
from hikone_carrom.ratings.standing import Standing

__all__ = ["singles_after"]


def singles_after(a: Standing, b: Standing, score_a: float) -> tuple[Standing, Standing]:
    """Both players' standings after a game that ``a`` scored ``score_a`` in (1 a win, 0.5 a
    draw, 0 a loss)."""
    (after_a,), (after_b,) = rate_teams([[a], [b]], score_a)
    return after_a, after_b
