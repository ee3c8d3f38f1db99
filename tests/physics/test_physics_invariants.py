"""Invariants fuzzed with hypothesis over random mid-game shots, breaks and piles.

Quick profile by default (about 1,500 shots, a few seconds); set HIKONE_FUZZ_SCALE=10 (or more)
for a thorough run.
"""

from __future__ import annotations

import math
import os

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from physics_helpers import assert_invariants

from hikone_carrom.bench.scenes import midgame_layout, random_shot
from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.physics import Disk, opening_disks, resting_layer, simulate

B = BoardSpec()
SCALE = max(1, int(os.environ.get("HIKONE_FUZZ_SCALE", "1")))


def _profile(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


@_profile(1000)
@given(seed=st.integers(0, 2**32 - 1), fly=st.booleans())
def test_random_midgame_shots_keep_every_invariant(seed: int, fly: bool) -> None:
    rng = np.random.default_rng(seed)
    layout = midgame_layout(rng, B)
    x, y, vx, vy = random_shot(rng, layout, B)
    disks = [*layout, Disk.striker("S", x, y, vx, vy)]
    res = simulate(disks, B, seed=seed, fly_off=fly)
    assert not res.truncated
    assert_invariants(res, disks, B)
    again = simulate(list(reversed(disks)), B, seed=seed, fly_off=fly)
    assert again.to_dict() == res.to_dict()  # bit-identical rerun, input order irrelevant


@_profile(150)
@given(
    side=st.sampled_from(list(Side)),
    along=st.floats(0.0, 1.0),
    turn=st.floats(-0.35, 0.35),
    speed=st.floats(0.5, 5.0),
)
def test_opening_breaks_keep_every_invariant(
    side: Side, along: float, turn: float, speed: float
) -> None:
    seg = B.area_line(side)
    x = seg.a.x + along * (seg.b.x - seg.a.x)
    y = seg.a.y + along * (seg.b.y - seg.a.y)
    disks = [*opening_disks(B), Disk.shot("S", x, y, math.atan2(-y, -x) + turn, speed)]
    res = simulate(disks, B)
    assert not res.truncated
    assert_invariants(res, disks, B)


@_profile(300)
@given(
    offsets=st.lists(st.tuples(st.floats(-0.012, 0.012), st.floats(-0.012, 0.012)), max_size=6),
    aim=st.floats(-0.06, 0.06),
    speed=st.floats(0.5, 5.0),
)
def test_piles_at_the_jack_spot_keep_every_invariant(
    offsets: list[tuple[float, float]], aim: float, speed: float
) -> None:
    disks = [Disk.jack("J", 0.0, 0.0)]
    for k, (dx, dy) in enumerate(offsets):
        disks.append(Disk.puck(f"R{k}", dx, dy, layer=resting_layer(disks, dx, dy, B.puck_radius)))
    disks.append(Disk.shot("S", aim, -0.21, math.pi / 2, speed))
    res = simulate(disks, B)
    assert not res.truncated
    assert_invariants(res, disks, B)
    for d in res.final:
        if d.layer > 0:
            below = [e for e in res.final if e.layer == d.layer - 1]
            assert any(math.hypot(d.x - e.x, d.y - e.y) < d.radius + e.radius for e in below), (
                "every upper disk rests on a disk of the layer below"
            )


@_profile(200)
@given(
    second=st.tuples(st.floats(-0.15, 0.15), st.floats(0.06, 0.15)),
    offsets=st.lists(
        st.tuples(st.integers(0, 1), st.floats(-0.014, 0.014), st.floats(-0.014, 0.014)),
        min_size=1,
        max_size=8,
    ),
    side=st.sampled_from(list(Side)),
    along=st.floats(0.05, 0.95),
    turn=st.floats(-0.5, 0.5),
    speed=st.floats(0.3, 5.0),
)
def test_two_piles_struck_from_any_side_keep_every_invariant(
    second: tuple[float, float],
    offsets: list[tuple[int, float, float]],
    side: Side,
    along: float,
    turn: float,
    speed: float,
) -> None:
    """Piles ride, slide against each other, get blocked and drop (stack friction on)."""
    centres = [(0.0, 0.0), second]
    disks = [Disk.jack("J", 0.0, 0.0), Disk.puck("G0", *second)]
    for k, (pile, dx, dy) in enumerate(offsets):
        x, y = centres[pile][0] + dx, centres[pile][1] + dy
        disks.append(Disk.puck(f"R{k}", x, y, layer=resting_layer(disks, x, y, B.puck_radius)))
    seg = B.area_line(side)
    x = seg.a.x + along * (seg.b.x - seg.a.x)
    y = seg.a.y + along * (seg.b.y - seg.a.y)
    disks.append(Disk.shot("S", x, y, math.atan2(-y, -x) + turn, speed))
    res = simulate(disks, B, seed=len(offsets))
    assert not res.truncated
    assert_invariants(res, disks, B)
