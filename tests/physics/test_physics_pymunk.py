"""Cross-check of simple shots against pymunk (time-stepped, dt = 1/240 s): a statistical
oracle, so the tolerances are a few millimetres. The reference has no impact or stack friction,
so the engine runs the frictionless (legacy) setting."""

from __future__ import annotations

import math

import pytest

from hikone_carrom.bench.pymunk_ref import pymunk_shot
from hikone_carrom.board import BoardSpec
from hikone_carrom.physics import Disk, simulate

B = BoardSpec.legacy()


@pytest.mark.parametrize("speed", [0.6, 1.0])
def test_stopping_distance_matches_pymunk(speed: float) -> None:
    disks = [Disk.striker("S", 0.0, -0.2, 0.0, speed)]
    ours = simulate(disks, B).final[0]
    ref = pymunk_shot(disks, B).final["S"]
    assert ours.y == pytest.approx(ref[1], abs=0.004)
    assert ours.y == pytest.approx(-0.2 + speed**2 / (2 * B.friction * B.gravity), abs=1e-12)


@pytest.mark.parametrize("angle_deg", [0.0, 20.0])
def test_rail_rebound_matches_pymunk(angle_deg: float) -> None:
    disks = [Disk.shot("S", 0.0, 0.0, math.radians(angle_deg), 1.3)]
    ours = simulate(disks, B).final[0]
    ref = pymunk_shot(disks, B).final["S"]
    assert math.hypot(ours.x - ref[0], ours.y - ref[1]) < 0.006


def test_head_on_impact_matches_pymunk() -> None:
    disks = [Disk.striker("S", 0.0, -0.2, 0.0, 1.5), Disk.puck("P", 0.0, 0.0)]
    ours = {d.id: d for d in simulate(disks, B).final}
    ref = pymunk_shot(disks, B).final
    for pid in ("S", "P"):
        assert math.hypot(ours[pid].x - ref[pid][0], ours[pid].y - ref[pid][1]) < 0.006
