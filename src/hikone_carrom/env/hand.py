"""The shots of a batch as struck: each moved by the hand's noise as
:meth:`Match.play <hikone_carrom.match.Match.play>` moves it (the placement to the nearest
legal point, R2b), the same numbers, and turned into the engine's velocities."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from hikone_carrom.match import Placement, hand_moved
from hikone_carrom.match.hand import FEW, hands_moved

__all__ = ["struck"]


def struck(
    meant: np.ndarray, hands: np.ndarray, placements: Sequence[Placement], max_speed: float
) -> np.ndarray:
    """(M, 4) the shots ``meant`` (x m, y m, angle rad, speed m/s) as struck with the noise
    ``hands`` (dx m, dy m, dangle rad, speed factor): (x m, y m, vx m/s, vy m/s)."""
    if len(meant) < FEW:
        rows = []
        for p, shot, noise in zip(placements, meant.tolist(), hands.tolist(), strict=True):
            x, y, angle, speed = shot
            if noise[0] != 0.0 or noise[1] != 0.0 or noise[2] != 0.0 or noise[3] != 0.0:
                x, y, angle, speed = hand_moved(p, (x, y, angle, speed), noise, max_speed)
            rows.append((x, y, speed * math.cos(angle), speed * math.sin(angle)))
        return np.array(rows, dtype=np.float64).reshape(-1, 4)
    out = hands_moved(placements, meant, hands, max_speed)
    angles = out[:, 2].tolist()
    speeds = out[:, 3].tolist()
    out[:, 2] = [s * math.cos(a) for s, a in zip(speeds, angles, strict=True)]
    out[:, 3] = [s * math.sin(a) for s, a in zip(speeds, angles, strict=True)]
    return out
