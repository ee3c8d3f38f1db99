"""Known failure modes of event-driven engines: touching, ties, degenerate roots, corners, guard."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from physics_helpers import assert_invariants

from hikone_carrom.bench.scenes import opening_break
from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.physics import Disk, EventKind, simulate

B = BoardSpec()
MUG = B.friction * B.gravity


def test_touching_and_closing_is_an_impact_at_time_zero() -> None:
    disks = [Disk.striker("S", 0.0, -0.03, 0.0, 1.0), Disk.puck("P", 0.0, 0.0)]
    res = simulate(disks, B)
    assert res.events[0].kind is EventKind.DISK_DISK
    assert res.events[0].time == 0.0
    assert_invariants(res, disks, B)


def test_touching_and_separating_is_no_event() -> None:
    disks = [Disk.striker("S", 0.0, -0.03, 0.0, -0.5), Disk.puck("P", 0.0, 0.0)]
    res = simulate(disks, B)
    assert [e.kind for e in res.events] == [EventKind.STOPPED]
    assert res.first_contact.disk_id is None
    assert math.isinf(res.first_contact.time)


def test_touching_at_rest_stays_put() -> None:
    disks = [Disk.puck("A", 0.0, 0.0), Disk.puck("B", 0.03, 0.0), Disk.jack("J", 0.0, 0.032)]
    res = simulate(disks, B, striker=None)
    assert res.events == ()
    assert res.final == tuple(sorted(disks, key=lambda d: d.id))


def test_same_direction_catch_up_solves_the_degenerate_quartic() -> None:
    # equal directions: relative acceleration 0, so the quartic degenerates to a quadratic
    disks = [Disk.striker("S", 0.0, -0.2, 0.0, 2.0), Disk.puck("P", 0.0, -0.1, 0.0, 1.0)]
    res = simulate(disks, B)
    hit = res.events[0]
    assert hit.kind is EventKind.DISK_DISK
    assert hit.time == pytest.approx((0.1 - 0.03) / 1.0, rel=1e-12)


def test_equal_velocities_side_by_side_never_meet() -> None:
    disks = [Disk.striker("S", 0.0, 0.0, 0.5, 0.5), Disk.puck("P", 0.03, 0.0, 0.5, 0.5)]
    res = simulate(disks, B)
    assert all(e.kind is EventKind.STOPPED for e in res.events)
    assert len(res.events) == 2


def test_simultaneous_double_hit_of_the_opening_break_is_deterministic() -> None:
    sc = opening_break(B)
    res = simulate(sc.disks(B), B)
    first, second = res.events[0], res.events[1]
    assert first.kind is second.kind is EventKind.DISK_DISK
    assert "S" in first.ids and "S" in second.ids
    assert second.time - first.time < 1e-12
    again = simulate(sc.disks(B), B)
    assert again.to_dict() == res.to_dict()
    assert_invariants(res, sc.disks(B), B)


def test_corner_double_rail_hit() -> None:
    tiny = replace(B, pocket_radius=1e-6, rail_friction=0.0)
    limit = tiny.half_width - tiny.striker_radius
    res = simulate([Disk.striker("S", 0.0, 0.0, 3.0, 3.0)], tiny)
    rails = [e for e in res.events if e.kind is EventKind.DISK_RAIL]
    assert {rails[0].side, rails[1].side} == {Side.EAST, Side.NORTH}
    assert rails[1].time - rails[0].time < 1e-12
    s = rails[1].states[0]
    assert (s.x, s.y) == pytest.approx((limit, limit), abs=1e-12)
    assert s.vx < 0.0 and s.vy < 0.0
    assert s.vx == pytest.approx(s.vy, rel=1e-12)
    (final,) = res.final
    assert final.x == pytest.approx(final.y, abs=1e-12)


def test_hexagonal_cluster_of_touching_pucks() -> None:
    r = B.puck_radius
    disks = [
        Disk.puck(f"P{k:02d}", (col + 0.5 * (row % 2)) * 2 * r, row * 2 * r * math.sqrt(3) / 2)
        for k, (row, col) in enumerate((row, col) for row in range(-2, 3) for col in range(-2, 3))
    ]
    disks.append(Disk.striker("S", 0.004, -0.21, 0.0, 4.5))
    res = simulate(disks, B)
    assert not res.truncated
    assert_invariants(res, disks, B)


@pytest.mark.parametrize("cap", [1, 2, 3, 17, 40, -1])
def test_event_guard_leaves_a_consistent_layout_wherever_it_cuts(cap: int) -> None:
    sc = opening_break(B)
    if cap < 0:
        cap = simulate(sc.disks(B), B).events_handled - 1
    res = simulate(sc.disks(B), B, max_events=cap)
    assert res.truncated and res.events_handled == cap
    assert_invariants(res, sc.disks(B), B)


def test_event_guard_stops_the_shot_with_a_flag() -> None:
    sc = opening_break(B)
    res = simulate(sc.disks(B), B, max_events=10)
    assert res.truncated
    assert res.events_handled == 10
    assert all(d.vx == 0.0 and d.vy == 0.0 for d in res.final)
    assert_invariants(res, sc.disks(B), B)
    full = simulate(sc.disks(B), B)
    assert not full.truncated and full.events_handled > 10
