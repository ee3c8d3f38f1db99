"""The player protocol: every computer opponent decides a :class:`Decision` and plays it through
:meth:`Match.play <hikone_carrom.match.Match.play>`, the one path every shot takes
(docs/architecture.md).

A decision is the shot the player means and the execution error its hand adds (part of its level,
recorded in the match record). Both come from generators seeded by (player seed, number of actions
so far), so a player decides the same way every time it meets the same match.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from hikone_carrom.ai.errors import NoLegalShotError
from hikone_carrom.ai.noise import NoiseModel, decision_rng
from hikone_carrom.match import IllegalShotError, Match, Noise, PlacementKind, PlayResult, Shot

__all__ = ["MIN_SPEED", "Decision", "Plan", "Player", "legal_shot", "take_turn"]

MIN_SPEED = 0.05
"""Slowest flick a computer player chooses, m/s (every level keeps speed in (0, max_speed])."""


@dataclass(frozen=True)
class Plan:
    """What a player means to do before its hand adds noise: the shot and why (for hints/UI).

    ``info`` holds plain JSON values, e.g. ``kind`` (direct, bank, combination, jack, break,
    safety, sweep, random), ``target`` (disk id), ``pocket`` (index), ``value`` (expected score),
    ``evaluated``.
    """

    shot: Shot
    info: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision:
    """A player's decision: the shot meant, the execution noise its hand adds, and why."""

    shot: Shot
    noise: Noise
    info: Mapping[str, Any] = field(default_factory=dict)


def legal_shot(match: Match, x: float, y: float, angle: float, speed: float) -> Shot:
    """The legal shot nearest to the given one for the shooter (R2a, R2b; speed in (0, max]).

    The placement moves to the nearest legal point (the fixed point of a first shot, else the
    nearest free point of the area line); the speed (m/s) is clamped to [MIN_SPEED, max_speed];
    the angle (rad) is wrapped to (-pi, pi].

    Raises:
        NoLegalShotError: no legal placement exists.
    """
    try:
        placement = match.legal_placement()
    except IllegalShotError as err:  # NoPlacementError: the turn passes (Match.must_pass)
        raise NoLegalShotError(err.reason_en, err.reason_ja) from err
    if placement.kind is PlacementKind.POINT:
        x, y = placement.point
    elif not placement.contains(x, y):
        try:
            x, y = placement.nearest(x, y)
        except IllegalShotError as err:
            raise NoLegalShotError(err.reason_en, err.reason_ja) from err
        if not placement.contains(x, y):
            raise NoLegalShotError(
                "no free place for the striker on the area line (R2b)",
                "エリアライン上にストライカーを置ける場所がありません（R2b）",
            )
    speed = min(max(speed, MIN_SPEED), match.board.max_speed)
    angle = math.remainder(angle, 2.0 * math.pi)
    return Shot(x, y, angle, speed)


class Player(ABC):
    """A computer player: ``decide(match)`` gives the shooter's :class:`Decision`.

    Args:
        name: the player's name ("random", "aim", "greedy", "level3", ...).
        seed: seeds every decision (with the number of actions so far).
        noise: the hand's execution noise (sigmas; see :mod:`hikone_carrom.ai.noise`).
    """

    def __init__(self, name: str, seed: int, noise: NoiseModel) -> None:
        self.name = name
        self.seed = int(seed)
        self.noise = noise

    @abstractmethod
    def plan(self, match: Match, rng: np.random.Generator) -> Plan:
        """The shot meant for the shooter of ``match`` (legal), drawing randomness from ``rng``."""

    def decide(self, match: Match) -> Decision:
        """The shooter's decision: the meant shot (legal for ``match`` now) and the hand's noise.

        Raises:
            NoLegalShotError: there is no legal placement for the striker.
        """
        index = len(match.actions)
        plan = self.plan(match, decision_rng(self.seed, index, 0))
        shot = plan.shot
        shot = legal_shot(match, shot.x, shot.y, shot.angle, shot.speed)
        noise = self.noise.draw(decision_rng(self.seed, index, 1))
        info = dict(plan.info)
        info.setdefault("player", self.name)
        return Decision(shot, noise, MappingProxyType(info))

    def choose(self, match: Match) -> Shot:
        """The shot meant (without the hand's noise)."""
        return self.decide(match).shot

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, seed={self.seed})"


def take_turn(match: Match, player: Player) -> PlayResult:
    """Let ``player`` shoot for the shooter of ``match``: decide, then :meth:`Match.play`.

    Raises:
        NoLegalShotError: there is no legal placement for the striker.
    """
    decision = player.decide(match)
    return match.play(decision.shot, decision.noise)
