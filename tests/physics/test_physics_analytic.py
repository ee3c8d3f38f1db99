"""Closed-form checks of the engine: stopping, impacts, rail rebounds, pockets."""

from __future__ import annotations

import math

import pytest

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.physics import Disk, EventKind, StrikerFate, simulate

B = BoardSpec()
MUG = B.friction * B.gravity
SMOOTH_RAILS = BoardSpec(rail_friction=0.0)
"""Rails without impact friction: the tangential velocity is kept in full."""


@pytest.mark.parametrize("v0", [0.3, 0.8, 1.15])
def test_stopping_distance_and_time(v0: float) -> None:
    res = simulate([Disk.striker("S", 0.0, -0.2, 0.0, v0)], B)
    (stop,) = res.events
    assert stop.kind is EventKind.STOPPED
    assert stop.time == pytest.approx(v0 / MUG, rel=1e-14)
    (final,) = res.final
    assert final.y == pytest.approx(-0.2 + v0 * v0 / (2 * MUG), abs=1e-15)
    assert final.x == 0.0


@pytest.mark.parametrize("speed", [0.7, 2.0, 4.0])
def test_equal_mass_head_on_gives_one_minus_e_and_one_plus_e_halves(speed: float) -> None:
    gap = 0.1
    res = simulate([Disk.striker("S", 0.0, -gap - 0.03, 0.0, speed), Disk.puck("P", 0.0, 0.0)], B)
    hit = res.events[0]
    assert hit.kind is EventKind.DISK_DISK and set(hit.ids) == {"P", "S"}
    v_hit = math.sqrt(speed * speed - 2 * MUG * gap)
    after = {s.id: s for s in hit.states}
    e = B.restitution_disk
    assert after["P"].vy == pytest.approx((1 + e) / 2 * v_hit, rel=1e-12)
    assert after["S"].vy == pytest.approx((1 - e) / 2 * v_hit, rel=1e-12)
    assert after["P"].vx == 0.0 and after["S"].vx == 0.0
    assert after["P"].y - after["S"].y == pytest.approx(0.03, abs=1e-12)
    assert res.first_contact.disk_id == "P"
    assert res.first_contact.time == hit.time


def test_unequal_masses_head_on_conserve_momentum_with_restitution() -> None:
    res = simulate([Disk.striker("S", -0.1, 0.0, 2.0, 0.0), Disk.jack("J", 0.0, 0.0)], B)
    hit = res.events[0]
    v = math.sqrt(4.0 - 2 * MUG * (0.1 - 0.032))
    m1, m2, e = B.striker_mass, B.jack_mass, B.restitution_disk
    after = {s.id: s for s in hit.states}
    assert after["S"].vx == pytest.approx((m1 - e * m2) / (m1 + m2) * v, rel=1e-12)
    assert after["J"].vx == pytest.approx((1 + e) * m1 / (m1 + m2) * v, rel=1e-12)


def test_rail_reflection_angle_and_speed() -> None:
    vx, vy = 1.5, 0.4
    res = simulate([Disk.striker("S", 0.0, 0.0, vx, vy)], SMOOTH_RAILS)
    rail = res.events[0]
    assert rail.kind is EventKind.DISK_RAIL and rail.side is Side.EAST
    limit = B.half_width - B.striker_radius
    s = rail.states[0]
    assert s.x == limit
    path = limit / (vx / math.hypot(vx, vy))
    v1 = math.sqrt(vx * vx + vy * vy - 2 * MUG * path)
    ux, uy = vx / math.hypot(vx, vy), vy / math.hypot(vx, vy)
    assert s.vx == pytest.approx(-B.restitution_rail * v1 * ux, rel=1e-12)
    assert s.vy == pytest.approx(v1 * uy, rel=1e-12)
    assert s.y == pytest.approx(path * uy, rel=1e-12)
    assert math.atan2(s.vy, -s.vx) == pytest.approx(math.atan2(uy, B.restitution_rail * ux))


@pytest.mark.parametrize("angle_deg", [0.0, 10.0, -20.0])
def test_exact_final_position_after_one_rail_rebound(angle_deg: float) -> None:
    a = math.radians(angle_deg)
    v0 = 1.3
    res = simulate([Disk.shot("S", 0.0, 0.0, a, v0)], SMOOTH_RAILS)
    assert [e.kind for e in res.events] == [EventKind.DISK_RAIL, EventKind.STOPPED]
    limit = B.half_width - B.striker_radius
    path = limit / math.cos(a)
    v1 = math.sqrt(v0 * v0 - 2 * MUG * path)
    wx, wy = -B.restitution_rail * v1 * math.cos(a), v1 * math.sin(a)
    w = math.hypot(wx, wy)
    d2 = w * w / (2 * MUG)
    (final,) = res.final
    assert final.x == pytest.approx(limit + d2 * wx / w, abs=1e-12)
    assert final.y == pytest.approx(path * math.sin(a) + d2 * wy / w, abs=1e-12)


def test_shot_straight_at_a_pocket_falls() -> None:
    v = 2.5
    res = simulate([Disk.shot("S", 0.0, 0.0, math.pi / 4, v)], B)
    assert [e.kind for e in res.events] == [EventKind.POCKETED]
    ((pid, pocket, t),) = res.pocketed
    assert (pid, pocket) == ("S", 2)
    assert B.pocket_centres()[2] == (B.half_width, B.half_width)
    dist = B.half_width * math.sqrt(2) - B.pocket_radius
    assert t == pytest.approx((v - math.sqrt(v * v - 2 * MUG * dist)) / MUG, rel=1e-12)
    assert res.striker_fate is StrikerFate.POCKETED
    assert res.final == ()


def test_disk_resting_over_a_hole_falls_at_once() -> None:
    res = simulate([Disk.puck("P", -0.27, -0.27)], B, striker=None)
    assert res.pocketed[0][:2] == ("P", 0)
    assert res.pocketed[0].time == 0.0
