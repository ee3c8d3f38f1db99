"""Doubles pairs: the two pairs rated as teams by openskill (:mod:`hikone_carrom.ratings.model`)."""

from __future__ import annotations

from collections.abc import Sequence

from hikone_carrom.ratings.model import rate_teams
from hikone_carrom.ratings.standing import Standing

__all__ = ["pairs_after"]


def pairs_after(teams: Sequence[Sequence[Standing]], score_first: float) -> list[list[Standing]]:
    """Every player's standing after a game of two pairs that the first pair scored
    ``score_first`` in (1 a win, 0.5 a draw, 0 a loss)."""
    return rate_teams(teams, score_first)
