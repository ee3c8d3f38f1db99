"""Striker placement (R2a, R2b): where the striker may stand, and refusals that change nothing."""

from __future__ import annotations

import math

import pytest
from match_helpers import BOARD, position

from hikone_carrom.board import Side
from hikone_carrom.match import IllegalShotError, Match, PlacementKind, Shot
from hikone_carrom.match.freepoint import nearest_free_point
from hikone_carrom.records import layout_hash


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
