"""Shots found by sweeping the striker's direction and speed from points of the area line.

Geometric candidates (:mod:`hikone_carrom.ai.candidates`) aim one path at a time and, late in a
game, miss pots that exist: a brute-force search of hundreds of thousands of shots per position
found pots about twice as likely as the aimed candidates in positions where they only offered a
break. A sweep simulates every direction (a fixed step of a few tenths of a degree to a degree)
at a few speeds from a few placements, as meant, and scores each shot by the share of its
neighbouring directions that also keep the turn or win (R3a, R7a), weighted by the hand's angle
noise: a cheap estimate of the chance of success under the hand, computed from the sweep itself
without another simulation. The best-scoring shot of each run of successes is kept. Every other
direction is simulated first, the ones between only next to a success (successes are a few in a
hundred, so this halves the cost).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hikone_carrom.ai.candidates import Candidate, ShotKind
from hikone_carrom.ai.geometry import line_points
from hikone_carrom.ai.view import TableView

__all__ = ["SweepBudget", "smoothed", "sweep", "sweep_candidates", "sweep_shots"]

_MIN_SIGMA_DEG = 0.25
"""The smoothing's angle sigma for an exact hand: a shot that works on one ray only is fragile."""


@dataclass(frozen=True)
class SweepBudget:
    """How wide a sweep is.

    Attributes:
        placements: points spread over the free area line (R2b; the prescribed point, R2a).
        step: angle step (degrees) over the full circle.
        speeds: striker speeds (m/s).
        keep: shots kept, the best-scoring first, at most one per run of successes.
    """

    placements: int = 13
    step: float = 1.0
    speeds: tuple[float, ...] = (0.8, 1.3, 2.0, 3.2)
    keep: int = 24

    @property
    def directions(self) -> int:
        """Directions per placement and speed."""
        return max(1, round(360.0 / self.step))


def sweep_shots(view: TableView, budget: SweepBudget) -> np.ndarray:
    """Every swept shot (placements x speeds x directions, 4: x m, y m, angle rad, speed m/s)."""
    points = line_points(view.placement, budget.placements)
    n = budget.directions
    angles = np.arange(n) * (2.0 * math.pi / n) - math.pi
    rows = [
        np.column_stack([np.full(n, x), np.full(n, y), angles, np.full(n, s)])
        for x, y in points
        for s in budget.speeds
    ]
    return np.concatenate(rows) if rows else np.empty((0, 4))


def sweep(
    view: TableView,
    budget: SweepBudget,
    succeeds: Callable[[np.ndarray], np.ndarray],
    angle_sigma: float,
) -> list[Candidate]:
    """The best swept shots of ``view``'s seat (see :func:`sweep_candidates`); ``succeeds`` maps
    shots (M, 4) to whether each, played as meant, keeps the turn or wins (M bools)."""
    shots = sweep_shots(view, budget)
    if len(shots) == 0:
        return []
    n = budget.directions
    ok = np.zeros(len(shots), dtype=bool)
    even = np.arange(len(shots)).reshape(-1, n)[:, ::2].reshape(-1)
    ok[even] = succeeds(shots[even])
    grid = ok.reshape(-1, n)
    odd = np.arange(1, n, 2)
    need = np.zeros_like(grid)
    need[:, odd] = grid[:, odd - 1] | grid[:, (odd + 1) % n]  # a success on either side
    between = np.nonzero(need.reshape(-1))[0]
    if len(between):
        ok[between] = succeeds(shots[between])
    return sweep_candidates(shots, ok, budget, angle_sigma)


def smoothed(ok: np.ndarray, sigma: float) -> np.ndarray:
    """Each row of successes (rows, directions around the circle; 0/1 floats) smoothed by a
    Gaussian of ``sigma`` directions: the share of a shot's neighbours that succeed, weighted
    as the hand's angle noise spreads it (a chance of success under the hand)."""
    reach = max(1, math.ceil(3.0 * sigma))
    offsets = np.arange(-reach, reach + 1)
    weights = np.exp(-0.5 * (offsets / sigma) ** 2)
    weights /= weights.sum()
    score = np.zeros_like(ok)
    for off, w in zip(offsets, weights, strict=True):
        score += w * np.roll(ok, -int(off), axis=1)
    return score


def sweep_candidates(
    shots: np.ndarray, success: np.ndarray, budget: SweepBudget, angle_sigma: float
) -> list[Candidate]:
    """The best swept shots: ``success`` (one bool per row of ``shots``, from
    :func:`sweep_shots`) smoothed around the circle with a Gaussian of the hand's angle sigma
    (rad); the peak of each run of successes, best first, at most ``budget.keep``."""
    n = budget.directions
    if len(shots) == 0:
        return []
    ok = success.reshape(-1, n).astype(np.float64)
    score = smoothed(ok, max(math.degrees(angle_sigma), _MIN_SIGMA_DEG) / (360.0 / n))
    # A peak: a success no lower than its neighbours on the circle (the first of a flat top).
    left, right = np.roll(score, 1, axis=1), np.roll(score, -1, axis=1)
    peak = (ok > 0) & (score > left) & (score >= right)
    rows, cols = np.nonzero(peak)
    order = np.argsort(-score[rows, cols], kind="stable")[: budget.keep]
    out = []
    for k in order:
        x, y, angle, speed = shots[rows[k] * n + cols[k]]
        out.append(Candidate(float(x), float(y), float(angle), float(speed), ShotKind.SWEEP))
    return out
