"""Reference: the same shots in pymunk (Chipmunk2D), time-stepped, set up as lean as a pymunk user
would: the benchmark's peer and the tests' statistical oracle.

Units mm, g, s (so Chipmunk's slop and tolerances fit); dt = 1/240 s (a striker at 5 m/s moves
21 mm a step, under a disk's diameter). Coulomb friction on the board by one pivot joint from
each disk to the static body (``max_bias`` 0, ``max_force`` mu*m*g: the Chipmunk "top-down
friction" idiom, all in C). Rails: thick segments outside the playing surface. Pockets: static
sensor circles of radius (pocket radius - disk radius) about the corners, one per disk size, so
Chipmunk itself reports a disk whose centre is over a hole; it is removed after that step. The
only Python in the loop is the end-of-shot check, once per displayed frame (every 4 steps): every
disk slower than 1 mm/s. Restitution: pymunk multiplies the two shapes' elasticities, so disks
get sqrt(e_disk) and rails e_rail/sqrt(e_disk). No stacks, spin or impact friction: the engine
is compared on the frictionless setting (``BoardSpec.legacy()``) with the layer-0 disks only.
pymunk is imported lazily: it is a dev/bench dependency only.
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
REST_CHECK_STEPS = 4
"""Steps between two end-of-shot checks (1/60 s at dt = 1/240 s)."""
_SENSOR = 1000
"""Collision types: a disk of size class k has type k + 1, the pocket sensors for it _SENSOR + k."""


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
    """Simulate one shot in pymunk (the layer-0 disks only) until every disk rests."""
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
    live: dict[Any, tuple[str, Any, Any, Any]] = {}
    sizes: list[float] = []
    pocketed: list[str] = []
    for d in disks:
        if d.layer:
            continue
        m = d.mass * G_PER_KG
        r = d.radius * MM
        if r not in sizes:
            sizes.append(r)
        body = pymunk.Body(m, pymunk.moment_for_circle(m, 0.0, r))
        body.position = (d.x * MM, d.y * MM)
        body.velocity = (d.vx * MM, d.vy * MM)
        shape = pymunk.Circle(body, r)
        shape.elasticity = e_disk
        shape.friction = 0.0
        shape.collision_type = sizes.index(r) + 1
        pivot = pymunk.PivotJoint(static, body, (0.0, 0.0), (0.0, 0.0))
        pivot.max_bias = 0.0
        pivot.max_force = board.friction * m * g
        space.add(body, shape, pivot)
        live[body] = (d.id, body, shape, pivot)

    def remove(space: Any, body: Any) -> None:
        entry = live.pop(body, None)
        if entry is not None:
            pocketed.append(entry[0])
            space.remove(*entry[1:])

    def fall(arbiter: Any, space: Any, data: Any) -> None:
        body = arbiter.shapes[0].body
        space.add_post_step_callback(remove, body)

    pr = board.pocket_radius * MM
    for k, r in enumerate(sizes):
        for c in board.pocket_centres():
            hole = pymunk.Circle(static, pr - r, (c.x * MM, c.y * MM))
            hole.sensor = True
            hole.collision_type = _SENSOR + k
            space.add(hole)
        space.on_collision(k + 1, _SENSOR + k, begin=fall)
    steps = 0
    t = 0.0
    while t < max_time:
        for _ in range(REST_CHECK_STEPS):
            space.step(dt)
        steps += REST_CHECK_STEPS
        t += REST_CHECK_STEPS * dt
        if all(b.velocity.length_squared <= 1.0 for b in live):
            break
    final = {v[0]: (b.position.x / MM, b.position.y / MM) for b, v in live.items()}
    return PymunkOutcome(final, tuple(pocketed), t, steps)
