"""The drills (練習): every set position stands, red to shoot from its area line, and its
shot reaches its goal under the exact physics and the referee; a straight shot from the middle
of the line does not; stars count the strikes."""

from __future__ import annotations

import math

import pytest

from hikone_carrom.learn.drills import DRILLS, Drill, drill_by_id, stars
from hikone_carrom.learn.goals import Goal, goal_reached, goal_text
from hikone_carrom.learn.verify import exact_reaches
from hikone_carrom.match import Shot
from hikone_carrom.rules import Color, Piece, RefereeState, ShotReport, apply


@pytest.mark.parametrize("drill", DRILLS, ids=[d.id for d in DRILLS])
def test_each_drill_is_reached_by_its_shot_and_not_by_a_plain_one(drill: Drill) -> None:
    match = drill.match()
    assert match.color(match.shooter) is Color.RED
    assert exact_reaches(match, drill.goal, drill.solution)
    (ax, ay), (bx, by) = match.legal_placement().line
    plain = Shot((ax + bx) / 2, (ay + by) / 2, math.pi / 2, 2.0)
    assert not exact_reaches(match, drill.goal, plain)
    assert all(drill.name) and all(drill.tip) and all(goal_text(drill.goal))


def test_drills_are_named_once_and_found_by_id() -> None:
    ids = [d.id for d in DRILLS]
    assert len(ids) == len(set(ids)) == 5
    assert drill_by_id("bank") is DRILLS[2]
    assert drill_by_id("nope") is None


def test_stars_count_the_strikes() -> None:
    assert [stars(n) for n in (1, 2, 3, 4, 9)] == [3, 2, 2, 1, 1]


def test_one_own_puck_that_keeps_the_turn_reaches_pot_one() -> None:
    state = RefereeState.initial(2)
    own = ShotReport(pocketed=(Piece.RED,))
    assert goal_reached(Goal.POT_ONE, Color.RED, own, apply(state, own)[0])
    theirs = ShotReport(pocketed=(Piece.GREEN,))
    assert not goal_reached(Goal.POT_ONE, Color.RED, theirs, apply(state, theirs)[0])
