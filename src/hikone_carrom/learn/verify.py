"""A puzzle's proof: its solution reaches the goal under the exact physics and under most draws
of a light hand, while the greedy player's shot does not.

The exact strike is played by :meth:`Match.play` (physics, report, referee) from the puzzle's
position. The light hand (0.5x :data:`~hikone_carrom.ai.noise.BASE_NOISE`: 1 mm, 0.5 degree,
1.5 %) executes the solution under :data:`DRAWS` draws exactly as a game's hand would
(:func:`~hikone_carrom.ai.outcomes.execute_many`), all simulated in one physics batch
(``simulate_batch``) and each outcome ruled by the referee's transitions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hikone_carrom.ai.levels import make_player
from hikone_carrom.ai.noise import BASE_NOISE, decision_rng
from hikone_carrom.ai.outcomes import execute_many, report_keys, report_of_key, run_shots
from hikone_carrom.ai.view import TableView
from hikone_carrom.learn.goals import Goal, goal_reached
from hikone_carrom.match import Match, Shot
from hikone_carrom.physics import batch_seeds
from hikone_carrom.rules import apply

__all__ = [
    "DRAWS",
    "LIGHT_HAND",
    "THRESHOLD",
    "Verdict",
    "exact_reaches",
    "greedy_shot",
    "robustness",
    "robustness_many",
    "verify",
]

LIGHT_HAND = BASE_NOISE.scaled(0.5)
"""The light hand a solution must survive: 1 mm placement, 0.5 degree, 1.5 % speed."""
DRAWS = 100
"""Draws of the light hand per proof."""
THRESHOLD = 0.7
"""Least share of draws under which the solution must still reach the goal."""
_DRAW_STREAM = 7
"""The :func:`decision_rng` stream of a proof's draws (apart from any player's)."""


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify` found: the solution's exact strike reaches the goal
    (``solution_reaches``), its share of light-hand draws that do (``robustness``), and whether
    greedy's shot reaches it (``greedy_reaches``)."""

    solution_reaches: bool
    robustness: float
    greedy_reaches: bool

    @property
    def accepted(self) -> bool:
        """A puzzle: exact solution good, robust (>= :data:`THRESHOLD`), greedy's shot fails."""
        return self.solution_reaches and self.robustness >= THRESHOLD and not self.greedy_reaches


def exact_reaches(match: Match, goal: Goal, shot: Shot) -> bool:
    """Whether ``shot``, played exactly by the shooter of ``match`` (left unchanged), reaches
    ``goal`` as the referee rules it."""
    color = match.color(match.shooter)
    play = match.play(shot)
    try:
        return goal_reached(goal, color, play.report, match.referee.state)
    finally:
        match.undo()


def robustness_many(
    match: Match, goal: Goal, shots: np.ndarray, seed: int, draws: int = DRAWS
) -> np.ndarray:
    """For each shot (S, 4: x m, y m, angle rad, speed m/s) of the shooter of ``match``, the
    share of ``draws`` light-hand draws under which it reaches ``goal``; the draws and the
    physics seeds come from ``seed``, the same for every shot."""
    view = TableView.of_match(match)
    shots = np.asarray(shots, dtype=np.float64).reshape(-1, 4)
    z = LIGHT_HAND.draw_many(decision_rng(seed, 0, _DRAW_STREAM), draws)
    noisy = execute_many(view.placement, shots, z, view.board.max_speed)
    seeds = np.tile(batch_seeds(seed, draws), len(shots))
    keys = report_keys(view, run_shots(view, noisy, seeds, match.fly_off))
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    ok = np.empty(len(unique), dtype=bool)
    for k, key in enumerate(unique):
        report = report_of_key(key)
        after, _ = apply(view.state, report)
        ok[k] = goal_reached(goal, view.color, report, after)
    share: np.ndarray = ok[inverse.ravel()].reshape(len(shots), draws).mean(axis=1)
    return share


def robustness(match: Match, goal: Goal, shot: Shot, seed: int, draws: int = DRAWS) -> float:
    """The share of light-hand draws under which ``shot`` reaches ``goal`` (see
    :func:`robustness_many`)."""
    row = np.array([[shot.x, shot.y, shot.angle, shot.speed]])
    return float(robustness_many(match, goal, row, seed, draws)[0])


def greedy_shot(match: Match) -> Shot:
    """The shot the greedy player (seed 0, its own 1x hand in its search) means to play."""
    return make_player("greedy", seed=0).choose(match)


def verify(match: Match, goal: Goal, solution: Shot, seed: int, draws: int = DRAWS) -> Verdict:
    """The proof of a puzzle at ``match``'s position (see the module's docstring)."""
    return Verdict(
        solution_reaches=exact_reaches(match, goal, solution),
        robustness=robustness(match, goal, solution, seed, draws),
        greedy_reaches=exact_reaches(match, goal, greedy_shot(match)),
    )
