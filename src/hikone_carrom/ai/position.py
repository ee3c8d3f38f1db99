"""The value of the position a shot leaves: how easy the next shot is, for whoever shoots next.

Ease is in [0, 1]: the best direct pot available to that seat (its legal placements, R2; its
targets by the rules, R4a, R5b, R6b), scored by the cut angle and the distances the striker and
the target must travel. It estimates the chance of keeping the turn, not a simulation.
"""

from __future__ import annotations

import math

from hikone_carrom.ai.candidates import Aimer, CandidateBudget
from hikone_carrom.ai.value import Weights
from hikone_carrom.ai.view import TableView

__all__ = ["ease", "turn_value"]

_EASE_BUDGET = CandidateBudget(placements=7, max_cut=math.radians(65.0))
_REACH = 1.6
"""Path length (m, striker's plus twice the target's) at which a pot's ease falls to zero."""


def ease(view: TableView) -> float:
    """Ease of the best direct pot for the view's seat, in [0, 1] (0: nothing to pot)."""
    aim = Aimer(view, _EASE_BUDGET)
    best = 0.0
    for t in view.targets():
        if view.unshootable[t]:
            continue
        for _, gx, gy, wx, wy, _, _, d_pt in aim.pot_paths(t):
            for sx, sy in aim.starts(gx, gy, wx, wy):
                dx, dy = gx - sx, gy - sy
                d_sg = math.hypot(dx, dy)
                if d_sg == 0.0:
                    continue
                cos_cut = (dx * wx + dy * wy) / d_sg
                if cos_cut < aim.cos_max:
                    continue
                quality = cos_cut * cos_cut * max(0.0, 1.0 - (d_sg + 2.0 * d_pt) / _REACH)
                if quality <= best:
                    continue
                if aim.clear(sx, sy, gx, gy, aim.rs, t):
                    best = quality
    return best


def turn_value(view: TableView, weights: Weights) -> float:
    """What the next shot is worth (pucks) to the view's seat: more when a pot is easy, far more
    when the pot is the jack that wins (R6b); the ease stands for the chance in
    :class:`~hikone_carrom.ai.value.Weights`."""
    e = ease(view)
    value = weights.next_shot_base + weights.next_shot_per_chance * e
    if view.jack_allowed:
        value += weights.winning_jack_per_chance * e
    return value
