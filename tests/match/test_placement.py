"""Striker placement (R2a, R2b): where the striker may stand, and refusals that change nothing."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from match_helpers import BOARD, position

from hikone_carrom.board import Side
from hikone_carrom.match import (
    ActionKind,
    IllegalShotError,
    Match,
    NoPlacementError,
    PlacementKind,
    Shot,
)
from hikone_carrom.match.freepoint import Band, nearest_free_point
from hikone_carrom.match.placement import surely_free
from hikone_carrom.records import layout_hash
from hikone_carrom.rules import RuleOptions, explain


def test_R2a_first_shot_is_from_the_tee_spot() -> None:
    m = Match(players=2)
    p = m.legal_placement()
    assert p.kind is PlacementKind.POINT
    assert p.point == tuple(BOARD.tee_spot(Side.SOUTH))
    assert not p.covered
    with pytest.raises(IllegalShotError) as err:
        m.play(Shot(0.05, p.point[1], math.pi / 2, 2.0))
    assert err.value.rule == "R2a"
    assert "ティースポット" in err.value.reason("ja")
    assert m.actions == () and m.referee.state.shots == 0


def test_R2a_covered_tee_spot_gives_nearest_free_point() -> None:
    tee = BOARD.tee_spot(Side.SOUTH)
    m = position([("J", 0.0, 0.0), ("R0", tee.x, tee.y)], first_shots_done=False)
    p = m.legal_placement()
    assert p.covered and p.kind is PlacementKind.POINT
    # One puck centred on the spot: the nearest free point is one striker+puck radius away.
    d = math.hypot(p.point[0] - tee.x, p.point[1] - tee.y)
    assert d == pytest.approx(BOARD.puck_radius + BOARD.striker_radius, abs=1e-8)
    assert p.contains(*p.point)


def test_R2a_nearest_free_point_between_two_obstacles() -> None:
    r = 0.03
    # Two obstacles side by side over the target: the answer is where their circles meet, or above.
    found = nearest_free_point((0.0, 0.0), [(-0.01, 0.0, r), (0.01, 0.0, r)], 0.285)
    assert found is not None
    x, y = found
    assert math.hypot(x + 0.01, y) >= r and math.hypot(x - 0.01, y) >= r
    assert abs(x) < 1e-9 and abs(y) == pytest.approx(math.sqrt(r * r - 0.01**2), abs=1e-8)


def test_R2b_later_shots_anywhere_on_the_area_line() -> None:
    m = position([("J", 0.0, 0.0), ("R0", 0.1, 0.05)])
    p = m.legal_placement()
    assert p.kind is PlacementKind.LINE
    y = BOARD.tee_spot(Side.SOUTH).y
    assert p.contains(-0.15, y) and p.contains(0.15, y)
    assert p.contains(0.0, y + 0.9 * BOARD.striker_radius)  # overlapping the line is enough
    assert not p.contains(0.0, y + 1.1 * BOARD.striker_radius)
    assert p.free_intervals() == ((0.0, 1.0),)


def test_R2b_off_line_or_overlapping_placement_is_refused_and_changes_nothing() -> None:
    y = BOARD.tee_spot(Side.SOUTH).y
    m = position([("J", 0.0, 0.0), ("G0", 0.05, y)])
    before = layout_hash(m.layout)
    state = m.referee.state
    for x, yy in ((0.0, 0.0), (0.06, y), (0.05 + 0.02, y)):
        with pytest.raises(IllegalShotError) as err:
            m.play(Shot(x, yy, math.pi / 2, 2.0))
        assert err.value.rule == "R2b"
    assert layout_hash(m.layout) == before and m.referee.state == state and m.actions == ()
    free = m.legal_placement().free_intervals()
    assert len(free) == 2  # the puck on the line splits it


def test_R2b_nearest_moves_onto_a_free_part_of_the_line() -> None:
    y = BOARD.tee_spot(Side.SOUTH).y
    m = position([("J", 0.0, 0.0), ("G0", 0.0, y)])
    p = m.legal_placement()
    x, yy = p.nearest(0.001, y)
    assert p.contains(x, yy)
    assert abs(x) == pytest.approx(BOARD.puck_radius + BOARD.striker_radius, abs=1e-6)


@pytest.mark.parametrize("speed", [0.0, -1.0, 5.01, float("nan")])
def test_bad_speed_is_refused(speed: float) -> None:
    m = Match()
    x, y = m.legal_placement().point
    with pytest.raises(IllegalShotError):
        m.play(Shot(x, y, 1.0, speed))
    assert m.actions == ()


_LINE_Y = BOARD.tee_spot(Side.SOUTH).y


def covered_in_front() -> list[tuple[str, float, float]]:
    """Pucks just in front of the south area line, 5 cm apart: no centre on the line is free,
    but behind it, where the striker still overlaps the line, there is room (R2b)."""
    return [("J", 0.0, 0.0)] + [(f"R{k}", -0.2 + 0.05 * k, _LINE_Y + 0.012) for k in range(9)]


def covered_wholly() -> list[tuple[str, float, float]]:
    """Pucks on the south area line, 3.5 cm apart from end to end: no free place overlaps it."""
    return [("J", 0.0, 0.0)] + [(f"R{k}", -0.2 + 0.035 * k, _LINE_Y) for k in range(12)]


def test_R2b_a_covered_line_leaves_a_lane_behind_it() -> None:
    m = position(covered_in_front())
    p = m.legal_placement()
    assert p.kind is PlacementKind.LINE and p.rule == "R2b"
    (_, y0), (_, y1) = p.lane
    assert y0 == y1 < _LINE_Y  # parallel, behind the line (towards the rail)
    assert _LINE_Y - y0 < BOARD.striker_radius  # still overlapping the line
    assert p.free_intervals()
    x, y = p.nearest(0.0, _LINE_Y)
    assert p.contains(x, y) and y == y0
    m.play(Shot(x, y, math.pi / 2, 1.0))  # Match.play accepts it
    assert m.referee.state.shots == 1


def test_R2b_lane_free_points_match_a_brute_force_scan() -> None:
    """Every free lane point is a legal placement and the lane has the room a scan finds."""
    p = position(covered_in_front()).legal_placement()
    (x0, y0), (x1, y1) = p.lane
    fractions = [k / 2000 for k in range(2001)]
    legal = [f for f in fractions if p.contains(x0 + f * (x1 - x0), y0 + f * (y1 - y0))]
    free = p.free_intervals()
    assert len(legal) / len(fractions) == pytest.approx(sum(b - a for a, b in free), abs=2e-3)
    assert all(any(a <= f <= b for a, b in free) for f in legal)


def test_R2b_reading_a_wholly_covered_line_nearest_free_point() -> None:
    """covered_area_line = "nearest_free" (default): the striker goes at the free point nearest
    the tee spot, as for a covered tee spot on a first shot (R2a)."""
    m = position(covered_wholly())
    p = m.legal_placement()
    assert p.kind is PlacementKind.POINT and p.rule == "R2b" and p.covered
    tee = BOARD.tee_spot(Side.SOUTH)
    assert p.point == nearest_free_point(tuple(tee), p.obstacles, BOARD.half_width - p.radius)
    assert not BOARD.overlaps_area_line(Side.SOUTH, *p.point, BOARD.striker_radius)
    with pytest.raises(IllegalShotError) as err:
        m.play(Shot(0.0, _LINE_Y - 0.014, math.pi / 2, 1.0))
    assert err.value.rule == "R2b" and "ティースポット" in err.value.reason("ja")
    assert not m.must_pass
    m.play(Shot(*p.point, math.pi / 2, 1.0))
    assert m.referee.state.shots == 1


def test_R2b_reading_a_wholly_covered_line_passes_the_turn() -> None:
    """covered_area_line = "pass": no placement; the turn passes without penalty (R3d)."""
    m = position(covered_wholly(), options=RuleOptions(covered_area_line="pass"))
    with pytest.raises(NoPlacementError) as err:
        m.legal_placement()
    assert err.value.rule == "R2b" and isinstance(err.value, IllegalShotError)
    assert m.must_pass
    state = m.referee.state
    with pytest.raises(NoPlacementError):
        m.play(Shot(0.0, _LINE_Y - 0.014, math.pi / 2, 1.0))
    assert m.referee.state == state
    ruling = m.pass_turn()
    assert ruling.skipped and ruling.penalty == 0 and ruling.reasons == ("R2b", "R3d")
    assert m.shooter == 1 and m.actions[-1].kind is ActionKind.PASS
    assert "パス" in " ".join(explain(ruling, "ja")) and "R2b" in explain(ruling)[0]
    m.undo()
    assert m.referee.state == state


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-0.24, 0.24), st.floats(-0.27, -0.15), st.floats(0.02, 0.045)),
        max_size=14,
    ),
    st.floats(-0.25, 0.25),
)
def test_nearest_free_point_in_a_band_is_the_nearest_a_scan_finds(
    obstacles: list[tuple[float, float, float]], tx: float
) -> None:
    band = Band((0.2, -0.21), (-0.2, -0.21), 0.015)
    half = 0.285
    target = (tx, -0.21)
    found = nearest_free_point(target, obstacles, half, band)

    def free(x: float, y: float) -> bool:
        return (
            abs(x) <= half
            and band.distance((x, y)) <= band.reach
            and all(math.hypot(x - cx, y - cy) >= r for cx, cy, r in obstacles)
        )

    step = 0.001
    scan = [
        (-0.216 + i * step, -0.226 + j * 0.0005)
        for i in range(433)
        for j in range(33)
        if free(-0.216 + i * step, -0.226 + j * 0.0005)
    ]
    if found is None:
        assert not scan
        return
    assert free(*found)
    nearest = min((math.hypot(x - tx, y + 0.21) for x, y in scan), default=math.inf)
    assert math.hypot(found[0] - tx, found[1] + 0.21) <= nearest + 1e-9


@settings(max_examples=60, deadline=None)
@given(
    st.floats(-0.25, 0.1),
    st.lists(st.floats(-0.01, 0.01), min_size=1, max_size=3),
    st.integers(0, 3),
    st.lists(st.tuples(st.floats(-0.25, 0.25), st.floats(-0.02, 0.02)), min_size=1, max_size=40),
)
def test_R2b_surely_free_is_contains_where_it_says_yes(
    start: float, offsets: list[float], seat: int, points: list[tuple[float, float]]
) -> None:
    # pucks on or near a doubles seat's area line; points on it, beyond its ends, off it, and
    # exactly on an obstacle's edge (all drawn in the south frame, turned to the seat's side)
    side = BOARD.seat_side(seat, 4)
    c, s = {Side.SOUTH: (1, 0), Side.EAST: (0, 1), Side.NORTH: (-1, 0), Side.WEST: (0, -1)}[side]
    y = BOARD.tee_spot(Side.SOUTH).y

    def turned(u: float, v: float) -> tuple[float, float]:
        return (c * u - s * v, s * u + c * v)

    pucks = [(f"G{k}", *turned(start + 0.05 * k, y + dy)) for k, dy in enumerate(offsets)]
    p = position([("J", 0.0, 0.0), *pucks], players=4, shooter=seat).legal_placement()
    assert p.side is side and p.kind is PlacementKind.LINE and p.obstacles
    pts = [turned(u, y + v) for u, v in points]
    pts += [(cx + r, cy) for cx, cy, r in p.obstacles]  # on the edge (hypot == clearance)
    xs, ys = np.array(pts).T
    got = surely_free([p] * len(xs), xs, ys).tolist()
    want = [p.contains(float(a), float(b)) for a, b in pts]
    assert all(w for g, w in zip(got, want, strict=True) if g)
    # everywhere but within rounding of an obstacle's edge it decides as contains does
    edge = [
        any(abs(math.hypot(a - cx, b - cy) - r) < 1e-9 for cx, cy, r in p.obstacles) for a, b in pts
    ]
    assert [g for g, e in zip(got, edge, strict=True) if not e] == [
        w for w, e in zip(want, edge, strict=True) if not e
    ]
