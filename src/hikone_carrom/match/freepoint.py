"""Nearest free point for a disk among circular obstacles inside a rectangle (R2a covered tee spot).

Pure geometry: the striker's centre may not enter any obstacle circle (centre, clearance radius =
sum of the two radii) and must stay within the playing surface. The nearest free point to a target
is the target itself, or lies on an obstacle's boundary, at the meeting of two boundaries, or where
a boundary meets the surface's edge; every such candidate is tried and the closest wins, ties broken
by coordinates so the answer is deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

__all__ = ["Circle", "nearest_free_point"]

Circle = tuple[float, float, float]
"""An obstacle: centre x, y (m) and the clearance radius (m) the centre may not come within."""

_PUSH = 1e-9  # m: candidates sit this far outside a boundary so that they are strictly free


def _on_circle(px: float, py: float, c: Circle) -> list[tuple[float, float]]:
    cx, cy, r = c
    dx, dy = px - cx, py - cy
    d = math.hypot(dx, dy)
    if d == 0.0:
        # The target is the obstacle's centre: any direction is as near; try the four axes.
        return [(cx + s * (r + _PUSH), cy) for s in (1.0, -1.0)] + [
            (cx, cy + s * (r + _PUSH)) for s in (1.0, -1.0)
        ]
    k = (r + _PUSH) / d
    return [(cx + dx * k, cy + dy * k)]


def _meet(a: Circle, b: Circle) -> list[tuple[float, float]]:
    ax, ay, ar = a[0], a[1], a[2] + _PUSH
    bx, by, br = b[0], b[1], b[2] + _PUSH
    dx, dy = bx - ax, by - ay
    d = math.hypot(dx, dy)
    if d == 0.0 or d > ar + br or d < abs(ar - br):
        return []
    along = (ar * ar - br * br + d * d) / (2.0 * d)
    h = math.sqrt(max(ar * ar - along * along, 0.0))
    mx, my = ax + dx * along / d, ay + dy * along / d
    return [(mx - dy * h / d, my + dx * h / d), (mx + dy * h / d, my - dx * h / d)]


def _edge_meets(c: Circle, half: float) -> list[tuple[float, float]]:
    cx, cy, r = c[0], c[1], c[2] + _PUSH
    out: list[tuple[float, float]] = []
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
    target: tuple[float, float], obstacles: Sequence[Circle], half: float
) -> tuple[float, float] | None:
    """The free point nearest ``target`` (m), or ``None`` if the surface has none.

    Args:
        target: the wanted point (m).
        obstacles: circles the point may not enter (strictly inside is forbidden).
        half: the point must satisfy ``|x| <= half`` and ``|y| <= half`` (m).
    """

    def free(p: tuple[float, float]) -> bool:
        x, y = p
        if abs(x) > half or abs(y) > half:
            return False
        return all(math.hypot(x - cx, y - cy) >= r for cx, cy, r in obstacles)

    tx, ty = target
    clamped = (min(max(tx, -half), half), min(max(ty, -half), half))
    candidates: list[tuple[float, float]] = [clamped]
    near: Iterable[Circle] = obstacles
    for c in near:
        candidates += _on_circle(tx, ty, c)
        candidates += _edge_meets(c, half)
    for i, a in enumerate(obstacles):
        for b in obstacles[i + 1 :]:
            candidates += _meet(a, b)
    best: tuple[float, float, float] | None = None
    for p in candidates:
        if not free(p):
            continue
        key = (math.hypot(p[0] - tx, p[1] - ty), p[0], p[1])
        if best is None or key < best:
            best = key
    return None if best is None else (best[1], best[2])
