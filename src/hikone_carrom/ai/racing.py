"""Successive halving of candidate shots under the hand's noise (a race with common random
numbers).

Equal draws for every shortlisted candidate spend most simulations on shots that are plainly
worse; a race spends them where they decide something. Each round gives every candidate still
in the race the same fresh draws of the hand's noise (so their values differ by the shots, not
by the luck of the draws), ranks them by their mean value over every draw so far, and keeps the
better half, until few are left. Deterministic: the draws come from the search's generator in a
fixed order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["halve"]


def halve(
    keys: np.ndarray,
    more: Callable[[np.ndarray, int], np.ndarray],
    value: Callable[[np.ndarray], np.ndarray],
    rounds: Sequence[int],
    until: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Race candidates whose outcomes so far are ``keys`` (candidates, draws, columns).

    Args:
        more: ``more(rows, n)``: the outcomes of candidates ``rows`` under ``n`` fresh draws,
            the same draws for each (len(rows), n, columns).
        value: mean value per candidate of outcomes (candidates, draws, columns).
        rounds: draws added in each round; the better half goes on after each.
        until: candidates never cut below this many.

    Returns:
        The survivors (indices into ``keys``' candidates), best first; their outcomes; their
        values.
    """
    rows = np.arange(len(keys))
    values = value(keys)
    order = np.argsort(-values, kind="stable")
    rows, keys, values = rows[order], keys[order], values[order]
    for n in rounds:
        keep = max(until, (len(rows) + 1) // 2)
        if n > 0:
            keys = np.concatenate([keys, more(rows, n)], axis=1)
            values = value(keys)
            order = np.argsort(-values, kind="stable")
            rows, keys, values = rows[order], keys[order], values[order]
        rows, keys, values = rows[:keep], keys[:keep], values[:keep]
    return rows, keys, values
