"""Seeded scenes: the opening break (the benchmark's) and random mid-game shots (the physics
tests' fuzzing; the benchmark's mid-game figures come from real match positions instead,
:mod:`hikone_carrom.bench.positions`).

Mid-game layout procedure (seeded, numpy PCG64): the jack and 6-20 pucks (random colours) are
dropped one by one at uniform random points within the rails, rejecting a point whose disk would
overlap an earlier one or whose centre lies within a pocket radius plus one disk radius of a corner.
A shot is a striker from a random side's area line (uniform along it, free of other disks), aimed
within +-80 deg of straight into the board, at a speed uniform in [0.5, 5.0] m/s. Everything on
layer 0 (the pymunk reference has no stacks).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from hikone_carrom.board import DEFAULT_BOARD, BoardSpec, Side
from hikone_carrom.physics import Disk, opening_disks

__all__ = ["Scene", "midgame_layout", "midgame_scenes", "opening_break", "random_shot"]

_INWARD = {Side.SOUTH: math.pi / 2, Side.WEST: 0.0, Side.NORTH: -math.pi / 2, Side.EAST: math.pi}


@dataclass(frozen=True)
class Scene:
    """A layout at rest plus the striker's shot: start (x, y) m, velocity (vx, vy) m/s."""

    layout: tuple[Disk, ...]
    shot: tuple[float, float, float, float]

    def disks(self, board: BoardSpec = DEFAULT_BOARD) -> list[Disk]:
        """Layout plus the striker "S" in motion."""
        x, y, vx, vy = self.shot
        return [*self.layout, Disk.striker("S", x, y, vx, vy, board=board)]


def opening_break(board: BoardSpec = DEFAULT_BOARD, speed: float = 5.0) -> Scene:
    """R1a layout; the striker from seat 0's tee spot straight at the jack at ``speed`` m/s."""
    tee = board.tee_spot(Side.SOUTH)
    return Scene(opening_disks(board), (tee.x, tee.y, 0.0, speed))


def _free(x: float, y: float, r: float, placed: list[Disk]) -> bool:
    return all((d.x - x) ** 2 + (d.y - y) ** 2 >= (d.radius + r) ** 2 for d in placed)


def midgame_layout(rng: np.random.Generator, board: BoardSpec = DEFAULT_BOARD) -> tuple[Disk, ...]:
    """A random legal scattering of the jack and 6-20 pucks at rest (see module docstring)."""
    n_pucks = int(rng.integers(6, 21))
    placed: list[Disk] = []
    kinds = ["J"] + [f"{'R' if rng.random() < 0.5 else 'G'}" for _ in range(n_pucks)]
    counts = {"R": 0, "G": 0}
    for kind in kinds:
        if kind == "J":
            make, r, pid = Disk.jack, board.jack_radius, "J"
        else:
            make, r, pid = Disk.puck, board.puck_radius, f"{kind}{counts[kind]}"
            counts[kind] += 1
        lim = board.half_width - r
        while True:
            x, y = (float(v) for v in rng.uniform(-lim, lim, size=2))
            near_pocket = any(
                math.hypot(x - c.x, y - c.y) < board.pocket_radius + r
                for c in board.pocket_centres()
            )
            if not near_pocket and _free(x, y, r, placed):
                placed.append(make(pid, x, y, board=board))
                break
    return tuple(placed)


def random_shot(
    rng: np.random.Generator, layout: tuple[Disk, ...], board: BoardSpec = DEFAULT_BOARD
) -> tuple[float, float, float, float]:
    """A striker start on a random side's area line and a velocity into the board (m, m/s)."""
    r = board.striker_radius
    while True:
        side = tuple(Side)[int(rng.integers(0, 4))]
        seg = board.area_line(side)
        u = float(rng.random())
        x = seg.a.x + u * (seg.b.x - seg.a.x)
        y = seg.a.y + u * (seg.b.y - seg.a.y)
        if _free(x, y, r, list(layout)):
            break
    angle = _INWARD[side] + math.radians(float(rng.uniform(-80.0, 80.0)))
    speed = float(rng.uniform(0.5, 5.0))
    return (x, y, speed * math.cos(angle), speed * math.sin(angle))


def midgame_scenes(
    count: int, seed: int = 0, shots_per_layout: int = 10, board: BoardSpec = DEFAULT_BOARD
) -> list[Scene]:
    """``count`` seeded random mid-game scenes, ``shots_per_layout`` shots from each layout."""
    rng = np.random.default_rng(seed)
    scenes: list[Scene] = []
    layout = midgame_layout(rng, board)
    while len(scenes) < count:
        if scenes and len(scenes) % shots_per_layout == 0:
            layout = midgame_layout(rng, board)
        scenes.append(Scene(layout, random_shot(rng, layout, board)))
    return scenes
