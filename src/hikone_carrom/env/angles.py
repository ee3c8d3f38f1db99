"""Angles of many shots at once, the same bits as the scalar code of the match."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["FEW", "TURN", "remainder_of_turns"]

TURN = 2.0 * math.pi
"""A full turn, rad."""
FEW = 16
"""Below this many shots a batch goes one by one in plain numbers: the array operations' own
cost would exceed the work (a single environment's batch is one shot)."""


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
