"""R6e piles on the jack spot pressed by the jack and pucks: a pair pushed together slowly moves
on as one even when one of them carries a pile, so no two disks of one layer ever overlap and
every final layout can be played again.

Quick profile by default; set HIKONE_FUZZ_SCALE=10 (or more) for a thorough run.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from physics_helpers import assert_invariants

from hikone_carrom.board import BoardSpec
from hikone_carrom.physics import (
    Disk,
    EventKind,
    ShotResult,
    resting_layer,
    resting_layer_of,
    simulate,
)

B = BoardSpec()
SCALE = max(1, int(os.environ.get("HIKONE_FUZZ_SCALE", "1")))
TOUCH = 1e-10
"""The engine's contact tolerance (m): the layout check refuses a same-layer overlap beyond it."""
CASE = json.loads((Path(__file__).parent / "data" / "jack_presses_a_pile.json").read_text())


def pressed_pile(rng: np.random.Generator) -> list[Disk]:
    """A pile of 1-7 pucks on a puck or the jack at the jack spot, 1-4 disks on the board around
    it (some touching it), and one of them (or a striker from the area lines' distance) shot at
    the pile at 0.02-3 m/s (striker: 0.2-5 m/s)."""
    bx, by = rng.uniform(-0.004, 0.004, 2)
    base_is_jack = bool(rng.random() < 0.4)
    disks = [Disk.jack("J", bx, by) if base_is_jack else Disk.puck("G0", bx, by)]
    for k in range(int(rng.integers(1, 8))):
        x, y = bx + rng.uniform(-0.004, 0.004), by + rng.uniform(-0.004, 0.004)
        disks.append(Disk.puck(f"R{k}", x, y, layer=resting_layer(disks, x, y, B.puck_radius)))
    for k in range(int(rng.integers(1, 5))):
        jack = not base_is_jack and k == 0 and bool(rng.random() < 0.7)
        r = B.jack_radius if jack else B.puck_radius
        angle = rng.uniform(0.0, 2.0 * math.pi)
        dist = disks[0].radius + r + (0.0 if rng.random() < 0.3 else rng.uniform(0.0, 0.03))
        x, y = bx + dist * math.cos(angle), by + dist * math.sin(angle)
        if resting_layer(disks, x, y, r) == 0:
            disks.append(Disk.jack("J", x, y) if jack else Disk.puck(f"G{k + 1}", x, y))
    movers = [k for k, d in enumerate(disks) if d.layer == 0 and k > 0]
    if not movers or rng.random() < 0.25:
        angle = rng.uniform(0.0, 2.0 * math.pi)
        sx, sy = 0.21 * math.cos(angle), 0.21 * math.sin(angle)
        aim = math.atan2(by - sy, bx - sx) + rng.uniform(-0.15, 0.15)
        speed = math.exp(rng.uniform(math.log(0.2), math.log(5.0)))
        return [*disks, Disk.shot("S", sx, sy, aim, speed)]
    d = disks[movers[0]]
    aim = math.atan2(by - d.y, bx - d.x) + rng.uniform(-0.6, 0.6)
    speed = math.exp(rng.uniform(math.log(0.02), math.log(3.0)))
    disks[movers[0]] = Disk(
        d.id, d.x, d.y, speed * math.cos(aim), speed * math.sin(aim), d.radius, d.mass
    )
    return disks


def simulate_pile(disks: list[Disk], seed: int) -> ShotResult:
    striker = "S" if any(d.id == "S" for d in disks) else None
    return simulate(disks, B, striker=striker, seed=seed)


def same_layer_overlaps(disks: tuple[Disk, ...]) -> list[tuple[str, str, float]]:
    """Pairs of one layer whose footprints overlap by more than TOUCH: (id, id, overlap m)."""
    found = []
    for a in range(len(disks)):
        for b in range(a + 1, len(disks)):
            p, q = disks[a], disks[b]
            depth = p.radius + q.radius - math.hypot(p.x - q.x, p.y - q.y)
            if p.layer == q.layer and depth > TOUCH:
                found.append((p.id, q.id, depth))
    return found


def assert_playable_again(res: ShotResult) -> None:
    """The final layout is a valid layout at rest: simulating it raises nothing, moves nothing."""
    again = simulate(res.final, B, striker=None)
    assert again.final == res.final


def test_a_jack_pressing_a_pile_moves_on_with_its_support_without_overlap() -> None:
    """The striker drives the jack into a 7-high pile on puck G5 (R6e); the jack then presses
    G5 slowly. Once the two move on as one, they share G5's motion, which its jolted riders set."""
    disks = [Disk(**d) for d in CASE["disks"]]
    res = simulate(disks, B, seed=CASE["seed"])
    assert not res.truncated
    assert same_layer_overlaps(res.final) == []
    assert_invariants(res, disks, B)
    assert_playable_again(res)
    tracks = res.tracks()
    merged = 0
    for ev in res.events:
        if ev.kind is EventKind.DISK_DISK and set(ev.ids) == {"G5", "J"}:
            g5, jack = (
                next(s for s in tracks[i].segments if s.t_start == ev.time) for i in ("G5", "J")
            )
            if (g5.vx, g5.vy) == (jack.vx, jack.vy):
                merged += 1
                assert g5.decel == jack.decel > B.friction * B.gravity
    assert merged >= 1


def test_thousands_of_pressed_piles_end_without_overlap() -> None:
    """A fixed sweep of 3,000 pressed piles: every final layout is valid and playable again."""
    for seed in range(3000 * SCALE):
        res = simulate_pile(pressed_pile(np.random.default_rng(seed)), seed)
        assert not res.truncated, seed
        assert same_layer_overlaps(res.final) == [], seed
        assert_playable_again(res)


@settings(max_examples=400 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_pressed_piles_keep_every_invariant_at_every_event(seed: int) -> None:
    disks = pressed_pile(np.random.default_rng(seed))
    res = simulate_pile(disks, seed)
    assert not res.truncated
    assert_invariants(res, disks, B)
    assert_playable_again(res)


@settings(max_examples=300 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    toward=st.floats(0.0, 2.0 * math.pi),
    gap=st.one_of(st.just(0.0), st.floats(0.0, 0.01)),
    offsets=st.lists(
        st.tuples(st.integers(0, 1), st.floats(-0.004, 0.004), st.floats(-0.004, 0.004)),
        min_size=2,
        max_size=8,
    ),
    side=st.floats(-0.5, 0.5),
    aim=st.floats(-0.5, 0.5),
    log_speed=st.floats(math.log(0.02), math.log(2.0)),
)
@example(  # two towers pressed together at about 1e-10 m/s
    toward=0.0,
    gap=0.00839942902430101,
    offsets=[(0, 0.0, 0.0)] * 3 + [(1, 0.0, 0.0)] * 4,
    side=0.0,
    aim=0.0,
    log_speed=-0.875,
)
def test_a_pile_pushed_into_another_by_the_jack_keeps_every_invariant(
    toward: float,
    gap: float,
    offsets: list[tuple[int, float, float]],
    side: float,
    aim: float,
    log_speed: float,
) -> None:
    """Two piles whose supports touch (or nearly), the jack pushing one into the other."""
    dist = 2.0 * B.puck_radius + gap
    centres = [(0.0, 0.0), (dist * math.cos(toward), dist * math.sin(toward))]
    piles: list[list[Disk]] = [[Disk.puck("A", 0.0, 0.0)], [Disk.puck("B", *centres[1])]]
    for k, (pile, dx, dy) in enumerate(offsets):
        x, y = centres[pile][0] + dx, centres[pile][1] + dy
        # two separate piles: no disk lies on the other pile too
        assume(resting_layer(piles[1 - pile], x, y, B.puck_radius) == 0)
        piles[pile].append(
            Disk.puck(f"R{k}", x, y, layer=resting_layer(piles[pile], x, y, B.puck_radius))
        )
    disks = piles[0] + piles[1]
    back = toward + math.pi + side
    jr = B.jack_radius + B.puck_radius + 1e-6
    jx, jy = jr * math.cos(back), jr * math.sin(back)
    assume(resting_layer(disks, jx, jy, B.jack_radius) == 0)
    speed = math.exp(log_speed)
    heading = math.atan2(-jy, -jx) + aim
    disks.append(Disk.jack("J", jx, jy, speed * math.cos(heading), speed * math.sin(heading)))
    res = simulate_pile(disks, len(offsets))
    assert not res.truncated
    assert_invariants(res, disks, B)
    assert_playable_again(res)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-0.05, 0.05), st.floats(-0.05, 0.05), st.integers(0, 3)),
        max_size=10,
    ),
    st.floats(-0.03, 0.03),
    st.floats(-0.03, 0.03),
)
def test_R6e_resting_layer_of_arrays_is_resting_layer(
    disks: list[tuple[float, float, int]], x: float, y: float
) -> None:
    layout = [Disk.puck(f"R{k}", dx, dy, layer=layer) for k, (dx, dy, layer) in enumerate(disks)]
    arrays = [np.array([d.x for d in layout]), np.array([d.y for d in layout])]
    radii = np.array([d.radius for d in layout])
    layers = np.array([d.layer for d in layout], dtype=np.int64)
    assert resting_layer_of(*arrays, radii, layers, x, y, B.jack_radius) == resting_layer(
        layout, x, y, B.jack_radius
    )
