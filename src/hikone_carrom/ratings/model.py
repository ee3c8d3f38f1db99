"""The rating model of singles and pairs: openskill's Plackett-Luce, on the Glicko scale (mean
1500, deviation 350, beta half of it, tau scaled alike), so ratings read like lichess's."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from hikone_carrom.ratings.standing import NEW_DEVIATION, NEW_RATING, Standing

__all__ = ["MODEL", "rate_teams"]

MODEL = PlackettLuce(
    mu=NEW_RATING,
    sigma=NEW_DEVIATION,
    beta=NEW_DEVIATION / 2,
    tau=NEW_DEVIATION / 100,
)
"""openskill's defaults (25, 25/3, 25/6, 25/300), scaled by 42."""


def rate_teams(teams: Sequence[Sequence[Standing]], score_first: float) -> list[list[Standing]]:
    """Every player's standing after a game of two sides (one player each in singles) that the
    first side scored ``score_first`` in (1 a win, 0.5 a draw, 0 a loss)."""
    rated = [[MODEL.rating(mu=s.rating, sigma=s.deviation) for s in team] for team in teams]
    ranks = [1.0, 1.0] if score_first == 0.5 else ([1.0, 2.0] if score_first > 0.5 else [2.0, 1.0])
    after = MODEL.rate(rated, ranks=ranks)
    return [
        [
            Standing(float(r.mu), float(r.sigma), s.volatility, s.games + 1)
            for r, s in zip(new, old, strict=True)
        ]
        for new, old in zip(after, teams, strict=True)
    ]
