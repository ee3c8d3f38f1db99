"""Aiming geometry on the Hikone board: pocket aim points, contact ("ghost") points, clear paths,
rail banks with restitution and the launch speed a shot needs (SI units: m, m/s, rad).

Between events a disk slides on a straight line decelerating at mu*g (docs/physics.md), so distances
and speeds follow from v0^2 = v1^2 + 2 mu g d; at a rail the normal velocity is scaled by the
rail's restitution and the tangential one loses the rail's friction impulse (docs/physics.md;
without rail friction it is kept, and a bank's aim point is found by mirroring the target with
its distance to the rail divided by the restitution). The throw of a cut (disk friction) is left
to the players' simulated search.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match import Placement, PlacementKind

__all__ = [
    "POCKET_AIM_DEPTH",
    "bank_point",
    "corridor_clear",
    "ghost_point",
    "launch_speed",
    "line_point_on_ray",
    "line_points",
    "pocket_aims",
    "rail_exit_ratio",
    "speed_after_rail",
    "transfer_ratio",
]

POCKET_AIM_DEPTH = 0.030
"""Distance (m) from a corner at which a pocketing shot aims the piece's centre, on the diagonal;
the hole has radius ``BoardSpec.pocket_radius`` about the corner."""

_RAIL_AXIS: dict[Side, tuple[int, float]] = {
    Side.SOUTH: (1, -1.0),
    Side.NORTH: (1, 1.0),
    Side.WEST: (0, -1.0),
    Side.EAST: (0, 1.0),
}
"""Per rail: the coordinate it bounds (0 = x, 1 = y) and the sign of its position."""


def pocket_aims(board: BoardSpec) -> list[tuple[float, float]]:
    """Where to send a piece's centre to pocket it, one point per pocket (index as the board's)."""
    k = POCKET_AIM_DEPTH / math.sqrt(2.0)
    return [
        (cx - math.copysign(k, cx), cy - math.copysign(k, cy)) for cx, cy in board.pocket_centres()
    ]


def ghost_point(px: float, py: float, tx: float, ty: float, dist: float) -> tuple[float, float]:
    """Where the hitting disk's centre must be at contact (m) to send a disk at (px, py) towards
    (tx, ty): ``dist`` (sum of radii, m) behind it on the line from the target."""
    dx, dy = tx - px, ty - py
    n = math.hypot(dx, dy)
    if n == 0.0:
        return px, py
    return px - dx / n * dist, py - dy / n * dist


def corridor_clear(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    radius: float,
    xs: np.ndarray,
    ys: np.ndarray,
    rs: np.ndarray,
    mask: np.ndarray,
) -> bool:
    """Can a disk of ``radius`` (m) slide from (ax, ay) to (bx, by) without touching any disk
    selected by ``mask`` (centres xs, ys; radii rs; m)?"""
    if not mask.any():
        return True
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    ox = xs[mask] - ax
    oy = ys[mask] - ay
    if length2 == 0.0:
        t = np.zeros_like(ox)
    else:  # np.minimum / np.maximum: as np.clip, without its overhead on a few disks
        t = np.minimum(np.maximum((ox * dx + oy * dy) / length2, 0.0), 1.0)
    ex = ox - t * dx
    ey = oy - t * dy
    reach = rs[mask] + radius
    return not bool(np.any(ex * ex + ey * ey < reach * reach))


def line_points(placement: Placement, count: int) -> list[tuple[float, float]]:
    """Up to ``count`` legal striker centres (m) spread evenly over the free parts of the lane
    (the area line, or a parallel within reach when it is covered, R2b), or the one prescribed
    point of a POINT placement (R2a)."""
    if placement.kind is PlacementKind.POINT:
        return [placement.point]
    free = placement.free_intervals()
    total = sum(b - a for a, b in free)
    if total <= 0.0 or count <= 0:
        return []
    (x0, y0), (x1, y1) = placement.lane
    out: list[tuple[float, float]] = []
    for k in range(count):
        s = (k + 0.5) / count * total
        for a, b in free:
            if s <= b - a:
                f = a + s
                out.append((x0 + f * (x1 - x0), y0 + f * (y1 - y0)))
                break
            s -= b - a
    return [p for p in out if placement.contains(*p)]


def line_point_on_ray(
    placement: Placement, gx: float, gy: float, ux: float, uy: float
) -> tuple[float, float] | None:
    """The legal point of the lane (the area line unless it is covered, R2b) on the ray from
    (gx, gy) backwards along -(ux, uy) (a unit direction), i.e. where to stand to move along
    (ux, uy) through (gx, gy); or None."""
    if placement.kind is PlacementKind.POINT:
        return None
    (x0, y0), (x1, y1) = placement.lane
    lx, ly = x1 - x0, y1 - y0
    # Solve g - s u = p0 + f l for s > 0 and f in [0, 1].
    det = ux * ly - uy * lx
    if abs(det) < 1e-12:
        return None
    rx, ry = x0 - gx, y0 - gy
    s = (lx * ry - rx * ly) / det
    f = (uy * rx - ux * ry) / det
    if s <= 0.0 or not 0.0 <= f <= 1.0:
        return None
    point = (x0 + f * lx, y0 + f * ly)
    return point if placement.contains(*point) else None


def bank_point(
    board: BoardSpec,
    side: Side,
    radius: float,
    sx: float,
    sy: float,
    gx: float,
    gy: float,
    steps: int = 100,
) -> tuple[float, float] | None:
    """Where a disk of ``radius`` (m) from (sx, sy) must meet the ``side`` rail to come off it
    through (gx, gy), with the rail's restitution (tangential speed kept, normal speed scaled);
    the point of the disk's centre at impact (m), or None when no such bank exists. With rail
    friction the point is bisected in at most ``steps`` halvings of the span between the two
    centres (30 halve a 60 cm span to below a micrometre)."""
    axis, sign = _RAIL_AXIS[side]
    limit = board.half_width - radius
    s = (sx, sy)
    g = (gx, gy)
    a = limit - sign * s[axis]  # distance of each centre from the rail's line of centres
    b = limit - sign * g[axis]
    if a <= 1e-6 or b <= 1e-6:
        return None
    e = board.restitution_rail
    other = 1 - axis
    if board.rail_friction == 0.0:
        frac = a / (a + b / e)
        t = s[other] + frac * (g[other] - s[other])
    else:
        # the tangential-over-normal ratio of the path after the rail, as a function of the one
        # before it, increases with it; bisect on the impact point between the two centres
        lo, hi = min(s[other], g[other]), max(s[other], g[other])
        for _ in range(steps):
            t = 0.5 * (lo + hi)
            if (g[other] - t) / b > rail_exit_ratio(board, (t - s[other]) / a):
                if lo == t:
                    break  # (lo, hi) stays as it is from here on
                lo = t
            else:
                if hi == t:
                    break
                hi = t
        t = 0.5 * (lo + hi)
    if abs(t) > limit:
        return None
    point = [0.0, 0.0]
    point[axis] = sign * limit
    point[other] = t
    return point[0], point[1]


def rail_exit_ratio(board: BoardSpec, ratio: float) -> float:
    """Tangential over normal speed of a disk without spin leaving a rail, from the same ratio
    (tangent of the angle from the rail's normal) before it (docs/physics.md "Rails")."""
    e = board.restitution_rail
    loss = min(board.rail_friction * (1.0 + e), abs(ratio) / 3.0)
    return (ratio - math.copysign(loss, ratio)) / e


def speed_after_rail(board: BoardSpec, side: Side, ux: float, uy: float) -> float:
    """Fraction of its speed a disk moving along unit (ux, uy) keeps at the ``side`` rail."""
    axis, _ = _RAIL_AXIS[side]
    normal = ux if axis == 0 else uy
    tangent = uy if axis == 0 else ux
    e = board.restitution_rail
    if board.rail_friction > 0.0:
        loss = min(board.rail_friction * (1.0 + e) * abs(normal), abs(tangent) / 3.0)
        tangent -= math.copysign(loss, tangent)
    return math.sqrt(tangent * tangent + e * e * normal * normal)


def transfer_ratio(board: BoardSpec, m_hit: float, m_target: float, cos_cut: float) -> float:
    """Speed a resting target of mass ``m_target`` (kg) gets per unit speed of the hitting disk
    (mass ``m_hit``) meeting it at a cut with cosine ``cos_cut`` (impulse along the centres)."""
    e = board.restitution_disk
    return (1.0 + e) * m_hit / (m_hit + m_target) * max(cos_cut, 0.0)


def launch_speed(board: BoardSpec, legs: Sequence[tuple[float, float]], arrival: float) -> float:
    """Initial speed (m/s) so that a disk arrives with ``arrival`` m/s at the end of ``legs``.

    ``legs`` run backwards from the end: each (distance m, factor) means the disk slid
    ``distance`` and then its speed was multiplied by ``factor`` at the leg's start (a rail's
    kept fraction, or 1.0). With a = mu*g: v_start^2 = v_end^2 + 2 a d on each leg.
    """
    a = board.deceleration
    v = arrival
    for distance, factor in legs:
        v = math.sqrt(v * v + 2.0 * a * distance)
        if factor <= 0.0:
            return math.inf
        v /= factor
    return v
