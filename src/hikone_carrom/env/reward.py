"""The reward of every environment (configurable; the defaults are documented in docs/rl.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from hikone_carrom.rules import Color, RefereeState

__all__ = ["Reward", "standing"]


def standing(state: RefereeState, color: Color) -> int:
    """A colour's pucks pocketed minus its debt (R5i): what penalties (R5) take away."""
    return state.pocketed[color.index] - state.debt[color.index]


@dataclass(frozen=True)
class Reward:
    """Reward weights; a step's reward is, from the observer's colour:

    ``puck`` x change of (own pucks pocketed - own debt) - ``rival`` x the same change for the
    other colour + ``strike`` for each of the observer's own strikes + on the step the game ends
    ``win``, ``loss`` or ``draw`` (R7).

    A penalty (R5) returns pocketed pucks or adds debt (R5h, R5i), so it lowers the first term by
    what it costs; pucks pocketed for the other colour (R3b) count only through ``rival``.
    """

    puck: float = 1.0
    rival: float = 0.0
    strike: float = 0.0
    win: float = 10.0
    loss: float = -10.0
    draw: float = 0.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"Reward.{f.name} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"Reward.{f.name} must be finite, got {value!r}")

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
