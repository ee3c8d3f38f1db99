"""R6e stacks: disks on upper layers, support exits, drops, cascades."""

from __future__ import annotations

import math

import pytest
from physics_helpers import assert_invariants

from hikone_carrom.board import BoardSpec
from hikone_carrom.physics import Disk, EventKind, InvalidLayoutError, resting_layer, simulate

B = BoardSpec()
UNCOUPLED = BoardSpec(stack_friction=0.0)
"""Stacked disks without friction to their support: they never move with it."""


def test_resting_layer_builds_a_pile() -> None:
    disks: list[Disk] = [Disk.jack("J", 0.0, 0.0)]
    for k in range(3):
        layer = resting_layer(disks, 0.002 * k, 0.0, B.puck_radius)
        disks.append(Disk.puck(f"R{k}", 0.002 * k, 0.0, layer=layer))
    assert [d.layer for d in disks] == [0, 1, 2, 3]
    assert resting_layer(disks, 0.2, 0.2, B.puck_radius) == 0
    assert resting_layer(disks[:1], 0.034, 0.0, B.jack_radius) == 0  # touching: no overlap


def test_without_stack_friction_a_disk_drops_where_it_stands_when_its_support_slides_away() -> None:
    disks = [
        Disk.jack("J", 0.0, 0.0),
        Disk.puck("R0", 0.01, 0.0, layer=1),
        Disk.striker("S", -0.15, 0.0, 3.0, 0.0),
    ]
    res = simulate(disks, UNCOUPLED)
    drops = [e for e in res.events if e.kind is EventKind.DROPPED]
    assert len(drops) == 1
    drop = drops[0]
    (state,) = drop.states
    assert (state.id, state.x, state.y, state.vx, state.vy, state.layer) == (
        "R0",
        0.01,
        0.0,
        0.0,
        0.0,
        0,
    )
    jack = res.positions_at(drop.time)["J"]
    assert math.hypot(jack.x - 0.01, jack.y) == pytest.approx(
        B.jack_radius + B.puck_radius, abs=1e-9
    )
    # the upper disk did not move before it dropped (no coupling)
    for e in res.events:
        if e.time < drop.time:
            assert "R0" not in e.ids
    assert_invariants(res, disks, UNCOUPLED)


def test_no_drop_while_another_support_remains() -> None:
    disks = [
        Disk.puck("A", -0.012, 0.0),
        Disk.puck("B", 0.02, 0.0),
        Disk.puck("U", 0.006, 0.0, layer=1),
        Disk.striker("S", -0.012, -0.2, 0.0, 2.0),
    ]
    res = simulate(disks, B)
    assert any(e.kind is EventKind.DISK_DISK and set(e.ids) == {"A", "S"} for e in res.events)
    final = {d.id: d for d in res.final}
    assert final["U"].layer == 1
    assert (final["U"].x, final["U"].y) == (0.006, 0.0)
    assert not any(e.kind is EventKind.DROPPED for e in res.events)
    assert_invariants(res, disks, B)


def test_a_pile_comes_down_one_layer_each() -> None:
    disks = [Disk.jack("J", 0.0, 0.0)]
    for k in range(4):
        disks.append(Disk.puck(f"R{k}", 0.001 * k, 0.0, layer=k + 1))
    disks.append(Disk.striker("S", 0.0, -0.2, 0.0, 3.0))
    res = simulate(disks, B)
    drops = [e for e in res.events if e.kind is EventKind.DROPPED]
    assert [e.ids[0] for e in drops] == ["R0", "R1", "R2", "R3"]
    assert len({e.time for e in drops}) == 1
    final = {d.id: d.layer for d in res.final}
    assert [final[f"R{k}"] for k in range(4)] == [0, 1, 2, 3]
    assert_invariants(res, disks, B)


def test_disk_dropping_over_a_hole_falls_into_it() -> None:
    disks = [Disk.puck("A", 0.245, 0.245, 0.0, -1.0), Disk.puck("U", 0.262, 0.262, layer=1)]
    assert B.is_over_pocket(0.262, 0.262) and not B.is_over_pocket(0.245, 0.245)
    res = simulate(disks, B, striker=None)
    kinds = [(e.kind, e.ids[0]) for e in res.events]
    assert (EventKind.DROPPED, "U") in kinds
    assert kinds.index((EventKind.POCKETED, "U")) == kinds.index((EventKind.DROPPED, "U")) + 1
    assert res.pocketed[0][:2] == ("U", 2)


def test_support_pocketed_lets_the_upper_disk_drop() -> None:
    disks = [Disk.puck("A", 0.2, 0.2, 1.5, 1.5), Disk.puck("U", 0.21, 0.21, layer=1)]
    res = simulate(disks, B, striker=None)
    kinds = [(e.kind, e.ids[0]) for e in res.events]
    assert (EventKind.DROPPED, "U") in kinds
    assert {d.id: d.layer for d in res.final}["U"] == 0


def test_only_disks_of_one_layer_collide() -> None:
    disks = [
        Disk.jack("J", 0.0, 0.0),
        Disk.puck("U", 0.0, 0.016, layer=1),
        Disk.striker("S", 0.1, 0.03, -1.5, 0.0),
    ]
    res = simulate(disks, B)
    assert not any(e.kind is EventKind.DISK_DISK and "U" in e.ids for e in res.events)
    assert_invariants(res, disks, B)


@pytest.mark.parametrize(
    ("disks", "message"),
    [
        ([Disk.puck("U", 0.0, 0.0, layer=1)], "nothing under it"),
        ([Disk.puck("A", 0.0, 0.0), Disk.puck("U", 0.0, 0.0, 0.1, 0.0, layer=1)], "cannot move"),
        ([Disk.puck("A", 0.0, 0.0), Disk.puck("U", 0.0, 0.0, layer=2)], "nothing under it"),
    ],
)
def test_bad_stacks_are_refused(disks: list[Disk], message: str) -> None:
    with pytest.raises(InvalidLayoutError, match=message):
        simulate(disks, B, striker=None)
