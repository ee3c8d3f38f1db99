"""Seeded shots whose exact outcomes under the legacy physics are stored in
``data/legacy_golden.json`` (the digests of the engine's results before the friction models).

The scenes are generated here, independently of :mod:`hikone_carrom.bench.scenes`, so that they
never change: opening breaks, random mid-game shots, piles at the jack spot and slow pushes
into tight clusters (where pairs press together and chatter).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.physics import Disk, ShotResult, opening_disks, resting_layer

__all__ = ["LegacyScene", "digest", "legacy_scenes"]


@dataclass(frozen=True)
class LegacyScene:
    """One shot: the disks (striker "S" moving), the fly-off seed and switch."""

    name: str
    disks: tuple[Disk, ...]
    seed: int
    fly_off: bool


def _midgame(rng: np.random.Generator, b: BoardSpec) -> list[Disk]:
    placed: list[Disk] = [Disk.jack("J", *_free_point(rng, b, b.jack_radius, []), board=b)]
    for k in range(int(rng.integers(6, 21))):
        x, y = _free_point(rng, b, b.puck_radius, placed)
        placed.append(Disk.puck(f"{'R' if k % 2 else 'G'}{k}", x, y, board=b))
    return placed


def _free_point(
    rng: np.random.Generator, b: BoardSpec, r: float, placed: list[Disk]
) -> tuple[float, float]:
    lim = b.half_width - r
    while True:
        x, y = (float(v) for v in rng.uniform(-lim, lim, size=2))
        if any(math.hypot(x - c.x, y - c.y) < b.pocket_radius + r for c in b.pocket_centres()):
            continue
        if all(math.hypot(d.x - x, d.y - y) >= d.radius + r for d in placed):
            return x, y


def _striker(rng: np.random.Generator, b: BoardSpec, placed: list[Disk]) -> Disk:
    inward = {Side.SOUTH: 90.0, Side.WEST: 0.0, Side.NORTH: -90.0, Side.EAST: 180.0}
    while True:
        side = tuple(Side)[int(rng.integers(0, 4))]
        seg = b.area_line(side)
        u = float(rng.random())
        x = seg.a.x + u * (seg.b.x - seg.a.x)
        y = seg.a.y + u * (seg.b.y - seg.a.y)
        if all(math.hypot(d.x - x, d.y - y) >= d.radius + b.striker_radius for d in placed):
            break
    angle = math.radians(inward[side] + float(rng.uniform(-80.0, 80.0)))
    return Disk.shot("S", x, y, angle, float(rng.uniform(0.5, 5.0)), board=b)


def legacy_scenes(b: BoardSpec) -> Iterator[LegacyScene]:
    """The stored scenes, in a fixed order (sizes and geometry from ``b``)."""
    rng = np.random.default_rng(37)
    for k in range(40):
        side = tuple(Side)[k % 4]
        seg = b.area_line(side)
        u = float(rng.random())
        x = seg.a.x + u * (seg.b.x - seg.a.x)
        y = seg.a.y + u * (seg.b.y - seg.a.y)
        angle = math.atan2(-y, -x) + float(rng.uniform(-0.35, 0.35))
        s = Disk.shot("S", x, y, angle, float(rng.uniform(0.5, 5.0)), board=b)
        yield LegacyScene(f"break-{k}", (*opening_disks(b), s), k, True)
    for k in range(300):
        placed = _midgame(rng, b)
        yield LegacyScene(f"midgame-{k}", (*placed, _striker(rng, b, placed)), k, k % 3 != 0)
    for k in range(60):
        pile = [Disk.jack("J", 0.0, 0.0, board=b)]
        for n in range(int(rng.integers(1, 6))):
            dx, dy = (float(v) for v in rng.uniform(-0.012, 0.012, size=2))
            layer = resting_layer(pile, dx, dy, b.puck_radius)
            pile.append(Disk.puck(f"R{n}", dx, dy, layer=layer, board=b))
        aim = float(rng.uniform(-0.05, 0.05))
        s = Disk.shot("S", aim, -0.21, math.pi / 2, float(rng.uniform(0.3, 5.0)), board=b)
        yield LegacyScene(f"pile-{k}", (*pile, s), k, True)
    r = b.puck_radius
    hexes = [
        Disk.puck(f"P{n:02d}", (col + 0.5 * (row % 2)) * 2 * r, row * 2 * r * math.sqrt(3) / 2)
        for n, (row, col) in enumerate((row, col) for row in range(-2, 3) for col in range(-2, 3))
    ]
    for k in range(40):
        aim = float(rng.uniform(-0.03, 0.03))
        turn = float(rng.uniform(-0.2, 0.2))
        s = Disk.shot("S", aim, -0.21, math.pi / 2 + turn, float(rng.uniform(0.3, 2.0)), board=b)
        yield LegacyScene(f"cluster-{k}", (*hexes, s), k, False)


def digest(res: ShotResult) -> str:
    """SHA-256 of everything a shot produced, floats exact (hex): events, final layout, pockets,
    flights, first contact, truncation and the number of events handled."""
    fc = res.first_contact
    body = {
        "events": [
            [
                e.time.hex(),
                e.kind.value,
                list(e.ids),
                [[s.x.hex(), s.y.hex(), s.vx.hex(), s.vy.hex(), s.layer] for s in e.states],
                None if e.side is None else e.side.value,
                e.pocket,
            ]
            for e in res.events
        ],
        "final": [[d.id, d.x.hex(), d.y.hex(), d.layer] for d in res.final],
        "pocketed": [[p.id, p.pocket, p.time.hex()] for p in res.pocketed],
        "off": list(res.off_board),
        "first": [fc.disk_id, fc.time.hex(), [s.value for s in fc.rails_before]],
        "truncated": res.truncated,
        "handled": res.events_handled,
    }
    return hashlib.sha256(json.dumps(body).encode()).hexdigest()
