"""Execution noise of a computer player's hand: seeded Gaussians on placement, angle and speed.

The noise is part of a player's level and of the evaluation's noise tiers: tier 1x is
sigma 2 mm on placement (each axis), 1.0 degree on angle and 3 % on speed; 0x is exact play and
5x five times each sigma. Draws come from generators seeded by (player seed, action index), so a
decision is deterministic for a seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from hikone_carrom.ai.errors import UnknownPlayerError
from hikone_carrom.match import Noise

__all__ = [
    "BASE_NOISE",
    "NOISE_TIERS",
    "NoiseModel",
    "decision_rng",
    "tier_scale",
]

_MIN_SPEED_FACTOR = -0.9
"""Lower bound of a drawn relative speed error: a hand never loses 90 % of the flick."""


@dataclass(frozen=True)
class NoiseModel:
    """Standard deviations of a hand's execution errors.

    Attributes:
        placement: sigma of the striker placement error on each axis (m).
        angle: sigma of the direction error (rad).
        speed: sigma of the relative speed error (executed speed = speed * (1 + error)).
    """

    placement: float = 0.0
    angle: float = 0.0
    speed: float = 0.0

    def __post_init__(self) -> None:
        for name in ("placement", "angle", "speed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise UnknownPlayerError(
                    f"noise sigma {name} must be a number", f"ノイズの {name} は数値で指定します"
                )
            if not math.isfinite(value) or value < 0.0:
                raise UnknownPlayerError(
                    f"noise sigma {name} must be finite and >= 0, got {value!r}",
                    f"ノイズの {name} は0以上の有限の数です（{value!r} は不可）",
                )
            object.__setattr__(self, name, float(value))

    @property
    def is_zero(self) -> bool:
        """True for exact play (every sigma 0)."""
        return self.placement == 0.0 and self.angle == 0.0 and self.speed == 0.0

    def scaled(self, factor: float) -> NoiseModel:
        """Every sigma multiplied by ``factor`` (>= 0)."""
        return NoiseModel(self.placement * factor, self.angle * factor, self.speed * factor)

    def draw(self, rng: np.random.Generator) -> Noise:
        """One execution error drawn from ``rng`` (always four normal draws, so streams align)."""
        dx, dy, da, ds = rng.standard_normal(4)
        return Noise(
            dx=float(dx) * self.placement,
            dy=float(dy) * self.placement,
            dangle=float(da) * self.angle,
            speed_factor=max(_MIN_SPEED_FACTOR, float(ds) * self.speed),
        )

    def draw_many(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` execution errors as an (n, 4) array of (dx m, dy m, dangle rad, speed factor)."""
        return self.errors(rng.standard_normal((n, 4)))

    def errors(self, z: np.ndarray) -> np.ndarray:
        """The execution errors of standard normal draws ``z`` (n, 4), as :meth:`draw_many`
        (and :meth:`draw`, one row) make them: an (n, 4) array of (dx m, dy m, dangle rad,
        speed factor)."""
        n = len(z)
        out = np.empty((n, 4))
        out[:, 0] = z[:, 0] * self.placement
        out[:, 1] = z[:, 1] * self.placement
        out[:, 2] = z[:, 2] * self.angle
        out[:, 3] = np.maximum(_MIN_SPEED_FACTOR, z[:, 3] * self.speed)
        return out

    def to_dict(self) -> dict[str, float]:
        """Plain JSON: the three sigmas (m, rad, relative)."""
        return {"placement": self.placement, "angle": self.angle, "speed": self.speed}


BASE_NOISE = NoiseModel(placement=0.002, angle=math.radians(1.0), speed=0.03)
"""Tier 1x: 2 mm on placement, 1.0 degree on angle, 3 % on speed."""

NOISE_TIERS: dict[str, float] = {"0x": 0.0, "1x": 1.0, "5x": 5.0}
"""The evaluation's noise tiers: multiples of :data:`BASE_NOISE`."""


def tier_scale(tier: str | float) -> float:
    """The multiple of :data:`BASE_NOISE` a tier name ("0x", "1x", "5x") or number stands for."""
    if isinstance(tier, str):
        if tier in NOISE_TIERS:
            return NOISE_TIERS[tier]
        try:
            value = float(tier.removesuffix("x"))
        except ValueError:
            value = math.nan
    elif isinstance(tier, bool) or not isinstance(tier, int | float):
        value = math.nan
    else:
        value = float(tier)
    if not math.isfinite(value) or value < 0.0:
        raise UnknownPlayerError(
            f"unknown noise tier {tier!r} (use 0x, 1x, 5x or a number >= 0)",
            f"ノイズ段階 {tier!r} は使えません（0x, 1x, 5x か0以上の数）",
        )
    return value


def decision_rng(seed: int, index: int, stream: int = 0) -> np.random.Generator:
    """The generator of a player seeded ``seed`` deciding action ``index`` of a match.

    ``stream`` separates independent uses (0 search, 1 the hand's execution error), so a level
    that searches more does not change the hand's draw.
    """
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, index, stream])))
