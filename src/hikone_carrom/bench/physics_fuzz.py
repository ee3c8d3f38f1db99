"""``hikone-carrom bench physics --fuzz N``: the engine's laws checked over fuzzed pile shots and
the stored real match positions.

Each shot is checked event by event from its own log (:func:`check`): no disk jumps (a disk's new
track segment starts where its old one put it, within 1e-9 m), no shot loops (runs into the
engine's event guard), and no invariant is broken (no overlap within a layer beyond 1e-9 m, every
centre within the rails, kinetic energy never rises but by the fall a ``tipped`` disk starts,
every upper disk at the end lies on a disk of the layer below).

Pile shots (seeded, numpy PCG64): one pile on the jack spot (0-8 pucks within 14 mm of it, each
on the layer :func:`resting_layer` gives) or two (a second one 6-15 cm away), struck by the
striker from a random side's area line, aimed within +-0.5 rad of the board's centre at
0.3-5 m/s; one shot in four grazes a disk (the striker's path tangent to it, to 1e-11 m).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.physics import Disk, EventKind, ShotResult, resting_layer, simulate
from hikone_carrom.physics.result import position_on_segment, spin_decay

__all__ = ["FuzzCounts", "check", "fuzz", "pile_shot"]

JUMP_TOL = 1e-9
"""m: a disk's position may differ by this much across an event (rounding)."""
OVERLAP_TOL = 1e-9
"""m: two disks of one layer may overlap by this much."""


@dataclass
class FuzzCounts:
    """Shots run and what broke (the first few findings kept as examples)."""

    shots: int = 0
    events: int = 0
    jumps: int = 0
    loops: int = 0
    violations: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, what: str, example: str) -> None:
        if len(self.examples) < 10:
            self.examples.append(f"{what}: {example}")


def check(
    result: ShotResult, disks: Sequence[Disk], board: BoardSpec
) -> tuple[int, bool, list[str]]:
    """(jumps, looped, violations) of one shot, from its log (see the module docstring)."""
    by_id = {d.id: d for d in disks}
    tracks = result.tracks()
    rate = {i: spin_decay(board, d.radius) for i, d in by_id.items()}
    seg = {i: tr.segments[0] for i, tr in tracks.items()}
    nxt = dict.fromkeys(tracks, 1)

    def energy(t: float) -> float:
        total = 0.0
        for i, s in seg.items():
            st = position_on_segment(s, t, rate[i])
            m, r = by_id[i].mass, by_id[i].radius
            total += 0.5 * m * (st.vx**2 + st.vy**2) + 0.25 * m * r * r * st.spin**2
        return total

    jumps = 0
    violations: list[str] = []
    t_last: float | None = None
    e_start = e_last = energy(0.0)
    for ev in result.events:
        if ev.time != t_last:
            # the events of one instant are one step; sliding between instants only loses energy
            e_before = energy(ev.time)
            if e_last > e_start * (1.0 + 1e-12) + 1e-18 or e_before > e_last * (1.0 + 1e-12):
                violations.append(f"energy rose before t={ev.time}")
            e_start = e_before
            t_last = ev.time
        if ev.kind is EventKind.TIPPED:
            e_start += by_id[ev.ids[0]].mass * board.gravity * board.puck_thickness
        gone = ev.kind in (EventKind.POCKETED, EventKind.FLEW_OFF)
        if gone:
            del seg[ev.ids[0]]
        for s in () if gone else ev.states:
            was = position_on_segment(seg[s.id], ev.time)
            if math.hypot(s.x - was.x, s.y - was.y) > JUMP_TOL:
                jumps += 1
            seg[s.id] = tracks[s.id].segments[nxt[s.id]]
            nxt[s.id] += 1
        e_last = energy(ev.time)
        if ev.kind is not EventKind.CARRIED and e_last > e_start * (1.0 + 1e-12) + 1e-18:
            violations.append(f"energy rose at {ev.kind.value} t={ev.time}")
        now = [(i, position_on_segment(s, ev.time)) for i, s in seg.items()]
        for a in range(len(now)):
            ia, p = now[a]
            lim = board.half_width - by_id[ia].radius
            if abs(p.x) > lim + 1e-12 or abs(p.y) > lim + 1e-12:
                violations.append(f"{ia} beyond a rail t={ev.time}")
            for ib, q in now[a + 1 :]:
                if p.layer == q.layer:
                    gap = math.hypot(p.x - q.x, p.y - q.y) - by_id[ia].radius - by_id[ib].radius
                    if gap < -OVERLAP_TOL:
                        violations.append(f"{ia} and {ib} overlap by {-gap:.3g} m t={ev.time}")
    for d in result.final:
        if d.layer > 0 and not any(
            e.layer == d.layer - 1 and math.hypot(d.x - e.x, d.y - e.y) < d.radius + e.radius
            for e in result.final
        ):
            violations.append(f"{d.id} rests on nothing")
    return jumps, result.truncated, violations


def pile_shot(rng: np.random.Generator, board: BoardSpec) -> list[Disk]:
    """One seeded pile shot (see the module docstring)."""
    centres = [(0.0, 0.0)]
    disks = [Disk.jack("J", 0.0, 0.0, board=board)]
    if rng.random() < 0.5:
        second = (float(rng.uniform(-0.15, 0.15)), float(rng.uniform(0.06, 0.15)))
        centres.append(second)
        disks.append(Disk.puck("G0", *second, board=board))
    for k in range(int(rng.integers(0, 9))):
        cx, cy = centres[int(rng.integers(0, len(centres)))]
        x = cx + float(rng.uniform(-0.014, 0.014))
        y = cy + float(rng.uniform(-0.014, 0.014))
        layer = resting_layer(disks, x, y, board.puck_radius)
        disks.append(Disk.puck(f"R{k}", x, y, layer=layer, board=board))
    side = list(Side)[int(rng.integers(0, 4))]
    seg = board.area_line(side)
    u = float(rng.uniform(0.05, 0.95))
    x = seg.a.x + u * (seg.b.x - seg.a.x)
    y = seg.a.y + u * (seg.b.y - seg.a.y)
    speed = float(rng.uniform(0.3, 5.0))
    floor = [d for d in disks if d.layer == 0]
    if rng.random() < 0.25:
        # graze: the path tangent to a disk of the floor, to 1e-11 m
        t = floor[int(rng.integers(0, len(floor)))]
        dx, dy = t.x - x, t.y - y
        dist = math.hypot(dx, dy)
        rr = t.radius + board.striker_radius + 1e-11
        off = math.asin(min(1.0, rr / dist)) * (1.0 if rng.random() < 0.5 else -1.0)
        angle = math.atan2(dy, dx) + off
    else:
        angle = math.atan2(-y, -x) + float(rng.uniform(-0.5, 0.5))
    vx, vy = speed * math.cos(angle), speed * math.sin(angle)
    return [*disks, Disk.striker("S", x, y, vx, vy, board=board)]


def fuzz(
    n: int, board: BoardSpec, positions: Sequence[Sequence[Disk]], seed: int = 46
) -> tuple[FuzzCounts, FuzzCounts]:
    """Check ``n`` pile shots and the given real positions; returns their counts."""
    rng = np.random.default_rng(seed)
    piles = FuzzCounts()
    for k in range(n):
        disks = pile_shot(rng, board)
        _one(piles, disks, board, f"pile shot {k} (seed {seed})")
    real = FuzzCounts()
    for k, layout in enumerate(positions):
        _one(real, list(layout), board, f"position {k}")
    return piles, real


def _one(counts: FuzzCounts, disks: list[Disk], board: BoardSpec, name: str) -> None:
    res = simulate(disks, board, fly_off=False)
    jumps, looped, bad = check(res, disks, board)
    counts.shots += 1
    counts.events += res.events_handled
    counts.jumps += jumps
    counts.loops += int(looped)
    counts.violations += len(bad)
    if jumps:
        counts.add("jump", f"{name}, {jumps} jumps")
    if looped:
        counts.add("loop", name)
    if bad:
        counts.add("violation", f"{name}, {bad[0]}")
