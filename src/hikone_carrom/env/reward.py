"""The reward of every environment (configurable; the defaults are documented in docs/rl.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np

from hikone_carrom.board import BoardSpec
from hikone_carrom.rules import Color, RefereeState

__all__ = ["Reward", "pocket_distance", "standing"]


def standing(state: RefereeState, color: Color) -> int:
    """A colour's pucks pocketed minus its debt (R5i): what penalties (R5) take away."""
    return state.pocketed[color.index] - state.debt[color.index]


def pocket_distance(
    board: BoardSpec, x: np.ndarray, y: np.ndarray, present: np.ndarray
) -> np.ndarray:
    """(M,) the summed distance (m) from each present disk's centre to its nearest pocket's
    centre, for M boards of disks ``x``, ``y``, ``present`` (M, K)."""
    h = board.half_width
    d = np.hypot(h - np.abs(x), h - np.abs(y))  # the nearest corner is in the disk's quadrant
    total: np.ndarray = np.where(present, d, 0.0).sum(axis=1)
    return total


@dataclass(frozen=True)
class Reward:
    """Reward weights; a step's reward is, from the observer's colour:

    ``puck`` x change of (own pucks pocketed - own debt) - ``rival`` x the same change for the
    other colour + ``strike`` for each of the observer's own strikes + on the step the game ends
    ``win``, ``loss`` or ``draw`` (R7) + the shaping ``gamma`` x phi(after) - phi(before).

    A penalty (R5) returns pocketed pucks or adds debt (R5h, R5i), so it lowers the first term by
    what it costs; pucks pocketed for the other colour (R3b) count only through ``rival``.

    The shaping is potential-based (Ng, Harada and Russell, 1999), so it leaves the best policy
    unchanged: phi = -``approach`` x the summed distance (m) of the observer's pucks on the board
    to their nearest pocket (:func:`pocket_distance`), 0 once the game has ended; ``gamma``
    should be the learner's discount. With ``approach`` 0 (the default) there is no shaping.
    """

    puck: float = 1.0
    rival: float = 0.0
    strike: float = 0.0
    win: float = 10.0
    loss: float = -10.0
    draw: float = 0.0
    approach: float = 0.0
    gamma: float = 1.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"Reward.{f.name} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"Reward.{f.name} must be finite, got {value!r}")
        if not 0.0 <= self.gamma <= 1.0:
            raise ValueError(f"Reward.gamma must be in [0, 1], got {self.gamma!r}")

    def terminal(self, state: RefereeState, color: Color) -> float:
        """The end-of-game term for ``color`` (0 while the game goes on)."""
        if state.outcome is None:
            return 0.0
        if state.outcome.winner is None:
            return self.draw
        return self.win if state.outcome.winner is color else self.loss

    def change(self, before: RefereeState, after: RefereeState, color: Color) -> float:
        """The pucks term between two states, for ``color``."""
        own = standing(after, color) - standing(before, color)
        other = standing(after, color.opponent) - standing(before, color.opponent)
        return self.puck * own - self.rival * other

    def potential(self, distance: np.ndarray) -> np.ndarray:
        """phi of positions whose own pucks lie ``distance`` (m, summed) from the pockets."""
        phi: np.ndarray = -self.approach * np.asarray(distance, dtype=np.float64)
        return phi

    def shaping(self, before: np.ndarray, after: np.ndarray, over: np.ndarray) -> np.ndarray:
        """The shaping term ``gamma`` x phi(after) - phi(before) (phi(after) = 0 where ``over``)."""
        term: np.ndarray = self.gamma * np.where(over, 0.0, after) - before
        return term
