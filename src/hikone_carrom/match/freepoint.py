"""Nearest free point for a disk among circular obstacles inside a rectangle, optionally near a
segment (R2a covered tee spot, R2b covered area line).

Pure geometry: the striker's centre may not enter any obstacle circle (centre, clearance radius =
sum of the two radii), must stay within the playing surface and, when a :class:`Band` is given,
within a distance of a segment (the striker overlapping the area line). The nearest free point to
a target is the target itself, or lies on one constraint's boundary (the nearest point of that
boundary) or where two boundaries meet; every such candidate is tried and the closest wins, ties
broken by coordinates so the answer is deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Band", "Circle", "nearest_free_point"]

Circle = tuple[float, float, float]
"""An obstacle: centre x, y (m) and the clearance radius (m) the centre may not come within."""

Point = tuple[float, float]

_PUSH = 1e-9  # m: candidates sit this far inside every boundary so that they are strictly free


@dataclass(frozen=True)
class Band:
    """The points within ``reach`` (m) of the segment from ``a`` to ``b`` (m): a stadium."""

    a: Point
    b: Point
    reach: float

    def distance(self, p: Point) -> float:
        """Distance (m) from ``p`` to the segment."""
        (ax, ay), (bx, by) = self.a, self.b
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0.0 else ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2
        t = min(1.0, max(0.0, t))
        return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)

    def candidates(self, target: Point, obstacles: Sequence[Circle], half: float) -> list[Point]:
        """Points just inside the band's boundary where the nearest free point may lie: the
        target's nearest point on it, and where it meets the obstacles and the surface's edge."""
        (ax, ay), (bx, by) = self.a, self.b
        reach = self.reach - _PUSH
        length = math.hypot(bx - ax, by - ay)
        ux, uy = ((bx - ax) / length, (by - ay) / length) if length > 0.0 else (1.0, 0.0)
        out: list[Point] = []
        ends: tuple[Circle, Circle] = ((ax, ay, reach), (bx, by, reach))
        for end in ends:
            out += _toward(target, end)
            out += _edge_meets(end, half)
            for c in obstacles:
                out += _meet(end, _pushed(c))
        for sign in (1.0, -1.0):
            # a side of the band: the line through a + sign*reach*n along u (n = u turned left)
            px, py = ax - sign * reach * uy, ay + sign * reach * ux
            along = (target[0] - px) * ux + (target[1] - py) * uy
            out.append((px + along * ux, py + along * uy))
            for c in obstacles:
                out += _line_meets_circle(px, py, ux, uy, _pushed(c))
            for edge in (-half, half):
                for axis in (0, 1):
                    d = ux if axis == 0 else uy
                    if abs(d) > 1e-15:
                        s = (edge - (px if axis == 0 else py)) / d
                        out.append((px + s * ux, py + s * uy))
        return out


def _toward(p: Point, c: Circle) -> list[Point]:
    """The points of circle ``c`` nearest ``p`` (four when ``p`` is its centre)."""
    cx, cy, r = c
    dx, dy = p[0] - cx, p[1] - cy
    d = math.hypot(dx, dy)
    if d == 0.0:
        return [(cx + r, cy), (cx - r, cy), (cx, cy + r), (cx, cy - r)]
    k = r / d
    return [(cx + dx * k, cy + dy * k)]


def _on_circle(p: Point, c: Circle) -> list[Point]:
    """The points just outside obstacle ``c`` nearest ``p``."""
    return _toward(p, (c[0], c[1], c[2] + _PUSH))


def _meet(a: Circle, b: Circle) -> list[Point]:
    """Where the circles ``a`` and ``b`` cross (none, or two points)."""
    ax, ay, ar = a
    bx, by, br = b
    dx, dy = bx - ax, by - ay
    d = math.hypot(dx, dy)
    if d == 0.0 or d > ar + br or d < abs(ar - br):
        return []
    along = (ar * ar - br * br + d * d) / (2.0 * d)
    h = math.sqrt(max(ar * ar - along * along, 0.0))
    mx, my = ax + dx * along / d, ay + dy * along / d
    return [(mx - dy * h / d, my + dx * h / d), (mx + dy * h / d, my - dx * h / d)]


def _pushed(c: Circle) -> Circle:
    return (c[0], c[1], c[2] + _PUSH)


def _line_meets_circle(px: float, py: float, ux: float, uy: float, c: Circle) -> list[Point]:
    """Where the line through (px, py) along the unit (ux, uy) crosses circle ``c``."""
    cx, cy, r = c
    along = (cx - px) * ux + (cy - py) * uy
    off = -(cx - px) * uy + (cy - py) * ux
    if abs(off) > r:
        return []
    h = math.sqrt(r * r - off * off)
    return [
        (px + (along - h) * ux, py + (along - h) * uy),
        (px + (along + h) * ux, py + (along + h) * uy),
    ]


def _edge_meets(c: Circle, half: float) -> list[Point]:
    """Where circle ``c`` crosses the lines |x| = half and |y| = half."""
    cx, cy, r = c
    out: list[Point] = []
    for edge in (-half, half):
        for vertical in (True, False):
            off = (edge - cx) if vertical else (edge - cy)
            if abs(off) > r:
                continue
            h = math.sqrt(r * r - off * off)
            if vertical:
                out += [(edge, cy - h), (edge, cy + h)]
            else:
                out += [(cx - h, edge), (cx + h, edge)]
    return out


def nearest_free_point(
    target: Point, obstacles: Sequence[Circle], half: float, band: Band | None = None
) -> Point | None:
    """The free point nearest ``target`` (m), or ``None`` if there is none.

    Args:
        target: the wanted point (m).
        obstacles: circles the point may not enter (strictly inside is forbidden).
        half: the point must satisfy ``|x| <= half`` and ``|y| <= half`` (m).
        band: if given, the point must also lie within the band (m).
    """

    def free(p: Point) -> bool:
        x, y = p
        if abs(x) > half or abs(y) > half:
            return False
        if band is not None and band.distance(p) > band.reach:
            return False
        return all(math.hypot(x - cx, y - cy) >= r for cx, cy, r in obstacles)

    tx, ty = target
    candidates: list[Point] = [(min(max(tx, -half), half), min(max(ty, -half), half))]
    for c in obstacles:
        candidates += _on_circle(target, c)
        candidates += _edge_meets(_pushed(c), half)
    for i, a in enumerate(obstacles):
        for b in obstacles[i + 1 :]:
            candidates += _meet(_pushed(a), _pushed(b))
    if band is not None:
        candidates += band.candidates(target, obstacles, half)
    best: tuple[float, float, float] | None = None
    for p in candidates:
        if not free(p):
            continue
        key = (math.hypot(p[0] - tx, p[1] - ty), p[0], p[1])
        if best is None or key < best:
            best = key
    return None if best is None else (best[1], best[2])
