"""Reference: the same scenes in pymunk (Chipmunk2D), time-stepped, for the physics benchmark.

Coulomb friction by a pivot joint and a gear joint from each disk to the static body
(``max_bias`` 0, ``max_force`` mu*m*g), the fastest accurate pymunk set-up; units mm, g, s (so
Chipmunk's slop and tolerances fit); dt = 1/240 s. Walls: thick segments outside the rails.
Restitution: pymunk multiplies the two shapes' elasticities, so disks get sqrt(e_disk) and walls
e_rail/sqrt(e_disk). A disk whose centre is over a pocket hole is removed and the shot ends when
every disk is slower than 1 mm/s, both checked every second step (1/120 s) to keep Python's
share of the time small. pymunk is imported lazily: it is a dev/bench
dependency only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hikone_carrom.board import DEFAULT_BOARD, BoardSpec
from hikone_carrom.physics import Disk

__all__ = ["PymunkOutcome", "pymunk_shot"]

MM = 1000.0
G_PER_KG = 1000.0


@dataclass(frozen=True)
class PymunkOutcome:
    """Final centres (m) of the disks left on the board, ids pocketed, simulated time (s), steps."""

    final: dict[str, tuple[float, float]]
    pocketed: tuple[str, ...]
    sim_time: float
    steps: int


def pymunk_shot(
    disks: Sequence[Disk],
    board: BoardSpec = DEFAULT_BOARD,
    dt: float = 1.0 / 240.0,
    max_time: float = 10.0,
) -> PymunkOutcome:
    """Simulate one shot in pymunk (layer-0 disks only) until every disk rests."""
    import pymunk

    space = pymunk.Space()
    space.collision_slop = 0.05
    static = space.static_body
    half = board.half_width * MM
    wall_r = 20.0
    e_disk = math.sqrt(board.restitution_disk)
    for ax, ay, bx, by in (
        (-half - wall_r, -half - wall_r, half + wall_r, -half - wall_r),
        (half + wall_r, -half - wall_r, half + wall_r, half + wall_r),
        (half + wall_r, half + wall_r, -half - wall_r, half + wall_r),
        (-half - wall_r, half + wall_r, -half - wall_r, -half - wall_r),
    ):
        seg = pymunk.Segment(static, (ax, ay), (bx, by), wall_r)
        seg.elasticity = board.restitution_rail / e_disk
        seg.friction = 0.0
        space.add(seg)
    g = board.gravity * MM
    bodies: dict[str, Any] = {}
    for d in disks:
        m = d.mass * G_PER_KG
        r = d.radius * MM
        body = pymunk.Body(m, pymunk.moment_for_circle(m, 0.0, r))
        body.position = (d.x * MM, d.y * MM)
        body.velocity = (d.vx * MM, d.vy * MM)
        shape = pymunk.Circle(body, r)
        shape.elasticity = e_disk
        shape.friction = 0.0
        pivot = pymunk.PivotJoint(static, body, (0.0, 0.0), (0.0, 0.0))
        pivot.max_bias = 0.0
        pivot.max_force = board.friction * m * g
        gear = pymunk.GearJoint(static, body, 0.0, 1.0)
        gear.max_bias = 0.0
        gear.max_force = board.friction * m * g * r
        space.add(body, shape, pivot, gear)
        bodies[d.id] = (body, shape, pivot, gear)
    corners = [(c.x * MM, c.y * MM) for c in board.pocket_centres()]
    pr2 = (board.pocket_radius * MM) ** 2
    pocketed: list[str] = []
    steps = 0
    t = 0.0
    while t < max_time:
        space.step(dt)
        steps += 1
        t += dt
        if steps % 2:
            continue
        moving = False
        for pid in list(bodies):
            body = bodies[pid][0]
            x, y = body.position
            if any((x - cx) ** 2 + (y - cy) ** 2 < pr2 for cx, cy in corners):
                space.remove(*bodies.pop(pid))
                pocketed.append(pid)
                continue
            vx, vy = body.velocity
            if vx * vx + vy * vy > 1.0:
                moving = True
        if not moving:
            break
    final = {pid: (v[0].position.x / MM, v[0].position.y / MM) for pid, v in bodies.items()}
    return PymunkOutcome(final, tuple(pocketed), t, steps)
