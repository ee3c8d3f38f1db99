"""The action mapping (R2a, R2b): every action is a legal shot, the whole free line is reachable."""

from __future__ import annotations

import math

import numpy as np
import pytest
from env_helpers import BOARD, position
from hypothesis import given, settings
from hypothesis import strategies as st

from hikone_carrom.env import SoloClearEnv, action_of, shot_of
from hikone_carrom.env.actions import MAX_AIM, MIN_SPEED, forward_angle, meant_of, meant_of_many
from hikone_carrom.match import Match, PlacementKind, legal_placement
from hikone_carrom.match.hand import FEW
from hikone_carrom.match.pieces import disk_for
from hikone_carrom.rules import RuleOptions

unit = st.floats(-1.0, 1.0, allow_nan=False)
LINE_Y = -(BOARD.half_width - BOARD.area_line_offset)


def _covered_line(xs: list[float]) -> Match:
    """Red pucks lying on seat 0's area line at ``xs`` (m), the jack in the centre."""
    pieces = [("J", 0.0, 0.0)] + [(f"R{k}", x, LINE_Y) for k, x in enumerate(xs)]
    return position(pieces)


@settings(max_examples=300, deadline=None)
@given(
    xs=st.lists(st.floats(-0.2, 0.2), min_size=0, max_size=8, unique=True).filter(
        lambda xs: all(abs(a - b) > 0.031 for i, a in enumerate(xs) for b in xs[i + 1 :])
    ),
    action=st.tuples(unit, unit, unit),
)
def test_R2b_every_action_is_a_legal_shot_on_a_partly_covered_line(
    xs: list[float], action: tuple[float, float, float]
) -> None:
    match = _covered_line(xs)
    placement = match.legal_placement()
    shot = shot_of(placement, action, BOARD)
    assert shot is not None  # at most 8 pucks cannot cover the 0.4 m line
    match.check(shot)  # raises IllegalShotError if the shot were not legal
    assert MIN_SPEED <= shot.speed <= BOARD.max_speed


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_R2a_a_first_shot_is_from_the_tee_spot_whatever_place_says(seat: int) -> None:
    match = Match(players=4)
    placement = legal_placement(BOARD, seat, 4, True, match.layout)
    assert placement.kind is PlacementKind.POINT
    for place in (-1.0, 0.3, 1.0):
        shot = shot_of(placement, (place, 0.0, 0.0), BOARD)
        assert shot is not None and (shot.x, shot.y) == placement.point


def _wholly_covered(options: RuleOptions | None = None) -> Match:
    """14 pucks edge to edge over the whole of seat 0's area line (no lane beside it is free)."""
    xs = [-0.195 + 0.0301 * k for k in range(14)]
    pieces = [(f"R{k}", x, LINE_Y) for k, x in enumerate(xs[:12])]
    pieces += [("G0", xs[12], LINE_Y), ("G1", xs[13], LINE_Y), ("J", 0.0, 0.0)]
    return position(pieces, options=options)


@given(action=st.tuples(unit, unit, unit))
@settings(max_examples=50, deadline=None)
def test_R2b_a_wholly_covered_line_places_at_the_nearest_free_point(
    action: tuple[float, float, float],
) -> None:
    match = _wholly_covered()
    placement = match.legal_placement()
    assert placement.kind is PlacementKind.POINT and placement.rule == "R2b"
    shot = shot_of(placement, action, BOARD)
    match.check(shot)
    assert (shot.x, shot.y) == placement.point


def test_R2b_a_wholly_covered_line_passes_the_turn_under_the_pass_reading() -> None:
    match = _wholly_covered(RuleOptions(covered_area_line="pass"))
    assert match.must_pass
    env = SoloClearEnv(noise=0.0, options=RuleOptions(covered_area_line="pass"))
    env.reset(seed=0, options={"position": match})
    _, reward, terminated, truncated, info = env.step(np.zeros(3, dtype=np.float32))
    assert info["passed"] and {"R2b", "R3d"} <= set(info["reasons"])
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["strikes"] == 1
    assert env.match().referee.state == env.game.tables.states[0]


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_place_runs_from_the_shooters_left_to_right_and_aim_is_relative_to_forward(
    seat: int,
) -> None:
    layout = (disk_for(BOARD, "J", 0.0, 0.0),)
    placement = legal_placement(BOARD, seat, 4, False, layout)
    forward = forward_angle(placement)
    side = BOARD.seat_side(seat, 4)
    centre = BOARD.tee_spot(side)
    assert math.isclose(forward, math.atan2(-centre.y, -centre.x))
    left = shot_of(placement, (-1.0, 0.0, -1.0), BOARD)
    right = shot_of(placement, (1.0, 0.5, 1.0), BOARD)
    assert left is not None and right is not None
    # the left end lies counter-clockwise of forward, seen from the shooter's spot
    to_left = math.atan2(left.y - centre.y, left.x - centre.x)
    assert math.isclose(math.remainder(to_left - forward, 2 * math.pi), math.pi / 2, abs_tol=1e-6)
    assert math.isclose(left.angle, math.remainder(forward, 2 * math.pi), abs_tol=1e-12)
    assert math.isclose(
        math.remainder(right.angle - forward, 2 * math.pi), 0.5 * MAX_AIM, abs_tol=1e-12
    )
    assert (left.speed, right.speed) == (MIN_SPEED, BOARD.max_speed)


@settings(max_examples=200, deadline=None)
@given(
    xs=st.lists(st.floats(-0.2, 0.2), min_size=1, max_size=5, unique=True).filter(
        lambda xs: all(abs(a - b) > 0.031 for i, a in enumerate(xs) for b in xs[i + 1 :])
    ),
    action=st.tuples(unit, st.floats(-0.999, 0.999), unit),
)
def test_action_of_inverts_shot_of(xs: list[float], action: tuple[float, float, float]) -> None:
    placement = _covered_line(xs).legal_placement()
    shot = shot_of(placement, action, BOARD)
    assert shot is not None
    again = shot_of(placement, action_of(placement, shot, BOARD), BOARD)
    assert again is not None
    assert math.hypot(again.x - shot.x, again.y - shot.y) < 1e-6
    assert abs(math.remainder(again.angle - shot.angle, 2 * math.pi)) < 1e-6
    assert abs(again.speed - shot.speed) < 1e-6


def test_the_whole_free_line_is_reachable() -> None:
    placement = _covered_line([0.0]).legal_placement()  # a puck in the middle of the line
    xs = []
    for place in np.linspace(-1.0, 1.0, 401):
        shot = shot_of(placement, (float(place), 0.0, 0.0), BOARD)
        assert shot is not None
        xs.append(shot.x)
    clearance = BOARD.puck_radius + BOARD.striker_radius
    assert min(xs) < -0.199 and max(xs) > 0.199
    assert min(abs(x) for x in xs) >= clearance - 1e-9  # never on the puck
    gaps = np.diff(sorted(xs))
    assert gaps.max() < 2 * clearance + 0.002  # one jump over the puck, no other hole


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.floats(-0.2, 0.2), max_size=6, unique=True).filter(
        lambda xs: all(abs(a - b) > 0.031 for i, a in enumerate(xs) for b in xs[i + 1 :])
    ),
    st.lists(
        st.tuples(*[st.floats(-1.5, 1.5, allow_nan=False) | st.just(-0.0)] * 3),
        min_size=1,
        max_size=12,
    ),
)
def test_R2b_meant_of_many_is_meant_of_of_each(
    xs: list[float], actions: list[tuple[float, float, float]]
) -> None:
    m = _covered_line(xs)
    placements = [m.legal_placement(), legal_placement(BOARD, 0, 2, True, m.layout)]
    ps = [placements[k % 2] for k in range(len(actions))]
    got = meant_of_many(ps, np.array(actions), BOARD)
    want = np.array([meant_of(p, a, BOARD) for p, a in zip(ps, actions, strict=True)])
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("seed", range(8))
def test_R2b_meant_of_many_on_arrays_is_meant_of_of_each(seed: int) -> None:
    # a batch large enough for the array path; lanes of one and of several free parts, and the
    # tee spot of a first shot (R2a); actions beyond [-1, 1] and -0.0 (NaN is refused:
    # test_env_refusals.py)
    rng = np.random.default_rng(seed)
    m = _covered_line([-0.12, 0.05])
    free = _covered_line([])
    placements = [
        free.legal_placement(),  # one free part, seat 0
        legal_placement(BOARD, 1, 2, False, free.layout),  # one free part, seat 1
        m.legal_placement(),
        legal_placement(BOARD, 0, 2, True, m.layout),
        _covered_line([-0.15, 0.0, 0.15]).legal_placement(),
        Match().legal_placement(),
    ]
    actions = rng.uniform(-1.4, 1.4, (FEW + 3 * seed, 3))
    actions[rng.random(actions.shape) < 0.05] = -0.0
    ps = [placements[k] for k in rng.integers(0, len(placements), len(actions))]
    got = meant_of_many(ps, actions, BOARD)
    want = np.array([meant_of(p, a, BOARD) for p, a in zip(ps, actions, strict=True)])
    assert got.tobytes() == want.tobytes()
