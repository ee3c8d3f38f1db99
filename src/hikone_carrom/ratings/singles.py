"""Glicko-2 for a singles game, exactly as the ``glicko2`` library computes it: each player is
updated against the other's rating before the game (one game, one rating period)."""

from __future__ import annotations

import glicko2

from hikone_carrom.ratings.standing import Standing

__all__ = ["singles_after"]


def _after(me: Standing, other: Standing, score: float) -> Standing:
    player = glicko2.Player(rating=me.rating, rd=me.deviation, vol=me.volatility)
    player.update_player([other.rating], [other.deviation], [score])
    return Standing(float(player.rating), float(player.rd), float(player.vol), me.games + 1)


def singles_after(a: Standing, b: Standing, score_a: float) -> tuple[Standing, Standing]:
    """Both players' standings after a game that ``a`` scored ``score_a`` in (1 a win, 0.5 a
    draw, 0 a loss)."""
    return _after(a, b, score_a), _after(b, a, 1.0 - score_a)
