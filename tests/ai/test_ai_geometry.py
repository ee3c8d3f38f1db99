"""Aiming geometry checked against the exact physics (one disk alone, SI units)."""

from __future__ import annotations

import math

import pytest

from hikone_carrom.ai.geometry import (
    bank_point,
    ghost_point,
    launch_speed,
    line_point_on_ray,
    line_points,
    pocket_aims,
    speed_after_rail,
    transfer_ratio,
)
from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match import Match
from hikone_carrom.physics import Disk, simulate
from hikone_carrom.physics.result import position_on_segment

BOARD = BoardSpec()


def _lone_shot(x: float, y: float, angle: float, speed: float) -> Disk:
    result = simulate([Disk.shot("S", x, y, angle, speed, board=BOARD)], board=BOARD, fly_off=False)
    (final,) = result.final
    return final


def test_launch_speed_arrives_with_the_asked_speed() -> None:
    d, arrival = 0.3, 0.4
    v0 = launch_speed(BOARD, [(d, 1.0)], arrival)
    final = _lone_shot(0.0, -0.2, math.pi / 2, v0)
    stop = d + arrival**2 / (2 * BOARD.deceleration)
    assert final.y == pytest.approx(-0.2 + stop, abs=1e-9)


@pytest.mark.parametrize("board", [BOARD, BoardSpec.legacy()], ids=["rail friction", "none"])
@pytest.mark.parametrize(
    ("sx", "sy", "gx", "gy"),
    [(-0.1, -0.21, 0.15, 0.05), (0.1, 0.2, 0.2, -0.2), (0.2, -0.1, 0.22, -0.05)],
    ids=["up", "down", "steep"],
)
def test_bank_point_sends_the_disk_through_the_goal(
    board: BoardSpec, sx: float, sy: float, gx: float, gy: float
) -> None:
    bx, by = bank_point(board, Side.EAST, board.striker_radius, sx, sy, gx, gy) or (0.0, 0.0)
    assert bx == pytest.approx(board.half_width - board.striker_radius)
    angle = math.atan2(by - sy, bx - sx)
    result = simulate([Disk.shot("S", sx, sy, angle, 3.0, board=board)], board=board, fly_off=False)
    (track,) = result.tracks().values()
    before, after = track.segments[:2]  # the legs before and after the rail
    # The straight line of the second leg passes through the goal.
    cross = (gx - after.x) * after.vy - (gy - after.y) * after.vx
    assert abs(cross) / math.hypot(after.vx, after.vy) < 1e-9
    # and the rail kept the fraction of the speed the geometry says
    v_in = position_on_segment(before, after.t_start)
    kept = speed_after_rail(
        board,
        Side.EAST,
        v_in.vx / math.hypot(v_in.vx, v_in.vy),
        v_in.vy / math.hypot(v_in.vx, v_in.vy),
    )
    assert math.hypot(after.vx, after.vy) == pytest.approx(
        kept * math.hypot(v_in.vx, v_in.vy), rel=1e-12
    )


def test_no_bank_behind_the_rail() -> None:
    assert bank_point(BOARD, Side.NORTH, 0.015, 0.0, 0.29, 0.0, 0.0) is None


def test_ghost_point_and_transfer() -> None:
    gx, gy = ghost_point(0.0, 0.0, 1.0, 0.0, 0.03)
    assert (gx, gy) == pytest.approx((-0.03, 0.0))
    full = transfer_ratio(BOARD, 0.004, 0.004, 1.0)
    assert full == pytest.approx((1 + BOARD.restitution_disk) / 2)
    assert transfer_ratio(BOARD, 0.004, 0.004, -0.5) == 0.0


def test_pocket_aims_are_over_the_holes() -> None:
    for x, y in pocket_aims(BOARD):
        assert BOARD.is_over_pocket(x, y)
        assert BOARD.inside_surface(x, y, BOARD.puck_radius)


def test_line_points_are_legal() -> None:
    match = Match(seed=0)
    match.play(match.legal_placement().point and _first_shot(match))
    match.pass_turn()
    placement = match.legal_placement()
    points = line_points(placement, 9)
    assert points and all(placement.contains(x, y) for x, y in points)
    straight = line_point_on_ray(placement, 0.0, 0.0, 0.0, 1.0)
    assert straight is not None and straight[0] == pytest.approx(0.0)
    assert line_point_on_ray(placement, 0.0, 0.0, 1.0, 0.0) is None  # parallel to the line


def _first_shot(match: Match):  # type: ignore[no-untyped-def]
    from hikone_carrom.match import Shot

    x, y = match.legal_placement().point
    return Shot(x, y, 0.0, 0.5)
