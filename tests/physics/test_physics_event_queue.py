"""The engine's event queue: the pair table's row minima find the same next pair as a full scan,
and the box around a moving disk's path skips only pairs that have no event."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hikone_carrom.bench.scenes import midgame_layout, random_shot
from hikone_carrom.board import BoardSpec
from hikone_carrom.physics import Disk
from hikone_carrom.physics import _engine as E
from hikone_carrom.physics._pack import board_params, pack

B = BoardSpec()
TIMES = (0.0, 0.5, 0.5, 1.0, 2.0, math.inf)
"""Few distinct values, so that ties are common."""


def _scan(PT: np.ndarray, best: float) -> tuple[float, int, int]:
    """The earliest pair below ``best`` by a full scan in (i, j) order (strict <)."""
    bi = bj = -1
    n = PT.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            if PT[i, j] < best:
                best, bi, bj = float(PT[i, j]), i, j
    return best, bi, bj


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(2, 7),
    writes=st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 6), st.sampled_from(TIMES)), max_size=40
    ),
    own=st.sampled_from(TIMES),
)
def test_row_minima_find_the_first_earliest_pair(
    n: int, writes: list[tuple[int, int, float]], own: float
) -> None:
    PT = np.full((n, n), math.inf)
    for a, b, t in writes:
        i, j = sorted((a % n, b % n))
        if i == j:
            continue
        E.set_pair(PT, i, j, t)
        for r in range(n):
            assert PT[r, r] == min(PT[r, r + 1 :], default=math.inf)
        # an own event at time ``own`` wins ties: a pair must be strictly earlier
        assert E.first_pair(PT, own) == _scan(PT, own)


def _at_start(disks: list[Disk]) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """State arrays as the engine sets them up before the first event, and the striker's row."""
    params = board_params(B)
    ordered, S, L = pack(disks, B, params)
    for i in range(len(ordered)):
        E.set_motion(
            S, i, 0.0, S[i, E.X], S[i, E.Y], S[i, E.VX], S[i, E.VY], 0.0, params[E.P_DECEL]
        )
        L[i, E.STATUS] = E.ON_BOARD
        L[i, E.CARRIER] = -1
        L[i, E.HOLD] = E.FREE
    return S, L, params, [d.id for d in ordered].index("S")


def _assert_refresh_matches_every_pair_time(disks: list[Disk]) -> None:
    S, L, params, s = _at_start(disks)
    n = S.shape[0]
    PT = np.full((n, n), math.inf)
    OT = np.full(n, math.inf)
    OC = np.zeros(n, dtype=np.int64)
    OA = np.zeros(n, dtype=np.int64)
    E.refresh(S, L, s, 0.0, params, PT, OT, OC, OA)
    for k in range(n):
        if k != s:
            i, j = min(s, k), max(s, k)
            assert PT[i, j] == E.pair_time(S, L, i, j, 0.0, params), (i, j)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_path_box_skips_only_pairs_without_an_event(seed: int) -> None:
    rng = np.random.default_rng(seed)
    layout = midgame_layout(rng, B)
    x, y, vx, vy = random_shot(rng, layout, B)
    _assert_refresh_matches_every_pair_time([*layout, Disk.striker("S", x, y, vx, vy)])


@given(
    side=st.sampled_from((-1.0, 1.0)),
    gap=st.sampled_from((-1e-9, -1e-12, 0.0, 1e-12, 1e-9)),
    ahead=st.floats(-0.05, 0.05),
)
def test_pucks_grazing_the_end_of_the_path_keep_their_pair_time(
    side: float, gap: float, ahead: float
) -> None:
    # the striker slides 0.3 m up the board; a puck beside its path or just beyond the stop, at
    # the two radii (+ gap) from the path's end
    striker = Disk.striker("S", 0.0, -0.2, 0.0, math.sqrt(2.0 * 0.3 * B.deceleration))
    S, _, _, s = _at_start([striker])
    stop_y = E.state_at(S, s, S[s, E.TSTOP])[1]
    probe = Disk.puck("R0", 0.0, 0.0)
    reach = striker.radius + probe.radius + gap
    ang = math.atan2(ahead, reach)
    px = side * reach * math.cos(ang)
    py = stop_y + reach * math.sin(ang)
    jack = Disk.jack("J", 0.2, -0.2)
    _assert_refresh_matches_every_pair_time([striker, Disk.puck("R0", px, py), jack])
    _assert_refresh_matches_every_pair_time([striker, Disk.puck("R0", 0.0, stop_y + reach), jack])
