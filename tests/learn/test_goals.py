"""Goals judged by the referee's own ruling (R3a, R6b, R7a)."""

from __future__ import annotations

from hikone_carrom.learn import Goal, goal_reached, goal_text
from hikone_carrom.rules import Color, Piece, RefereeState, ShotReport, apply
from hikone_carrom.rules.pieces import PUCKS_PER_COLOR


def _after(state: RefereeState, report: ShotReport) -> RefereeState:
    return apply(state, report)[0]


def test_two_own_pucks_keep_the_turn_and_reach_pot_two_but_not_pot_three() -> None:
    state = RefereeState.initial(2)
    report = ShotReport(pocketed=(Piece.RED, Piece.RED))
    after = _after(state, report)
    assert goal_reached(Goal.POT_TWO, Color.RED, report, after)
    assert not goal_reached(Goal.POT_THREE, Color.RED, report, after)


def test_one_own_puck_does_not_reach_pot_two() -> None:
    state = RefereeState.initial(2)
    report = ShotReport(pocketed=(Piece.RED, Piece.GREEN))
    assert not goal_reached(Goal.POT_TWO, Color.RED, report, _after(state, report))


def test_two_pucks_with_the_striker_in_a_pocket_lose_the_turn_so_miss_the_goal() -> None:
    state = RefereeState.initial(2)
    report = ShotReport(pocketed=(Piece.RED, Piece.RED), striker_pocketed=True)  # R5a
    assert not goal_reached(Goal.POT_TWO, Color.RED, report, _after(state, report))


def test_the_jack_last_wins_and_the_jack_early_does_not() -> None:
    start = RefereeState.initial(2)
    last = start.evolve(pocketed=(PUCKS_PER_COLOR, 0), has_shot=(True, True))
    report = ShotReport(pocketed=(Piece.JACK,))
    assert goal_reached(Goal.JACK_LAST, Color.RED, report, _after(last, report))
    early = start.evolve(pocketed=(PUCKS_PER_COLOR - 1, 0), has_shot=(True, True))
    assert not goal_reached(Goal.JACK_LAST, Color.RED, report, _after(early, report))


def test_every_goal_has_a_japanese_and_an_english_sentence_with_its_rule() -> None:
    for goal in Goal:
        ja, en = goal_text(goal)
        assert ja != en and "（R" in ja and "(R" in en
