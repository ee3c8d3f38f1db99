"""Closed-form checks of the friction models: rails, throw, stacks riding, slow grazing contacts.

Every expected value below is derived by hand from the model in docs/physics.md (uniform disks:
r^2/I = 2/m, so a contact point's slip changes three times as fast as the centre's velocity).
"""

from __future__ import annotations

import math

import pytest
from physics_helpers import assert_invariants

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.physics import Disk, EventKind, simulate

B = BoardSpec()
G = B.gravity
MUG = B.friction * G


# --- the merge of slowly meeting pairs -----------------------------------------------------------
def _grazing_pair() -> list[Disk]:
    return [Disk("A", 0, 0, 1.0, 0.0002), Disk("B", 0, 0.030 + 1e-11, 0.001, 0.00015)]


def test_a_slow_grazing_contact_leaves_the_sliding_past_intact() -> None:
    res = simulate(_grazing_pair(), B, striker=None, fly_off=False)
    final = {d.id: d for d in res.final}
    # A slides on to the east rail and back: exact impact, no merge (B keeps its own crawl)
    limit = B.half_width - 0.015
    v1 = math.sqrt(1.0 - 2 * MUG * limit)
    assert final["A"].x == pytest.approx(
        limit - (B.restitution_rail * v1) ** 2 / (2 * MUG), abs=1e-5
    )
    assert final["A"].x == pytest.approx(0.258, abs=5e-4)
    assert math.hypot(final["B"].x, final["B"].y - 0.03) < 1e-6
    assert_invariants(res, _grazing_pair(), B)


def test_the_legacy_preset_keeps_the_merge_of_format_1_records() -> None:
    res = simulate(_grazing_pair(), BoardSpec.legacy(), striker=None, fly_off=False)
    final = {d.id: d for d in res.final}
    assert final["B"].x == pytest.approx(final["A"].x)
    assert final["B"].x == pytest.approx(0.085, abs=1e-3)


# --- rails ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("angle_deg", [20.0, 45.0, 55.0])
def test_rail_friction_exit_angle_and_spin_in_closed_form(angle_deg: float) -> None:
    a = math.radians(angle_deg)
    v0 = 2.0
    res = simulate([Disk.shot("S", 0.0, -0.25, a, v0)], B, fly_off=False)
    rail = res.events[0]
    assert rail.kind is EventKind.DISK_RAIL and rail.side is Side.EAST
    limit = B.half_width - B.striker_radius
    v1 = math.sqrt(v0 * v0 - 2 * MUG * limit / math.cos(a))
    vn, vt = v1 * math.cos(a), v1 * math.sin(a)
    e, mu = B.restitution_rail, B.rail_friction
    loss = min(mu * (1 + e) * vn, vt / 3)  # friction-limited, or the contact point stops slipping
    (s,) = rail.states
    assert s.vx == pytest.approx(-e * vn, rel=1e-12)
    assert s.vy == pytest.approx(vt - loss, rel=1e-12)
    assert s.spin == pytest.approx(-2 * loss / B.striker_radius, rel=1e-12)
    exit_from_normal = math.atan2(s.vy, -s.vx)
    tan_in = math.tan(a)
    assert math.tan(exit_from_normal) == pytest.approx(
        (tan_in - min(mu * (1 + e), tan_in / 3)) / e, rel=1e-12
    )


def test_rails_without_friction_keep_the_tangential_speed() -> None:
    res = simulate([Disk.shot("S", 0.0, -0.2, math.radians(45), 2.0)], B.legacy(), fly_off=False)
    (s,) = res.events[0].states
    assert math.degrees(math.atan2(-s.vx, s.vy)) == pytest.approx(35.0, abs=0.01)
    assert s.spin == 0.0


# --- throw: friction between disks ----------------------------------------------------------------
@pytest.mark.parametrize("kind", ["puck", "jack"])
@pytest.mark.parametrize("cut_deg", [10.0, 25.0, 45.0, 70.0])
def test_throw_angle_of_a_cut_in_closed_form(kind: str, cut_deg: float) -> None:
    phi = math.radians(cut_deg)
    target = Disk.of_kind(kind, "P", 0.0, 0.0)  # type: ignore[arg-type]
    rr = target.radius + B.striker_radius
    b = rr * math.sin(phi)
    disks = [target, Disk.striker("S", b, -0.12, 0.0, 2.0)]
    res = simulate(disks, B, fly_off=False)
    hit = res.events[0]
    assert hit.kind is EventKind.DISK_DISK
    p = {s.id: s for s in hit.states}["P"]
    e, mu = B.restitution_disk, B.disk_friction
    throw = math.atan(min(mu, math.tan(phi) / (3 * (1 + e))))
    # the line of centres points at 90 deg + phi; the cut throws the target towards the
    # striker's side (clockwise here)
    assert math.atan2(p.vy, p.vx) == pytest.approx(math.pi / 2 + phi - throw, abs=1e-12)
    # spin from the friction impulse: 2 * J_t / (m r) on each disk, same sign
    v = math.hypot(p.vx, p.vy)
    jt = target.mass * v * math.sin(throw)
    assert p.spin == pytest.approx(2 * jt / (target.mass * target.radius), rel=1e-9)
    s = {s.id: s for s in hit.states}["S"]
    assert s.spin == pytest.approx(2 * jt / (B.striker_mass * B.striker_radius), rel=1e-9)
    assert_invariants(res, disks, B)


def test_without_disk_friction_a_cut_leaves_along_the_line_of_centres() -> None:
    phi = math.radians(30)
    disks = [Disk.puck("P", 0.0, 0.0), Disk.striker("S", 0.03 * math.sin(phi), -0.12, 0.0, 2.0)]
    res = simulate(disks, BoardSpec(disk_friction=0.0), fly_off=False)
    p = {s.id: s for s in res.events[0].states}["P"]
    assert math.atan2(p.vy, p.vx) == pytest.approx(math.pi / 2 + phi, abs=1e-12)


# --- stacks: a disk rides on its support by friction ----------------------------------------------
def _pile(v0: float, board: BoardSpec = B) -> list[Disk]:
    """The jack moving at v0 (m/s, +x) with a puck resting centred on it."""
    return [
        Disk.jack("J", 0.0, 0.0, v0, 0.0, board=board),
        Disk.puck("U", 0.0, 0.0, layer=1, board=board),
    ]


def _pile_constants(board: BoardSpec = B) -> tuple[float, float, float]:
    """(jack's deceleration while the puck slides on it, relative deceleration, mu_s*g)."""
    mj, mu_ = board.jack_mass, board.puck_mass
    ms = board.stack_friction * board.gravity
    aj = (board.friction * board.gravity * (mj + mu_) + ms * mu_) / mj
    return aj, aj + ms, ms


def test_a_gentle_push_carries_the_top_disk_a_computable_distance() -> None:
    v0 = 0.3
    aj, k, ms = _pile_constants()
    t1 = v0 / k  # the puck, pulled by friction, catches up with the jack
    v1 = ms * t1
    assert v0 * v0 / (2 * k) < B.jack_radius  # its centre stays over the jack
    ride = v1 * v1 / (2 * MUG)  # then both slide as one, at mu*g
    res = simulate(_pile(v0), B, striker=None)
    final = {d.id: d for d in res.final}
    assert final["U"].layer == 1
    assert final["U"].x == pytest.approx(0.5 * ms * t1 * t1 + ride, abs=1e-12)
    assert final["J"].x == pytest.approx(v0 * t1 - 0.5 * aj * t1 * t1 + ride, abs=1e-12)
    assert final["J"].x - final["U"].x == pytest.approx(v0 * v0 / (2 * k), abs=1e-12)
    caught = [e for e in res.events if e.kind is EventKind.CARRIED and e.time > 0.0]
    assert caught and caught[0].time == pytest.approx(t1, rel=1e-12)
    assert_invariants(res, _pile(v0), B)


def test_a_hard_hit_pulls_the_support_out_and_the_top_disk_drops_where_it_stands() -> None:
    v0 = 0.9
    _, k, ms = _pile_constants()
    # the puck's centre reaches the jack's rim while the jack runs away under it
    t_rim = (v0 - math.sqrt(v0 * v0 - 2 * k * B.jack_radius)) / k
    res = simulate(_pile(v0), B, striker=None)
    final = {d.id: d for d in res.final}
    assert final["U"].layer == 0
    assert final["U"].x == pytest.approx(0.5 * ms * t_rim * t_rim, abs=1e-12)
    assert final["U"].x < 1e-3
    (drop,) = [e for e in res.events if e.kind is EventKind.DROPPED]
    assert drop.states[0].x == final["U"].x
    jack = res.positions_at(drop.time)["J"]
    assert jack.x - final["U"].x == pytest.approx(B.jack_radius + B.puck_radius, abs=1e-9)
    assert_invariants(res, _pile(v0), B)


def test_a_top_disk_left_hanging_over_a_stopped_support_slides_off_beside_it() -> None:
    aj, k, _ = _pile_constants()
    v0 = 1.001 * math.sqrt(2 * k * B.jack_radius)  # just enough to reach the rim
    t_rim = (v0 - math.sqrt(v0 * v0 - 2 * k * B.jack_radius)) / k
    v_rim = v0 - aj * t_rim
    rest = v_rim * v_rim / (2 * MUG)  # the jack, unloaded, slides this far after
    assert rest < B.puck_radius  # ... and stops before the puck's footprint leaves it
    x_jack = v0 * t_rim - 0.5 * aj * t_rim * t_rim + rest
    res = simulate(_pile(v0), B, striker=None)
    final = {d.id: d for d in res.final}
    assert final["J"].x == pytest.approx(x_jack, abs=1e-12)
    assert final["U"].layer == 0
    assert final["U"].x == pytest.approx(x_jack - B.jack_radius - B.puck_radius, abs=1e-12)
    assert final["U"].y == 0.0
    assert_invariants(res, _pile(v0), B)


def test_a_pushed_pile_of_three_rides_as_one_once_caught_up() -> None:
    pile = [
        Disk.jack("J", 0.0, 0.0),
        Disk.puck("R0", 0.0, 0.0, layer=1),
        Disk.puck("R1", 0.0, 0.0, layer=2),
        Disk.striker("S", 0.0, -0.1, 0.0, 0.65),
    ]
    res = simulate(pile, B)
    final = {d.id: d for d in res.final}
    assert (final["R0"].layer, final["R1"].layer) == (1, 2)
    assert final["R0"].y > 0.003  # carried a few millimetres
    assert final["R1"].y == pytest.approx(final["R0"].y, abs=1e-12)  # the top pair never slipped
    assert abs(final["J"].y - final["R0"].y) < B.jack_radius
    assert_invariants(res, pile, B)


def test_without_stack_friction_the_top_disk_stays_put() -> None:
    board = BoardSpec(stack_friction=0.0)
    res = simulate(_pile(0.4, board), board, striker=None)
    final = {d.id: d for d in res.final}
    assert (final["U"].x, final["U"].y) == (0.0, 0.0)
    assert final["U"].layer == 0  # the jack slid 5 cm from under it
