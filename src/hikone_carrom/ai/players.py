"""The computer players: baselines ``random`` and ``aim``, and the searching players (``greedy``
and levels 1-6) that share :func:`~hikone_carrom.ai.search.search`."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from hikone_carrom.ai.errors import NoLegalShotError
from hikone_carrom.ai.geometry import line_points
from hikone_carrom.ai.layout_cost import STUCK, failed_in_a_row
from hikone_carrom.ai.noise import NoiseModel
from hikone_carrom.ai.player import Plan, Player
from hikone_carrom.ai.search import SearchConfig, search
from hikone_carrom.ai.value import Weights
from hikone_carrom.ai.view import TableView
from hikone_carrom.match import Match, Shot

__all__ = ["LATE_TARGETS", "AimPlayer", "RandomPlayer", "SearchPlayer"]

LATE_TARGETS = 3
"""Targets left (own pucks, or the jack, R6b) from which a player's late search takes over:
positions are sparse and simulations cheap there, and each miss costs a whole strike."""

_SPOTS = 41
"""Points of the free area line a baseline chooses its placement among."""


def _random_spot(view: TableView, rng: np.random.Generator) -> tuple[float, float]:
    spots = line_points(view.placement, _SPOTS)
    if not spots:
        raise NoLegalShotError(
            "no free place for the striker on the area line (R2b)",
            "エリアライン上にストライカーを置ける場所がありません（R2b）",
        )
    return spots[int(rng.integers(0, len(spots)))]


class RandomPlayer(Player):
    """Baseline: a random legal placement, a random direction into the board, a random speed."""

    def plan(self, match: Match, rng: np.random.Generator) -> Plan:
        view = TableView.of_match(match)
        x, y = _random_spot(view, rng)
        forward = math.atan2(-y, -x) if (x, y) != (0.0, 0.0) else math.pi / 2
        angle = forward + float(rng.uniform(-0.45, 0.45)) * math.pi
        speed = float(rng.uniform(0.5, match.board.max_speed))
        return Plan(Shot(x, y, angle, speed), {"kind": "random"})


class AimPlayer(Player):
    """Baseline (CS747 "random-aim"): straight at the centre of a random own puck (the jack once
    every own puck is down, R6b) from a random legal placement, at a random firm speed."""

    def plan(self, match: Match, rng: np.random.Generator) -> Plan:
        view = TableView.of_match(match)
        x, y = _random_spot(view, rng)
        targets = view.targets() or [int(k) for k in np.flatnonzero(view.ground)]
        speed = float(rng.uniform(1.0, 4.0))
        if not targets:
            return Plan(Shot(x, y, math.atan2(-y, -x), speed), {"kind": "random"})
        t = targets[int(rng.integers(0, len(targets)))]
        angle = math.atan2(float(view.y[t]) - y, float(view.x[t]) - x)
        return Plan(Shot(x, y, angle, speed), {"kind": "aim", "target": view.ids[t]})


class SearchPlayer(Player):
    """A player that searches candidate shots with the simulator (greedy, levels 1-6).

    Args:
        name, seed, noise: as :class:`Player`.
        config: how it searches a position.
        weights: what outcomes are worth to it.
        late: how it searches once at most :data:`LATE_TARGETS` targets are left (None:
            ``config`` throughout).
    """

    def __init__(
        self,
        name: str,
        seed: int,
        noise: NoiseModel,
        config: SearchConfig,
        weights: Weights,
        late: SearchConfig | None = None,
    ) -> None:
        super().__init__(name, seed, noise)
        self.config = config
        self.weights = weights
        self.late = late

    def config_for(self, view: TableView) -> SearchConfig:
        """How it searches ``view``'s position: :attr:`late` once at most :data:`LATE_TARGETS`
        targets are left (its own pucks, or the jack once it may be pocketed, R6b)."""
        if self.late is not None and len(view.targets()) <= LATE_TARGETS:
            return self.late
        return self.config

    def plan(self, match: Match, rng: np.random.Generator) -> Plan:
        view = TableView.of_match(match)
        weights = self.weights
        if weights.layout_per_strike and failed_in_a_row(match, match.shooter) >= STUCK:
            weights = replace(weights, layout_per_strike=0.0)
        found = search(view, self.config_for(view), weights, self.noise, rng, match.fly_off)
        x, y, angle, speed = found.shot
        return Plan(Shot(x, y, angle, speed), found.info())
