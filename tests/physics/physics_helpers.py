"""Shared checks for the physics tests: invariants of a shot, evaluated at every event."""

from __future__ import annotations

import math

from hikone_carrom.board import BoardSpec
from hikone_carrom.physics import Disk, DiskState, EventKind, ShotResult, TrackSegment
from hikone_carrom.physics._engine import SNAP_SPEED
from hikone_carrom.physics.result import position_on_segment, spin_decay

OVERLAP_TOL = 1e-9  # m
JUMP_TOL = 1e-9  # m


def assert_invariants(result: ShotResult, disks: list[Disk], board: BoardSpec) -> None:
    """Replays the event log with the result's tracks and checks, at every event: no overlap
    > 1e-9 m within a layer, kinetic energy (translation and spin) never rises (across the event
    and since the last one), momentum is kept in disk-disk events, every centre within the
    rails; disks leave only by a pocketed / flew_off event; every disk rests at the end; the
    tracks end where the final layout is. The energy is compared from one instant to the next
    and after each impact, rail, drop or stop, not after each of the ``carried`` rows of a pile
    that moves on together (those are one step); a ``tipped`` disk may gain what the fall it
    starts releases (its weight times a disk's thickness). Continuity: at every event each disk
    starts its new track segment where its old one put it (within 1e-9 m, no jump). Momentum is
    checked at impacts of disks free to move (a stacked disk left at rest by an impact is held
    by the disks under it), to 1e-12 of
    the pair's momentum or the engine's resolution of speeds, ``SNAP_SPEED`` (1e-9 m/s: piles
    pressed together below it ride as one)."""
    by_id = {d.id: d for d in disks}
    tracks = result.tracks()
    rate = {i: spin_decay(board, d.radius) for i, d in by_id.items()}
    seg: dict[str, TrackSegment] = {i: tr.segments[0] for i, tr in tracks.items()}
    nxt = {i: 1 for i in tracks}

    def states(t: float) -> dict[str, DiskState]:
        return {i: position_on_segment(s, t, rate[i]) for i, s in seg.items()}

    def energy(st: dict[str, DiskState]) -> float:
        total = 0.0
        for i, s in st.items():
            m, r = by_id[i].mass, by_id[i].radius
            total += 0.5 * m * (s.vx * s.vx + s.vy * s.vy) + 0.25 * m * r * r * s.spin * s.spin
        return total

    e_last = energy(states(0.0))
    e_start = e_last
    t_last: float | None = None
    for ev in result.events:
        assert t_last is None or ev.time >= t_last
        before = states(ev.time)
        e_before = energy(before)
        if ev.time != t_last:
            # the events of one instant (an impact and the pile motion it changes) form one
            # step; sliding between instants only loses energy
            assert e_last <= e_start * (1.0 + 1e-12) + 1e-18, (ev, e_last, e_start)
            assert e_before <= e_last * (1.0 + 1e-12) + 1e-18, (ev, e_before, e_last)
            e_start = e_before
            t_last = ev.time
        if ev.kind is EventKind.TIPPED:
            d = by_id[ev.ids[0]]
            e_start += d.mass * board.gravity * board.puck_thickness
        if ev.kind in (EventKind.POCKETED, EventKind.FLEW_OFF):
            del seg[ev.ids[0]]
        else:
            for s in ev.states:
                was = before[s.id]
                jump = math.hypot(s.x - was.x, s.y - was.y)
                assert jump <= JUMP_TOL, ("jump", ev, s.id, jump)
                new = tracks[s.id].segments[nxt[s.id]]
                nxt[s.id] += 1
                assert (new.t_start, new.x, new.y, new.vx, new.vy, new.layer) == (
                    ev.time,
                    s.x,
                    s.y,
                    s.vx,
                    s.vy,
                    s.layer,
                )
                seg[s.id] = new
        after = states(ev.time)
        e_last = energy(after)
        if ev.kind is not EventKind.CARRIED:
            assert e_last <= e_start * (1.0 + 1e-12) + 1e-18, (ev, e_last, e_start)
        held = ev.kind is EventKind.DISK_DISK and any(
            (after[i].vx, after[i].vy) == (0.0, 0.0) and after[i].layer > 0 for i in ev.ids
        )
        if ev.kind is EventKind.DISK_DISK and not held:
            # (a stacked disk at rest after an impact is held by the disks under it: struck at
            # rest, it stays put; pressed against another by their supports, it stops riding)
            a_id, b_id = ev.ids
            ma, mb = by_id[a_id].mass, by_id[b_id].mass
            for comp in ("vx", "vy"):
                p0 = ma * getattr(before[a_id], comp) + mb * getattr(before[b_id], comp)
                p1 = ma * getattr(after[a_id], comp) + mb * getattr(after[b_id], comp)
                slack = (ma + mb) * SNAP_SPEED
                assert abs(p1 - p0) <= 1e-12 * abs(p0) + slack, (ev, p0, p1)
        items = list(after.items())
        for a in range(len(items)):
            for b in range(a + 1, len(items)):
                (ia, p), (ib, q) = items[a], items[b]
                if p.layer == q.layer:
                    gap = math.hypot(p.x - q.x, p.y - q.y) - by_id[ia].radius - by_id[ib].radius
                    assert gap > -OVERLAP_TOL, (ev, ia, ib, gap)
        for i, s in items:
            lim = board.half_width - by_id[i].radius
            assert abs(s.x) <= lim + 1e-12 and abs(s.y) <= lim + 1e-12, (ev, i, s)
    assert e_last <= e_start * (1.0 + 1e-12) + 1e-18, (e_last, e_start)
    assert all(nxt[i] == len(tr.segments) for i, tr in tracks.items())
    gone = {e.ids[0] for e in result.events if e.kind in (EventKind.POCKETED, EventKind.FLEW_OFF)}
    final_ids = {d.id for d in result.final}
    assert final_ids | gone == set(by_id)
    assert not final_ids & gone
    assert {p.id for p in result.pocketed} | set(result.off_board) == gone
    assert final_ids == set(seg)
    for d in result.final:
        assert d.vx == 0.0 and d.vy == 0.0
        assert abs(d.x) <= board.half_width - d.radius + 1e-12
        assert abs(d.y) <= board.half_width - d.radius + 1e-12
        end = position_on_segment(seg[d.id], result.duration + 10.0)
        assert (end.x, end.y, end.vx, end.vy, end.layer) == (d.x, d.y, 0.0, 0.0, d.layer)
