"""Where a seat may put its striker (R2a, R2b).

A seat's first shot (R2a) is from its tee spot, or from the free point nearest the tee spot's
centre when a piece covers it. Every later shot (R2b) is from anywhere the striker overlaps the
seat's area line, lies within the rails and on no other piece (of any layer).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match.freepoint import Circle, nearest_free_point
from hikone_carrom.match.shot import IllegalShotError
from hikone_carrom.physics import Disk

__all__ = ["Placement", "PlacementKind", "legal_placement"]

TEE_TOLERANCE = 1e-6
"""How far (m) a first-shot placement may be from the prescribed point and still count as on it."""


class PlacementKind(StrEnum):
    """A fixed point (first shot, R2a) or the area line (R2b)."""

    POINT = "point"
    LINE = "line"


@dataclass(frozen=True)
class Placement:
    """The legal placements of one seat's striker now.

    Attributes:
        seat, side: the seat and its side of the board.
        kind: :attr:`PlacementKind.POINT` (R2a) or :attr:`PlacementKind.LINE` (R2b).
        point: the prescribed centre for a first shot (m); the tee spot unless it is covered.
        covered: True when a piece covered the tee spot and ``point`` is the nearest free point.
        line: the seat's area line (m) as ((x0, y0), (x1, y1)).
        radius: the striker's radius (m).
        obstacles: circles (x, y, clearance; m) the striker's centre may not enter: the pieces.
    """

    seat: int
    side: Side
    kind: PlacementKind
    point: tuple[float, float]
    covered: bool
    line: tuple[tuple[float, float], tuple[float, float]]
    radius: float
    obstacles: tuple[Circle, ...]
    board: BoardSpec

    def why_not(self, x: float, y: float) -> IllegalShotError | None:
        """Why the striker may not stand at (x, y) (m), or ``None`` if it may."""
        if self.kind is PlacementKind.POINT:
            if math.hypot(x - self.point[0], y - self.point[1]) > TEE_TOLERANCE:
                px, py = self.point
                if self.covered:
                    return IllegalShotError(
                        f"A first shot is from the free point nearest the covered tee spot, "
                        f"({px:.4f}, {py:.4f}) m (R2a)",
                        f"最初のショットは、ふさがれたティースポットに一番近い空いた場所"
                        f"（{px:.4f}, {py:.4f} m）から打ちます（R2a）",
                        "R2a",
                    )
                return IllegalShotError(
                    f"A first shot is from the tee spot, ({px:.4f}, {py:.4f}) m (R2a)",
                    f"最初のショットはティースポット（{px:.4f}, {py:.4f} m）から打ちます（R2a）",
                    "R2a",
                )
            return None
        if not self.board.overlaps_area_line(self.side, x, y, self.radius):
            return IllegalShotError(
                "The striker must be placed on your own area line (R2b)",
                "ストライカーは自分のエリアラインの上に置きます（R2b）",
                "R2b",
            )
        if not self.board.inside_surface(x, y, self.radius):
            return IllegalShotError(
                "The striker must lie within the rails (R2b)",
                "ストライカーは壁の内側に置きます（R2b）",
                "R2b",
            )
        if self._blocked(x, y):
            return IllegalShotError(
                "The striker may not lie on another piece (R2b)",
                "ストライカーは他のパックやジャックに重ねて置けません（R2b）",
                "R2b",
            )
        return None

    def contains(self, x: float, y: float) -> bool:
        """May the striker stand at (x, y) (m)?"""
        return self.why_not(x, y) is None

    def _blocked(self, x: float, y: float) -> bool:
        return any(math.hypot(x - cx, y - cy) < r for cx, cy, r in self.obstacles)

    def free_intervals(self) -> tuple[tuple[float, float], ...]:
        """Parts of the area line (as fractions 0..1 from its first end) where the striker's centre
        may stand; for a first shot, the empty tuple."""
        if self.kind is PlacementKind.POINT:
            return ()
        (x0, y0), (x1, y1) = self.line
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        blocked: list[tuple[float, float]] = []
        for cx, cy, r in self.obstacles:
            along = (cx - x0) * ux + (cy - y0) * uy
            off = -(cx - x0) * uy + (cy - y0) * ux
            if abs(off) >= r:
                continue
            h = math.sqrt(r * r - off * off)
            blocked.append(((along - h) / length, (along + h) / length))
        blocked.sort()
        free: list[tuple[float, float]] = []
        start = 0.0
        for lo, hi in blocked:
            if lo > start:
                free.append((start, min(lo, 1.0)))
            start = max(start, hi)
            if start >= 1.0:
                break
        if start < 1.0:
            free.append((start, 1.0))
        return tuple((a, b) for a, b in free if b > a)

    def nearest(self, x: float, y: float) -> tuple[float, float]:
        """The legal centre nearest (x, y) (m): the prescribed point, or a point of the area line.

        Raises:
            IllegalShotError: no point of the area line is free (every part is covered).
        """
        if self.kind is PlacementKind.POINT or self.contains(x, y):
            return self.point if self.kind is PlacementKind.POINT else (x, y)
        (x0, y0), (x1, y1) = self.line
        dx, dy = x1 - x0, y1 - y0
        length2 = dx * dx + dy * dy
        t = min(1.0, max(0.0, ((x - x0) * dx + (y - y0) * dy) / length2))
        best: tuple[float, float] | None = None
        for lo, hi in self.free_intervals():
            # Step a hair inside a free interval so that its end is strictly clear of the obstacle.
            eps = min(1e-9, 0.5 * (hi - lo))
            f = min(max(t, lo + eps), hi - eps)
            if best is None or abs(f - t) < abs(best[0] - t):
                best = (f, 0.0)
        if best is None:
            raise IllegalShotError(
                "Every part of your area line is covered: no place for the striker (R2b)",
                "エリアラインがすべてふさがっていて、ストライカーを置く場所がありません（R2b）",
                "R2b",
            )
        return (x0 + best[0] * dx, y0 + best[0] * dy)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON for a client: kind, point, line, radius, free intervals of the line."""
        return {
            "seat": self.seat,
            "side": self.side.value,
            "kind": self.kind.value,
            "point": list(self.point),
            "covered": self.covered,
            "line": [list(self.line[0]), list(self.line[1])],
            "radius": self.radius,
            "free": [list(iv) for iv in self.free_intervals()],
            "obstacles": [list(c) for c in self.obstacles],
        }


def legal_placement(
    board: BoardSpec, seat: int, players: int, first_shot: bool, layout: Sequence[Disk]
) -> Placement:
    """Where ``seat`` may put its striker now, given the pieces of ``layout`` (R2a, R2b)."""
    side = board.seat_side(seat, players)
    radius = board.striker_radius
    obstacles = tuple((d.x, d.y, d.radius + radius) for d in layout)
    segment = board.area_line(side)
    line = ((segment.a.x, segment.a.y), (segment.b.x, segment.b.y))
    tee = board.tee_spot(side)
    point = (tee.x, tee.y)
    covered = any(math.hypot(tee.x - cx, tee.y - cy) < r for cx, cy, r in obstacles)
    if first_shot and covered:
        found = nearest_free_point(point, obstacles, board.half_width - radius)
        if found is None:
            raise IllegalShotError(
                "No free point is left on the board for the striker (R2a)",
                "ストライカーを置ける空いた場所が盤上にありません（R2a）",
                "R2a",
            )
        point = found
    kind = PlacementKind.POINT if first_shot else PlacementKind.LINE
    return Placement(seat, side, kind, point, covered, line, radius, obstacles, board)
