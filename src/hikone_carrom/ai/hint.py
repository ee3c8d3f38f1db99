"""The expert's suggestion for the browser game's "hint" button."""

from __future__ import annotations

from hikone_carrom.ai.levels import EXPERT_LEVEL, make_player
from hikone_carrom.ai.player import Plan
from hikone_carrom.match import Match

__all__ = ["hint"]


def hint(match: Match, seed: int = 0) -> Plan:
    """The shot the expert (level 6) would play for the shooter now (legal, without the hand's
    noise), with why in ``info``: kind (direct, bank, combination, jack, break, safety, sweep),
    target, pocket, expected value (pucks). Deterministic for a match and seed; changes nothing.

    Raises:
        NoLegalShotError: no legal placement for the striker.
    """
    decision = make_player(EXPERT_LEVEL, seed).decide(match)
    return Plan(decision.shot, decision.info)
