"""The hand's move of a shot (R2b): the striker put where the hand puts it, then moved to the
nearest legal point, the angle turned and the speed scaled. One shot in plain numbers
(:func:`hand_moved`, the match's) and many at once in arrays (:func:`hands_moved`, the learning
environments'), the same bits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from hikone_carrom.match.placement import Placement, surely_free

__all__ = ["FEW", "SLOWEST", "TURN", "hand_moved", "hands_moved", "remainder_of_turns"]

TURN = 2.0 * math.pi
"""A full turn, rad."""
SLOWEST = 1e-3
"""The slowest shot the hand makes, m/s."""
FEW = 16
"""Below this many shots a batch goes one by one in plain numbers: the array operations' own
cost would exceed the work (a single environment's batch is one shot)."""


def hand_moved(
    placement: Placement,
    shot: tuple[float, float, float, float],
    noise: tuple[float, float, float, float],
    max_speed: float,
) -> tuple[float, float, float, float]:
    """A shot (x m, y m, angle rad, speed m/s) as the hand executes it with ``noise`` (dx m,
    dy m, dangle rad, speed factor): the striker moved to the legal point nearest where the
    hand put it (R2b), the angle turned, the speed scaled within [1 mm/s, ``max_speed``]."""
    x, y, angle, speed = shot
    dx, dy, dangle, factor = noise
    x, y = placement.nearest(x + dx, y + dy)
    speed = min(max(speed * (1.0 + factor), SLOWEST), max_speed)
    return (x, y, math.remainder(angle + dangle, TURN), speed)


def hands_moved(
    placements: Sequence[Placement], meant: np.ndarray, hands: np.ndarray, max_speed: float
) -> np.ndarray:
    """:func:`hand_moved` of many shots: (M, 4) (x m, y m, angle rad, speed m/s) from the
    ``meant`` shots (M, 4) and the ``hands``' noise (M, 4); a shot without noise is left as
    meant (as :meth:`Match.play` leaves it)."""
    out = meant.copy()
    moves = (hands != 0.0).any(axis=1)
    if not moves.any():
        return out
    noisy: slice | np.ndarray = slice(None) if moves.all() else np.flatnonzero(moves)
    aimed = meant[noisy, :2] + hands[noisy, :2]
    moved = [placements[k] for k in np.flatnonzero(moves).tolist()]
    # where the hand put the striker, and whether it may surely stand there (most shots)
    free = surely_free(moved, aimed[:, 0], aimed[:, 1])
    for j in np.flatnonzero(~free).tolist():
        aimed[j] = moved[j].nearest(float(aimed[j, 0]), float(aimed[j, 1]))
    out[noisy, :2] = aimed
    speed = meant[noisy, 3] * (1.0 + hands[noisy, 3])
    out[noisy, 3] = np.minimum(np.maximum(speed, SLOWEST), max_speed)
    out[noisy, 2] = remainder_of_turns(meant[noisy, 2] + hands[noisy, 2])
    return out


def remainder_of_turns(angle: np.ndarray) -> np.ndarray:
    """``math.remainder(a, TURN)`` of every angle (rad), bit for bit: in [-pi, pi].

    ``np.fmod`` is exact, and so is the one subtraction of a full turn that brings a remainder
    beyond half a turn back (Sterbenz's lemma); the rare exact half turn (where the rounding of
    the quotient to even decides) and non-finite angles go to :func:`math.remainder` itself.
    """
    a = np.asarray(angle, dtype=np.float64)
    if a.size < FEW:
        return np.array([math.remainder(v, TURN) for v in a.ravel().tolist()]).reshape(a.shape)
    with np.errstate(invalid="ignore"):
        r = np.fmod(a, TURN)
    half = 0.5 * TURN
    out: np.ndarray = np.where(r > half, r - TURN, np.where(r < -half, r + TURN, r))
    odd = np.flatnonzero((np.abs(r) == half) | ~np.isfinite(a))
    for k in odd.tolist():
        out.flat[k] = math.remainder(float(a.flat[k]), TURN)
    return out
