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
from hikone_carrom.ai.view import TableView
from hikone_carrom.match import Match, Shot

__all__ = ["AimPlayer", "RandomPlayer", "SearchPlayer"]

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
    """A player that searches geometric candidates with the simulator (greedy, levels 1-6).

    Args:
        name, seed, noise: as :class:`Player`. config: the search budget.
    """

    def __init__(self, name: str, seed: int, noise: NoiseModel, config: SearchConfig) -> None:
        super().__init__(name, seed, noise)
        self.config = config

    def plan(self, match: Match, rng: np.random.Generator) -> Plan:
        view = TableView.of_match(match)
        config = self.config
        if config.weights.layout and failed_in_a_row(match, match.shooter) >= STUCK:
            config = replace(config, weights=replace(config.weights, layout=0.0))
        found = search(view, config, self.noise, rng, fly_off=match.fly_off)
        x, y, angle, speed = found.shot
        return Plan(Shot(x, y, angle, speed), found.info())
