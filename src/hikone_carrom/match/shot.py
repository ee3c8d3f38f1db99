"""A shot as a player gives it, the execution noise applied to it, and why one can be refused."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from hikone_carrom.match.errors import IllegalShotError

__all__ = ["IllegalShotError", "Noise", "Shot"]


def _finite(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise IllegalShotError(f"{name} must be a number", f"{name} は数値で指定してください")
    try:
        result = float(value)
    except OverflowError:
        raise IllegalShotError(
            f"{name} is too large to be a number of the board",
            f"{name} が大きすぎます（盤上の数値になりません）",
        ) from None
    if not math.isfinite(result):
        raise IllegalShotError(f"{name} must be finite", f"{name} は有限の数値で指定してください")
    return result


@dataclass(frozen=True)
class Shot:
    """A flick of the striker, in board coordinates (docs/architecture.md).

    Attributes:
        x, y: the striker's centre where it is placed (m).
        angle: direction of the flick (rad; 0 = +x, counter-clockwise).
        speed: the striker's initial speed (m/s), at most the board's fastest flick.
    """

    x: float
    y: float
    angle: float
    speed: float

    def __post_init__(self) -> None:
        for name in ("x", "y", "angle", "speed"):
            object.__setattr__(self, name, _finite(name, getattr(self, name)))

    @property
    def velocity(self) -> tuple[float, float]:
        """The striker's initial velocity (m/s)."""
        return (self.speed * math.cos(self.angle), self.speed * math.sin(self.angle))

    def to_dict(self) -> dict[str, float]:
        """Plain JSON-ready dict."""
        return {"x": self.x, "y": self.y, "angle": self.angle, "speed": self.speed}

    @classmethod
    def from_dict(cls, data: Any) -> Shot:
        """Rebuild from :meth:`to_dict` output; raises :class:`IllegalShotError` on bad input."""
        if not isinstance(data, dict):
            raise IllegalShotError("a shot must be an object", "ショットはオブジェクトで指定します")
        try:
            return cls(x=data["x"], y=data["y"], angle=data["angle"], speed=data["speed"])
        except KeyError as exc:
            raise IllegalShotError(
                f"the shot lacks {exc.args[0]!r}", f"ショットに {exc.args[0]!r} がありません"
            ) from None


@dataclass(frozen=True)
class Noise:
    """Execution noise applied to a shot: what the hand did beyond what the player meant.

    Attributes:
        dx, dy: placement error (m). dangle: angle error (rad). speed_factor: relative speed error
        (the executed speed is ``speed * (1 + speed_factor)``, capped at the fastest flick).
    """

    dx: float = 0.0
    dy: float = 0.0
    dangle: float = 0.0
    speed_factor: float = 0.0

    def __post_init__(self) -> None:
        for name in ("dx", "dy", "dangle", "speed_factor"):
            object.__setattr__(self, name, _finite(name, getattr(self, name)))

    @property
    def is_zero(self) -> bool:
        """True when the noise changes nothing."""
        return self.dx == 0.0 and self.dy == 0.0 and self.dangle == 0.0 and self.speed_factor == 0.0

    def to_dict(self) -> dict[str, float]:
        """Plain JSON-ready dict."""
        return {
            "dx": self.dx,
            "dy": self.dy,
            "dangle": self.dangle,
            "speed_factor": self.speed_factor,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Noise:
        """Rebuild from :meth:`to_dict` output (missing terms are 0); raises
        :class:`IllegalShotError` on bad input."""
        if not isinstance(data, dict):
            raise IllegalShotError("noise must be an object", "ノイズはオブジェクトで指定します")
        return cls(**{k: data[k] for k in ("dx", "dy", "dangle", "speed_factor") if k in data})
