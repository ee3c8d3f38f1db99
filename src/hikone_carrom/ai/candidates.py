"""Candidate shots generated geometrically for the search (:mod:`hikone_carrom.ai.search`).

Kinds: ``direct`` (straight or cut onto a target towards a pocket), ``bank`` (the striker off one
of the four rails onto the target), ``combination`` (the striker onto a carrier disk that sends the
target to the pocket), ``jack`` (a direct or banked shot at the jack once every own puck is down,
R6b), ``break`` (a firm shot into the densest group), ``safety`` (a fan of soft and medium shots
judged by the position they leave). Targets follow the rules: own pucks, the jack only after them
(R5b), pieces lying in a stack are never aimed at, and in doubles an unshootable piece (R4a) is
reached only by a bank off a rail other than the shooter's own (R4b). A ``sweep`` candidate is not
aimed: it is found by simulating every direction (:mod:`hikone_carrom.ai.sweep`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

import numpy as np

from hikone_carrom.ai.geometry import (
    bank_point,
    corridor_clear,
    ghost_point,
    launch_speed,
    line_point_on_ray,
    line_points,
    pocket_aims,
    speed_after_rail,
    transfer_ratio,
)
from hikone_carrom.ai.view import TableView
from hikone_carrom.board import Side
from hikone_carrom.match.pieces import JACK_ID

__all__ = ["Candidate", "CandidateBudget", "PotPath", "ShotKind", "generate"]

_OVERSPEED = 1.25
"""A plan needing up to this multiple of the fastest flick is kept at the fastest flick."""


class PotPath(NamedTuple):
    """A way for a target to reach pocket ``pocket``: the hitting disk's contact point (gx, gy)
    (m), the target's start direction (wx, wy), its legs for :func:`launch_speed` (last first),
    whether it banks off a rail, and its path length (m)."""

    pocket: int
    gx: float
    gy: float
    wx: float
    wy: float
    legs: tuple[tuple[float, float], ...]
    banked: bool
    length: float


class ShotKind(StrEnum):
    """What a candidate shot tries to do."""

    DIRECT = "direct"
    BANK = "bank"
    COMBINATION = "combination"
    JACK = "jack"
    BREAK = "break"
    SAFETY = "safety"
    SWEEP = "sweep"


@dataclass(frozen=True)
class Candidate:
    """A shot to try: striker centre (m), angle (rad), speed (m/s), and what it aims at."""

    x: float
    y: float
    angle: float
    speed: float
    kind: ShotKind
    target: str | None = None
    pocket: int | None = None
    carrier: str | None = None

    def info(self) -> dict[str, object]:
        """Plain JSON description (for a hint or a record)."""
        return {
            "kind": self.kind.value,
            "target": self.target,
            "pocket": self.pocket,
            "carrier": self.carrier,
        }


@dataclass(frozen=True)
class CandidateBudget:
    """How many candidates to generate.

    Attributes:
        placements: points tried along the free area line per aim (plus the straight-line one).
        per_aim: placements kept per (target, pocket), the smallest cuts first.
        arrivals: speeds (m/s) with which the target should reach its pocket aim point.
        max_cut: largest cut angle (rad) between the striker's path and the target's.
        banks: try banks: the striker off each rail, and the target off each rail into its
            pocket. combinations: try carrier shots.
        breaks: add firm shots into groups. safety: number of fan directions (0 = none).
        break_groups: densest groups aimed into. break_placements: placements per group.
        break_speeds: striker speeds of break shots (m/s). break_spread: angle offsets (rad)
            around the line to a group's puck.
        bank_steps: halvings a bank's rail point is bisected in at most
            (:func:`~hikone_carrom.ai.geometry.bank_point`).
    """

    placements: int = 5
    per_aim: int = 1
    arrivals: tuple[float, ...] = (0.6,)
    max_cut: float = math.radians(70.0)
    banks: bool = False
    combinations: bool = False
    breaks: bool = False
    safety: int = 0
    break_groups: int = 3
    break_placements: int = 3
    break_speeds: tuple[float, ...] = (2.5, 4.0)
    break_spread: tuple[float, ...] = (0.0,)
    bank_steps: int = 100


def _unit(dx: float, dy: float) -> tuple[float, float, float]:
    n = math.hypot(dx, dy)
    return (dx / n, dy / n, n) if n > 0.0 else (0.0, 0.0, 0.0)


class Aimer:
    def __init__(self, view: TableView, budget: CandidateBudget) -> None:
        self.v = view
        self.b = budget
        self.board = view.board
        self.rs = view.board.striker_radius
        self.ms = view.board.striker_mass
        self.mass = np.array([d.mass for d in view.disks])
        self.pockets = pocket_aims(view.board)
        self.points = line_points(view.placement, budget.placements)
        self.cos_max = math.cos(budget.max_cut)
        self.out: list[Candidate] = []
        self.max_speed = view.board.max_speed

    def others(self, *skip: int) -> np.ndarray:
        mask = self.v.ground.copy()
        for k in skip:
            mask[k] = False
        return mask

    def clear(self, ax: float, ay: float, bx: float, by: float, r: float, *skip: int) -> bool:
        v = self.v
        return corridor_clear(ax, ay, bx, by, r, v.x, v.y, v.r, self.others(*skip))

    def add(
        self,
        x: float,
        y: float,
        dx: float,
        dy: float,
        speed: float,
        kind: ShotKind,
        target: str | None = None,
        pocket: int | None = None,
        carrier: str | None = None,
    ) -> None:
        if not math.isfinite(speed) or speed > self.max_speed * _OVERSPEED:
            return
        speed = min(max(speed, 0.05), self.max_speed)
        self.out.append(Candidate(x, y, math.atan2(dy, dx), speed, kind, target, pocket, carrier))

    def starts(self, gx: float, gy: float, wx: float, wy: float) -> list[tuple[float, float]]:
        """Placements to reach (gx, gy) moving along about (wx, wy): the straight one first."""
        pts: list[tuple[float, float]] = []
        straight = line_point_on_ray(self.v.placement, gx, gy, wx, wy)
        if straight is not None:
            pts.append(straight)
        pts.extend(self.points)
        return pts

    def pot_paths(self, t: int, rails: bool = False) -> list[PotPath]:
        """The ways the target can reach a pocket along clear paths: straight, and with
        ``rails`` also off one rail (the target's own bank)."""
        v = self.v
        px, py, rt = float(v.x[t]), float(v.y[t]), float(v.r[t])
        paths = []
        for k, (tx, ty) in enumerate(self.pockets):
            wx, wy, d = _unit(tx - px, ty - py)
            if d > 0.0 and self.clear(px, py, tx, ty, rt, t):
                gx, gy = ghost_point(px, py, tx, ty, self.rs + rt)
                paths.append(PotPath(k, gx, gy, wx, wy, ((d, 1.0),), False, d))
            if not rails:
                continue
            for side in Side:
                bp = bank_point(self.board, side, rt, px, py, tx, ty, self.b.bank_steps)
                if bp is None:
                    continue
                bx, by = bp
                wx, wy, d1 = _unit(bx - px, by - py)
                _, _, d2 = _unit(tx - bx, ty - by)
                if d1 == 0.0 or d2 == 0.0:
                    continue
                if not (self.clear(px, py, bx, by, rt, t) and self.clear(bx, by, tx, ty, rt, t)):
                    continue
                keep = speed_after_rail(self.board, side, wx, wy)
                gx, gy = ghost_point(px, py, bx, by, self.rs + rt)
                paths.append(PotPath(k, gx, gy, wx, wy, ((d2, keep), (d1, 1.0)), True, d1 + d2))
        return paths

    def direct(self, t: int, kind: ShotKind) -> None:
        v = self.v
        if v.unshootable[t]:
            return  # R4a: only banks off another rail may reach it (R4b)
        tid = v.ids[t]
        for path in self.pot_paths(t, rails=self.b.banks):
            gx, gy, wx, wy = path.gx, path.gy, path.wx, path.wy
            options = []
            for sx, sy in self.starts(gx, gy, wx, wy):
                ux, uy, d_sg = _unit(gx - sx, gy - sy)
                cos_cut = ux * wx + uy * wy
                if d_sg == 0.0 or cos_cut < self.cos_max:
                    continue
                if not self.clear(sx, sy, gx, gy, self.rs, t):
                    continue
                options.append((-cos_cut, sx, sy, ux, uy, d_sg))
            options.sort()
            shot_kind = ShotKind.BANK if path.banked and kind is ShotKind.DIRECT else kind
            for _, sx, sy, ux, uy, d_sg in options[: self.b.per_aim]:
                cos_cut = ux * wx + uy * wy
                ratio = transfer_ratio(self.board, self.ms, float(self.mass[t]), cos_cut)
                for arrival in self.b.arrivals:
                    v_target = launch_speed(self.board, path.legs, arrival)
                    speed = launch_speed(self.board, [(d_sg, ratio)], v_target) if ratio else 0.0
                    self.add(sx, sy, ux, uy, speed, shot_kind, tid, path.pocket)

    def bank(self, t: int, kind: ShotKind) -> None:
        v = self.v
        tid = v.ids[t]
        sides = [s for s in Side if not (v.unshootable[t] and s == v.side)]
        for k, gx, gy, wx, wy, legs, _, _ in self.pot_paths(t):
            best: tuple[float, float, float, float, float, float, float, float, Side] | None = None
            for side in sides:
                for sx, sy in self.points:
                    bp = bank_point(self.board, side, self.rs, sx, sy, gx, gy, self.b.bank_steps)
                    if bp is None:
                        continue
                    bx, by = bp
                    ux2, uy2, d_bg = _unit(gx - bx, gy - by)
                    cos_cut = ux2 * wx + uy2 * wy
                    if cos_cut < self.cos_max or d_bg == 0.0:
                        continue
                    ux1, uy1, d_sb = _unit(bx - sx, by - sy)
                    if d_sb == 0.0:
                        continue
                    if not (
                        self.clear(sx, sy, bx, by, self.rs)
                        and self.clear(bx, by, gx, gy, self.rs, t)
                    ):
                        continue
                    if best is None or cos_cut > best[0]:
                        best = (cos_cut, sx, sy, ux1, uy1, d_sb, d_bg, 0.0, side)
            if best is None:
                continue
            cos_cut, sx, sy, ux1, uy1, d_sb, d_bg, _, side = best
            keep = speed_after_rail(self.board, side, ux1, uy1)
            ratio = transfer_ratio(self.board, self.ms, float(self.mass[t]), cos_cut)
            for arrival in self.b.arrivals:
                v_target = launch_speed(self.board, legs, arrival)
                speed = launch_speed(self.board, [(d_bg, ratio), (d_sb, keep)], v_target)
                self.add(
                    sx,
                    sy,
                    ux1,
                    uy1,
                    speed,
                    ShotKind.BANK if kind is ShotKind.DIRECT else kind,
                    tid,
                    k,
                )

    def combination(self, t: int) -> None:
        v = self.v
        tid = v.ids[t]
        cos_lim = math.cos(math.radians(60.0))
        for k, _, _, wbx, wby, legs_b, _, _ in self.pot_paths(t):
            found = []
            for a_raw in np.flatnonzero(v.ground):
                a = int(a_raw)
                if a == t or v.unshootable[a] or v.ids[a] == JACK_ID:
                    continue
                ax, ay, ra = float(v.x[a]), float(v.y[a]), float(v.r[a])
                # The carrier must hit the target at its ghost point for this pocket.
                gx, gy = ghost_point(
                    float(v.x[t]),
                    float(v.y[t]),
                    self.pockets[k][0],
                    self.pockets[k][1],
                    ra + float(v.r[t]),
                )
                wax, way, d_ag = _unit(gx - ax, gy - ay)
                if d_ag == 0.0 or d_ag > 0.30 or wax * wbx + way * wby < cos_lim:
                    continue
                if not self.clear(ax, ay, gx, gy, ra, a, t):
                    continue
                cgx, cgy = ghost_point(ax, ay, gx, gy, self.rs + ra)
                for sx, sy in self.starts(cgx, cgy, wax, way)[:3]:
                    ux, uy, d_sg = _unit(cgx - sx, cgy - sy)
                    if d_sg == 0.0 or ux * wax + uy * way < cos_lim:
                        continue
                    if not self.clear(sx, sy, cgx, cgy, self.rs, a):
                        continue
                    found.append((a, sx, sy, ux, uy, d_sg, wax, way, d_ag))
                    break
            for a, sx, sy, ux, uy, d_sg, wax, way, d_ag in found[:2]:
                r_at = transfer_ratio(
                    self.board, float(self.mass[a]), float(self.mass[t]), wax * wbx + way * wby
                )
                r_sa = transfer_ratio(self.board, self.ms, float(self.mass[a]), ux * wax + uy * way)
                arrival = self.b.arrivals[-1]
                speed = launch_speed(self.board, [*legs_b, (d_ag, r_at), (d_sg, r_sa)], arrival)
                self.add(sx, sy, ux, uy, speed, ShotKind.COMBINATION, tid, k, v.ids[a])

    def breaks(self) -> None:
        v = self.v
        idx = np.flatnonzero(v.ground & ~v.unshootable)
        if idx.size == 0:
            return
        dx = v.x[idx][:, None] - v.x[idx][None, :]
        dy = v.y[idx][:, None] - v.y[idx][None, :]
        crowd = (dx * dx + dy * dy < 0.06 * 0.06).sum(axis=1)
        order = sorted(range(idx.size), key=lambda n: (-int(crowd[n]), v.ids[int(idx[n])]))
        b = self.b
        step = max(1, len(self.points) // max(1, b.break_placements))
        for n in order[: b.break_groups]:
            t = int(idx[n])
            # Into the group: whatever the striker meets first sets it moving.
            for sx, sy in self.points[::step]:
                ux, uy, d = _unit(float(v.x[t]) - sx, float(v.y[t]) - sy)
                if d == 0.0:
                    continue
                for turn in b.break_spread:
                    c, s = math.cos(turn), math.sin(turn)
                    for speed in b.break_speeds:
                        self.add(
                            sx,
                            sy,
                            c * ux - s * uy,
                            s * ux + c * uy,
                            speed,
                            ShotKind.BREAK,
                            v.ids[t],
                        )

    def safety(self) -> None:
        n = self.b.safety
        for sx, sy in self.points[:: max(1, len(self.points) // 3)]:
            # Fan over the half plane facing the board's centre.
            base = math.atan2(-sy, -sx)
            for j in range(n):
                ang = base + (j + 0.5) / n * math.pi - math.pi / 2
                for speed in (1.2, 2.4):
                    self.add(sx, sy, math.cos(ang), math.sin(ang), speed, ShotKind.SAFETY)

    def run(self) -> list[Candidate]:
        targets = self.v.targets()
        jack = self.v.jack_allowed
        kind = ShotKind.JACK if jack else ShotKind.DIRECT
        if not self.points:
            return []  # the area line is covered: no legal placement (R2b)
        for t in targets:
            self.direct(t, kind)
            if self.b.banks:
                self.bank(t, kind)
            if self.b.combinations and not jack:
                self.combination(t)
        if self.b.breaks:
            self.breaks()
        if self.b.safety:
            self.safety()
        return self.out


def generate(view: TableView, budget: CandidateBudget) -> list[Candidate]:
    """Candidate shots for the seat of ``view`` within ``budget``, in a fixed order."""
    return Aimer(view, budget).run()
