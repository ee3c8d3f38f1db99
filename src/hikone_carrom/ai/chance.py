"""The chance that a shot succeeds under a hand's noise, as the search judges its candidates.

A shot *succeeds* when the shooter's side keeps the turn or wins (R3a, R7a): the referee's own
ruling of each simulated outcome (:class:`~hikone_carrom.ai.value.Judge`). The shot is executed
under every draw of the noise exactly as :meth:`Match.play <hikone_carrom.match.Match.play>`
executes it (placement moved to the nearest legal point, R2b), through the physics batch.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hikone_carrom.ai.outcomes import execute_many, report_keys, run_shots
from hikone_carrom.ai.value import Judge
from hikone_carrom.ai.view import TableView

__all__ = ["success_chances", "successes"]


def successes(
    view: TableView,
    shots: np.ndarray,
    draws: np.ndarray,
    seeds: Sequence[int] | np.ndarray,
    fly_off: bool = True,
) -> np.ndarray:
    """Whether each shot (S, 4: x m, y m, angle rad, speed m/s) succeeds from ``view`` under each
    draw (D, 4: dx m, dy m, dangle rad, speed factor): an (S, D) bool array. ``seeds`` are the
    physics seeds (fly-off, R5c/R5d/R6c), one per shot and draw, shot-major."""
    shots = np.asarray(shots, dtype=np.float64).reshape(-1, 4)
    draws = np.asarray(draws, dtype=np.float64).reshape(-1, 4)
    noisy = execute_many(view.placement, shots, draws, view.board.max_speed)
    keys = report_keys(view, run_shots(view, noisy, seeds, fly_off))
    ok: np.ndarray = Judge(view.state, view.color).successes(keys)
    return ok.reshape(len(shots), len(draws))


def success_chances(
    view: TableView,
    shots: np.ndarray,
    draws: np.ndarray,
    seeds: Sequence[int] | np.ndarray,
    fly_off: bool = True,
) -> np.ndarray:
    """The share of ``draws`` under which each shot succeeds (see :func:`successes`)."""
    out: np.ndarray = successes(view, shots, draws, seeds, fly_off).mean(axis=1)
    return out
