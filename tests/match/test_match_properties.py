"""Properties of match play over random shot sequences (hypothesis): every piece accounted for,
a valid layout at rest (no overlap within a layer, nothing floating), undo exact, records replay."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from match_helpers import accounted

from hikone_carrom.match import Match, Noise, PlacementKind, Shot, shot_seed, shot_seeds
from hikone_carrom.physics import Disk
from hikone_carrom.records import layout_hash, replay, to_record

_shot = st.tuples(
    st.floats(0.0, 1.0),  # where on the free parts of the area line
    st.floats(-1.4, 1.4),  # angle off straight across the board (rad)
    st.floats(0.3, 5.0),  # speed (m/s)
    st.floats(-0.02, 0.02),  # angle noise (rad)
)


def _valid_layout(layout: tuple[Disk, ...]) -> None:
    for i, a in enumerate(layout):
        for b in layout[i + 1 :]:
            if a.layer == b.layer:
                assert math.hypot(a.x - b.x, a.y - b.y) >= a.radius + b.radius - 1e-9
        if a.layer > 0:
            assert any(
                o.layer == a.layer - 1 and math.hypot(o.x - a.x, o.y - a.y) < o.radius + a.radius
                for o in layout
            ), f"{a.id} floats"


def _shot_for(m: Match, where: float, off: float, speed: float) -> Shot:
    p = m.legal_placement()
    if p.kind is PlacementKind.POINT:
        x, y = p.point
    else:
        free = p.free_intervals()
        lo, hi = free[min(int(where * len(free)), len(free) - 1)]
        t = lo + (hi - lo) * (0.05 + 0.9 * where)
        (x0, y0), (x1, y1) = p.line
        x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
    inward = (
        math.atan2(-y, -x)
        if p.kind is PlacementKind.POINT
        else math.atan2(-p.point[1], -p.point[0])
    )
    return Shot(x, y, inward + off, speed)


@settings(max_examples=80, deadline=None)
@given(
    players=st.sampled_from([2, 4]),
    seed=st.integers(0, 2**31),
    shots=st.lists(_shot, min_size=1, max_size=8),
)
def test_random_shot_sequences_keep_every_invariant(
    players: int, seed: int, shots: list[tuple[float, float, float, float]]
) -> None:
    m = Match(players, seed=seed)
    for where, off, speed, dangle in shots:
        if m.is_over:
            break
        before = (layout_hash(m.layout), m.referee.state, len(m.actions))
        m.play(_shot_for(m, where, off, speed), Noise(dangle=dangle))
        accounted(m)
        _valid_layout(m.layout)
        after = (layout_hash(m.layout), m.referee.state, len(m.actions))
        m.undo()
        assert (layout_hash(m.layout), m.referee.state, len(m.actions)) == before
        m.play(_shot_for(m, where, off, speed), Noise(dangle=dangle))
        assert (layout_hash(m.layout), m.referee.state, len(m.actions)) == after
    again = replay(to_record(m))
    assert layout_hash(again.layout) == layout_hash(m.layout)
    assert again.referee.state == m.referee.state


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, (1 << 70) - 1), st.integers(0, 1 << 40)), min_size=1, max_size=8
    )
)
def test_shot_seeds_are_shot_seed_of_each_match(pairs: list[tuple[int, int]]) -> None:
    seeds = shot_seeds([s for s, _ in pairs], np.array([i for _, i in pairs], dtype=np.int64))
    assert seeds.tolist() == [shot_seed(s, i) for s, i in pairs]
