"""Where a seat may put its striker (R2a, R2b).

A seat's first shot (R2a) is from its tee spot, or from the free point nearest the tee spot's
centre when a piece covers it. Every later shot (R2b) is from anywhere the striker overlaps the
seat's area line, lies within the rails and on no other piece (of any layer).

Players, computer or human, place the striker along a *lane*: the area line itself, or, when
pieces cover every point of it, the parallel line within the striker's radius (in front of it or
behind it) with the most free room, so that the striker still overlaps the area line. When no
free place overlaps the area line at all the rules are silent; ``RuleOptions.covered_area_line``
chooses (docs/rules.md): the free point nearest the tee spot, as for a covered tee spot, or no
placement (:class:`NoPlacementError`; the turn passes).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

import numpy as np

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match.errors import IllegalShotError, NoPlacementError
from hikone_carrom.match.freepoint import Band, Circle, nearest_free_point
from hikone_carrom.physics import Disk
from hikone_carrom.rules.options import CoveredAreaLine

__all__ = ["Placement", "PlacementKind", "legal_placement", "surely_free"]

TEE_TOLERANCE = 1e-6
"""How far (m) a first-shot placement may be from the prescribed point and still count as on it."""

Segment = tuple[tuple[float, float], tuple[float, float]]
"""A segment on the board, ((x0, y0), (x1, y1)) in m."""

_INSIDE = 1e-9
"""How far (m) a lane off the area line keeps inside the striker's reach of it."""

_LANE_STEPS = 8
"""Offsets of lanes tried on each side of a covered area line, up to the striker's radius."""

_ROUNDING = 1e-9
"""Relative margin within which :func:`surely_free` leaves an obstacle's edge to
:meth:`Placement.contains` (far wider than the rounding of a squared distance)."""


class PlacementKind(StrEnum):
    """One prescribed point (a first shot, R2a; a wholly covered area line, R2b reading) or
    anywhere on the area line (R2b), placed along its lane."""

    POINT = "point"
    LINE = "line"


@dataclass(frozen=True)
class Placement:
    """The legal placements of one seat's striker now.

    Attributes:
        seat, side: the seat and its side of the board.
        kind: :attr:`PlacementKind.POINT` (one prescribed point) or :attr:`PlacementKind.LINE`
            (anywhere overlapping the area line, R2b).
        point: the prescribed centre (m) of a POINT placement: the tee spot on a first shot
            (R2a), the free point nearest it when a piece covers it, or when no free place
            overlaps the area line (``covered_area_line = "nearest_free"``, R2b). For a LINE
            placement, the tee spot.
        covered: True when a piece covers the tee spot.
        line: the seat's area line (m) as ((x0, y0), (x1, y1)).
        lane: the segment (m) the striker's centre is placed along: the area line, or when
            pieces cover every point of it, a parallel one within the striker's radius of it.
        radius: the striker's radius (m).
        obstacles: circles (x, y, clearance; m) the striker's centre may not enter: the pieces.
        board: the board.
        rule: the rule the placement follows, "R2a" or "R2b".
    """

    seat: int
    side: Side
    kind: PlacementKind
    point: tuple[float, float]
    covered: bool
    line: Segment
    lane: Segment
    radius: float
    obstacles: tuple[Circle, ...]
    board: BoardSpec
    rule: str

    def why_not(self, x: float, y: float) -> IllegalShotError | None:
        """Why the striker may not stand at (x, y) (m), or ``None`` if it may."""
        if self.kind is PlacementKind.POINT:
            if math.hypot(x - self.point[0], y - self.point[1]) <= TEE_TOLERANCE:
                return None
            px, py = self.point
            if self.rule == "R2b":
                return IllegalShotError(
                    f"No free place overlaps your area line: the striker goes at the free point "
                    f"nearest the tee spot, ({px:.4f}, {py:.4f}) m (R2b)",
                    f"エリアラインに重なる空いた場所がないため、ストライカーはティースポットに"
                    f"一番近い空いた場所（{px:.4f}, {py:.4f} m）に置きます（R2b）",
                    "R2b",
                )
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

    @cached_property
    def obstacle_array(self) -> np.ndarray:
        """The obstacles as a (K, 3) array of (x, y, clearance), m."""
        return np.array(self.obstacles, dtype=np.float64).reshape(-1, 3)

    def free_intervals(self) -> tuple[tuple[float, float], ...]:
        """Parts of the lane (as fractions 0..1 from its first end) where the striker's centre
        may stand; for a POINT placement, the empty tuple."""
        return self._free_intervals

    @cached_property
    def _free_intervals(self) -> tuple[tuple[float, float], ...]:
        """:meth:`free_intervals`, found once (the placement is immutable)."""
        if self.kind is PlacementKind.POINT:
            return ()
        return _free_stretches(self.lane, self.obstacles, self.board.half_width - self.radius)

    def nearest(self, x: float, y: float) -> tuple[float, float]:
        """The legal centre nearest (x, y) (m) along the lane: (x, y) itself if the striker may
        stand there, else the nearest free point of the lane; the prescribed point of a POINT
        placement.

        Raises:
            NoPlacementError: no point of the lane is free.
        """
        if self.kind is PlacementKind.POINT or self.contains(x, y):
            return self.point if self.kind is PlacementKind.POINT else (x, y)
        (x0, y0), (x1, y1) = self.lane
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
            raise NoPlacementError(
                "No free place for the striker overlaps your area line (R2b)",
                "エリアラインに重なる空いた場所がなく、ストライカーを置けません（R2b）",
                "R2b",
            )
        return (x0 + best[0] * dx, y0 + best[0] * dy)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON for a client: kind, point, ``line`` (the lane the striker's centre is placed
        along), ``area_line``, radius, the free intervals of the lane, obstacles and rule."""
        return {
            "seat": self.seat,
            "side": self.side.value,
            "kind": self.kind.value,
            "point": list(self.point),
            "covered": self.covered,
            "line": [list(self.lane[0]), list(self.lane[1])],
            "area_line": [list(self.line[0]), list(self.line[1])],
            "rule": self.rule,
            "radius": self.radius,
            "free": [list(iv) for iv in self.free_intervals()],
            "obstacles": [list(c) for c in self.obstacles],
        }


def surely_free(placements: Sequence[Placement], x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(M,) bool: may the striker of LINE placement k stand at (x[k], y[k]) (m)? True only where
    :meth:`Placement.contains` surely says yes (R2b), decided for many placements at once; False
    where it says no, for a POINT placement, and where the point lies within rounding of an
    obstacle's edge (ask :meth:`Placement.contains` there)."""
    out = np.zeros(len(placements), dtype=bool)
    groups: dict[tuple[int, Side, float], list[int]] = {}
    for k, p in enumerate(placements):
        if p.kind is PlacementKind.LINE:
            groups.setdefault((id(p.board), p.side, p.radius), []).append(k)
    for (_, side, radius), ks in groups.items():
        board = placements[ks[0]].board
        rows = np.array(ks)
        gx, gy = x[rows], y[rows]
        out[rows] = board.overlaps_area_line_array(side, gx, gy, radius) & (
            board.inside_surface_array(gx, gy, radius)
        )
    rows = np.flatnonzero(out)
    circles = [placements[k].obstacle_array for k in rows.tolist()]
    counts = [len(c) for c in circles]
    if sum(counts):
        at = np.repeat(rows, counts)
        cx, cy, clear = np.concatenate(circles).T
        dx, dy = x[at] - cx, y[at] - cy
        # clear of every obstacle: math.hypot(dx, dy) >= clearance beyond any rounding
        out[at[dx * dx + dy * dy <= clear * clear * (1.0 + _ROUNDING)]] = False
    return out


def legal_placement(
    board: BoardSpec,
    seat: int,
    players: int,
    first_shot: bool,
    layout: Sequence[Disk],
    covered_area_line: CoveredAreaLine = "nearest_free",
) -> Placement:
    """Where ``seat`` may put its striker now, given the pieces of ``layout`` (R2a, R2b).

    ``covered_area_line`` is the reading for an area line with no free place overlapping it
    (``RuleOptions.covered_area_line``).

    Raises:
        NoPlacementError: the striker has nowhere to go: no free point on the board (R2a), or
            none overlapping the area line under the reading "pass" (R2b).
    """
    side = board.seat_side(seat, players)
    radius = board.striker_radius
    half = board.half_width - radius
    obstacles = tuple((d.x, d.y, d.radius + radius) for d in layout)
    segment = board.area_line(side)
    line = ((segment.a.x, segment.a.y), (segment.b.x, segment.b.y))
    tee = board.tee_spot(side)
    point = (tee.x, tee.y)
    covered = any(math.hypot(tee.x - cx, tee.y - cy) < r for cx, cy, r in obstacles)

    def placed(kind: PlacementKind, at: tuple[float, float], lane: Segment, rule: str) -> Placement:
        return Placement(seat, side, kind, at, covered, line, lane, radius, obstacles, board, rule)

    if first_shot:
        if covered:
            point = _free_point(point, obstacles, half, "R2a")
        return placed(PlacementKind.POINT, point, line, "R2a")
    if _free_stretches(line, obstacles, half):
        return placed(PlacementKind.LINE, point, line, "R2b")
    lane = _side_lane(line, radius, obstacles, half)
    if lane is not None:
        return placed(PlacementKind.LINE, point, lane, "R2b")
    if covered_area_line == "pass":
        raise NoPlacementError(
            "No free place for the striker overlaps your area line: the turn passes (R2b)",
            "エリアラインに重なる空いた場所がないため、ストライカーを置けません。"
            "順番は次の人に移ります（R2b）",
            "R2b",
        )
    return placed(PlacementKind.POINT, _free_point(point, obstacles, half, "R2b"), line, "R2b")


def _free_point(
    target: tuple[float, float], obstacles: Sequence[Circle], half: float, rule: str
) -> tuple[float, float]:
    found = nearest_free_point(target, obstacles, half)
    if found is None:
        raise NoPlacementError(
            f"No free point is left on the board for the striker ({rule})",
            f"ストライカーを置ける空いた場所が盤上にありません（{rule}）",
            rule,
        )
    return found


def _free_stretches(
    lane: Segment, obstacles: Sequence[Circle], half: float
) -> tuple[tuple[float, float], ...]:
    """Parts of ``lane`` (fractions 0..1 from its first end) where a centre is outside every
    obstacle and within ``|x|, |y| <= half`` (m)."""
    (x0, y0), (x1, y1) = lane
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    blocked: list[tuple[float, float]] = []
    for cx, cy, r in obstacles:
        along = (cx - x0) * ux + (cy - y0) * uy
        off = -(cx - x0) * uy + (cy - y0) * ux
        if abs(off) >= r:
            continue
        h = math.sqrt(r * r - off * off)
        blocked.append(((along - h) / length, (along + h) / length))
    for start, step in ((x0, x1 - x0), (y0, y1 - y0)):
        # the surface: |start + t * step| <= half
        if step == 0.0:
            if abs(start) > half:
                return ()
            continue
        ends = sorted(((-half - start) / step, (half - start) / step))
        blocked += [(-math.inf, ends[0]), (ends[1], math.inf)]
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


def _side_lane(
    line: Segment, radius: float, obstacles: Sequence[Circle], half: float
) -> Segment | None:
    """The lane for an area line with no free point: among the parallels within ``radius`` (m)
    of it (their parts within that reach, so the striker overlaps the line), the one with the
    most free length; ``None`` when no free place overlaps the line at all."""
    (x0, y0), (x1, y1) = line
    band = Band(line[0], line[1], radius)
    mid = (0.5 * (x0 + x1), 0.5 * (y0 + y1))
    found = nearest_free_point(mid, obstacles, half, band)
    if found is None:
        return None
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    nx, ny = -uy, ux  # a unit normal of the line
    if nx * mid[0] + ny * mid[1] < 0.0:
        nx, ny = uy, -ux  # pointing away from the jack spot: behind the line, towards the rail
    reach = radius - _INSIDE
    exact = (found[0] - x0) * nx + (found[1] - y0) * ny
    depths = [reach * k / _LANE_STEPS for k in range(-_LANE_STEPS, _LANE_STEPS + 1)]
    best: tuple[float, float, float] | None = None
    lane: Segment | None = None
    for depth in sorted({*depths, max(-reach, min(reach, exact))}):
        extra = math.sqrt(max(reach * reach - depth * depth, 0.0))
        ox, oy = nx * depth, ny * depth
        candidate = (
            (x0 + ox - ux * extra, y0 + oy - uy * extra),
            (x1 + ox + ux * extra, y1 + oy + uy * extra),
        )
        room = sum(b - a for a, b in _free_stretches(candidate, obstacles, half)) * (
            length + 2.0 * extra
        )
        key = (-room, abs(depth), -depth)  # most room, then nearest the line, then behind it
        if room > 0.0 and (best is None or key < best):
            best, lane = key, candidate
    return lane
