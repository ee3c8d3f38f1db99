"""One or more tests per rule id of docs/rules.md (R1a ... R8a), each asserting the exact ruling."""

from __future__ import annotations

import pytest
from rules_helpers import referee_at, ruling

from hikone_carrom.rules import (
    Color,
    Foul,
    GameOverError,
    ImpossibleReportError,
    InvalidOptionsError,
    InvalidReportError,
    LotNotPendingError,
    LotPendingError,
    MatchClock,
    Outcome,
    Piece,
    Referee,
    RefereedFoulError,
    RuleOptions,
    ShotReport,
    TimeAlreadyCalledError,
    UnshootableInSinglesError,
    explain,
)

R, G, J = Piece.RED, Piece.GREEN, Piece.JACK
RED, GREEN = Color.RED, Color.GREEN


# -- R1 Setup -------------------------------------------------------------------------------


def test_R1a_opening_counts_all_pucks_on_board_jack_on_spot() -> None:
    for players in (2, 4):
        ref = Referee(players=players)
        assert [ref.pocketed(c) for c in Color] == [0, 0]
        assert [ref.debt(c) for c in Color] == [0, 0]
        assert [ref.pucks_on_board(c) for c in Color] == [12, 12]
        assert not ref.jack_pocketed
        assert not ref.is_over and ref.winner is None and ref.outcome is None
        assert ref.scores() == {RED: 0, GREEN: 0}


def test_R1b_seat_zero_takes_red_and_shoots_first() -> None:
    ref = Referee(players=2)
    assert ref.shooter == 0 and ref.color(0) is RED and ref.color(1) is GREEN


def test_R1b_first_seat_option_names_the_rock_paper_scissors_winner() -> None:
    ref = Referee(players=4, options=RuleOptions(first_seat=1))
    assert ref.shooter == 1
    assert [ref.color(s) for s in range(4)] == [GREEN, RED, GREEN, RED]
    ref.report(ShotReport())
    assert ref.shooter == 2


def test_R1c_singles_alternate_red_green() -> None:
    ref = Referee(players=2)
    order = []
    for _ in range(4):
        order.append((ref.shooter, ref.color(ref.shooter)))
        ref.report(ShotReport())
    assert order == [(0, RED), (1, GREEN), (0, RED), (1, GREEN)]


def test_R1c_doubles_go_clockwise_red_a_green_a_red_b_green_b() -> None:
    ref = Referee(players=4)
    order = []
    for _ in range(5):
        order.append((ref.shooter, ref.color(ref.shooter)))
        ref.report(ShotReport())
    assert order == [(0, RED), (1, GREEN), (2, RED), (3, GREEN), (0, RED)]
    assert ref.seats(RED) == (0, 2) and ref.seats(GREEN) == (1, 3)


# -- R2 Where the striker is shot from -----------------------------------------------------


def test_R2a_each_players_first_shot_is_from_the_tee_spot() -> None:
    ref = Referee(players=4)
    assert [ref.is_first_shot(s) for s in range(4)] == [True] * 4
    ref.report(ShotReport())
    assert [ref.is_first_shot(s) for s in range(4)] == [False, True, True, True]


def test_R2a_option_only_the_games_first_shot_is_from_the_tee_spot() -> None:
    ref = Referee(players=2, options=RuleOptions(first_shot_per_player=False))
    assert ref.is_first_shot(1)
    ref.report(ShotReport())
    assert not ref.is_first_shot(1) and not ref.is_first_shot(0)


def test_R2a_a_lost_shot_keeps_the_tee_spot() -> None:
    ref = Referee(players=2)
    ref.skip_turn()
    assert ref.is_first_shot(0)


def test_R2b_later_shots_are_from_the_area_line_continuation_too() -> None:
    ref = Referee(players=2)
    r = ref.report(ShotReport(pocketed=(R,)))
    assert r.continues and ref.shooter == 0
    assert not ref.is_first_shot(0)


def test_R2c_the_referee_judges_only_the_report_same_report_same_ruling() -> None:
    a, b = Referee(players=2), Referee(players=2)
    report = ShotReport(pocketed=(R, G), off_board=(G,))
    assert a.report(report) == b.report(report)
    assert a.state == b.state
    with pytest.raises(InvalidReportError):
        ShotReport(pocketed=("striker",))  # type: ignore[arg-type]


def test_R2d_only_the_shooters_striker_is_played_another_seat_is_out_of_turn() -> None:
    ref = referee_at(2, pocketed=(3, 3))
    r = ref.report(ShotReport(seat=1))
    assert r == ruling(
        1,
        GREEN,
        penalty=1,
        fouls=(Foul.WRONG_ORDER,),
        foul_counts=(1,),
        reasons=("R5e", "R5h", "R6e"),
        returned=(G,),
        taken=1,
        next_seat=0,
    )


# -- R3 Turn and continuation ----------------------------------------------------------------


def test_R3a_own_puck_pocketed_shooter_continues_several_at_once() -> None:
    ref = Referee(players=2)
    r = ref.report(ShotReport(pocketed=(R, R, R)))
    assert r == ruling(0, RED, reasons=("R3a",), continues=True, next_seat=0)
    assert ref.pocketed(RED) == 3 and ref.shooter == 0


def test_R3b_opponent_pucks_stay_as_service_also_on_a_success() -> None:
    ref = Referee(players=2)
    r = ref.report(ShotReport(pocketed=(R, G, G)))
    assert r == ruling(0, RED, reasons=("R3a", "R3b"), service=2, continues=True, next_seat=0)
    assert ref.pocketed(GREEN) == 2


def test_R3b_only_opponent_pucks_turn_passes_they_stay() -> None:
    ref = Referee(players=2)
    r = ref.report(ShotReport(pocketed=(G,)))
    assert r == ruling(0, RED, reasons=("R3b", "R3d"), service=1, next_seat=1)
    assert ref.pocketed(GREEN) == 1 and ref.shooter == 1


def test_R3c_success_counts_when_pieces_fly_off() -> None:
    ref = Referee(players=2)
    r = ref.report(ShotReport(pocketed=(R,), off_board=(G, R)))
    assert r == ruling(
        0,
        RED,
        reasons=("R3a", "R3c", "R6c", "R6d", "R6e"),
        returned=(G, R),
        off_board=(G, R),
        continues=True,
        next_seat=0,
    )
    assert ref.pocketed(RED) == 1 and ref.pocketed(GREEN) == 0


def test_R3d_nothing_pocketed_turn_passes() -> None:
    ref = Referee(players=4)
    assert ref.report(ShotReport()) == ruling(0, RED, reasons=("R3d",), next_seat=1)
    assert ref.shooter == 1


# -- R4 Doubles: unshootable pieces ------------------------------------------------------------


def test_R4a_doubles_direct_hit_on_an_unshootable_piece_is_reported_and_restored() -> None:
    ref = referee_at(4, shooter=1, pocketed=(2, 4))
    r = ref.report(ShotReport(pocketed=(G, R), unshootable_hit=True))
    assert r == ruling(
        1,
        GREEN,
        fouls=(Foul.UNSHOOTABLE_HIT,),
        foul_counts=(0,),
        reasons=("R3d", "R4c"),
        restored=True,
        next_seat=2,
    )
    assert ref.state.pocketed == (2, 4)


def test_R4b_legal_carrier_or_bank_counts_normally() -> None:
    ref = referee_at(4, shooter=2, pocketed=(2, 4))
    r = ref.report(ShotReport(pocketed=(R,), unshootable_hit=False))
    assert r == ruling(2, RED, reasons=("R3a",), continues=True, next_seat=2)
    assert ref.pocketed(RED) == 3


def test_R4c_restored_nothing_counts_turn_passes_jack_too() -> None:
    ref = referee_at(4, shooter=3, pocketed=(12, 5))
    r = ref.report(
        ShotReport(pocketed=(J, G), striker_pocketed=True, off_board=(G,), unshootable_hit=True)
    )
    assert r == ruling(
        3,
        GREEN,
        fouls=(Foul.UNSHOOTABLE_HIT,),
        foul_counts=(0,),
        reasons=("R3d", "R4c"),
        restored=True,
        next_seat=0,
    )
    assert ref.state.pocketed == (12, 5) and not ref.is_over


def test_R4c_unshootable_penalty_option_counts_one_puck() -> None:
    ref = referee_at(4, options=RuleOptions(unshootable_penalty=1), pocketed=(0, 0))
    r = ref.report(ShotReport(unshootable_hit=True))
    assert r == ruling(
        0,
        RED,
        penalty=1,
        fouls=(Foul.UNSHOOTABLE_HIT,),
        foul_counts=(1,),
        reasons=("R3d", "R4c", "R5i"),
        debt_added=1,
        restored=True,
        next_seat=1,
    )
    assert ref.debt(RED) == 1


def test_R4d_applies_to_the_first_shot_from_the_tee_spot() -> None:
    ref = Referee(players=4)
    assert ref.is_first_shot(0)
    r = ref.report(ShotReport(pocketed=(R,), unshootable_hit=True))
    assert r.restored and not r.continues and ref.pocketed(RED) == 0
    assert not ref.is_first_shot(0)


def test_R4e_singles_has_no_unshootable_piece() -> None:
    ref = Referee(players=2)
    before = ref.state
    with pytest.raises(UnshootableInSinglesError):
        ref.report(ShotReport(unshootable_hit=True))
    assert ref.state == before and not ref.can_undo


# -- R5 Penalties --------------------------------------------------------------------------------


def test_R5a_striker_pocketed_one_puck_back_to_the_jack_spot() -> None:
    ref = referee_at(2, pocketed=(2, 0))
    r = ref.report(ShotReport(striker_pocketed=True))
    assert r == ruling(
        0,
        RED,
        penalty=1,
        fouls=(Foul.STRIKER_POCKETED,),
        foul_counts=(1,),
        reasons=("R3d", "R5a", "R5h", "R6e"),
        returned=(R,),
        taken=1,
        next_seat=1,
    )
    assert ref.pocketed(RED) == 1


def test_R5b_jack_pocketed_before_own_pucks_five_with_debt_jack_on_top() -> None:
    ref = referee_at(2, shooter=1, pocketed=(0, 3))
    r = ref.report(ShotReport(pocketed=(J,)))
    assert r == ruling(
        1,
        GREEN,
        penalty=5,
        fouls=(Foul.JACK_BEFORE_PUCKS,),
        foul_counts=(5,),
        reasons=("R3d", "R5b", "R5h", "R5i", "R5j", "R6e"),
        returned=(G, G, G, J),
        taken=3,
        debt_added=2,
        next_seat=0,
    )
    assert ref.pocketed(GREEN) == 0 and ref.debt(GREEN) == 2 and not ref.jack_pocketed


def test_R5c_striker_off_board_one_puck() -> None:
    ref = referee_at(2, pocketed=(0, 0))
    r = ref.report(ShotReport(striker_off_board=True))
    assert r == ruling(
        0,
        RED,
        penalty=1,
        fouls=(Foul.STRIKER_OFF_BOARD,),
        foul_counts=(1,),
        reasons=("R3d", "R5c", "R5i"),
        debt_added=1,
        next_seat=1,
    )
    assert ref.debt(RED) == 1


def test_R5d_jack_off_board_five_jack_on_top() -> None:
    ref = referee_at(2, pocketed=(6, 0))
    r = ref.report(ShotReport(off_board=(J,)))
    assert r == ruling(
        0,
        RED,
        penalty=5,
        fouls=(Foul.JACK_OFF_BOARD,),
        foul_counts=(5,),
        reasons=("R3d", "R5d", "R5h", "R5j", "R6e"),
        returned=(R, R, R, R, R, J),
        taken=5,
        off_board=(J,),
        next_seat=1,
    )
    assert ref.pocketed(RED) == 1


def test_R5e_wrong_order_offender_pays_rightful_seat_keeps_the_turn() -> None:
    ref = referee_at(4, shooter=0, pocketed=(3, 3))
    r = ref.report(ShotReport(seat=2, pocketed=(R,), fouls=(Foul.WRONG_ORDER,)))
    assert r == ruling(
        2,
        RED,
        penalty=1,
        fouls=(Foul.WRONG_ORDER,),
        foul_counts=(1,),
        reasons=("R5e", "R5h", "R6e"),
        returned=(R, R),
        voided=1,
        taken=1,
        next_seat=0,
    )
    assert ref.shooter == 0 and ref.pocketed(RED) == 2


def test_R5e_option_after_offender_passes_the_turn_after_the_offender() -> None:
    ref = referee_at(4, options=RuleOptions(wrong_order_turn="after_offender"), pocketed=(3, 3))
    r = ref.report(ShotReport(seat=2))
    assert r.fouls == (Foul.WRONG_ORDER,) and r.next_seat == 3 and ref.shooter == 3


def test_R5e_wrong_order_needs_the_seat_that_shot() -> None:
    ref = referee_at(2)
    with pytest.raises(ImpossibleReportError):
        ref.report(ShotReport(fouls=(Foul.WRONG_ORDER,)))


def test_R5f_touching_a_moving_striker_one_puck_own_pucks_back() -> None:
    ref = referee_at(2, pocketed=(1, 0))
    r = ref.report(ShotReport(pocketed=(R, G), fouls=(Foul.TOUCHED_STRIKER,)))
    assert r == ruling(
        0,
        RED,
        penalty=1,
        fouls=(Foul.TOUCHED_STRIKER,),
        foul_counts=(1,),
        reasons=("R3b", "R3d", "R5f", "R5h", "R6e"),
        returned=(R, R),
        voided=1,
        taken=1,
        service=1,
        next_seat=1,
    )
    assert ref.state.pocketed == (0, 1)


def test_R5g_counts_of_several_fouls_add_up() -> None:
    ref = referee_at(2, pocketed=(8, 0))
    r = ref.report(ShotReport(striker_pocketed=True, off_board=(J,)))
    assert r == ruling(
        0,
        RED,
        penalty=6,
        fouls=(Foul.STRIKER_POCKETED, Foul.JACK_OFF_BOARD),
        foul_counts=(1, 5),
        reasons=("R3d", "R5a", "R5d", "R5g", "R5h", "R5j", "R6e"),
        returned=(R,) * 6 + (J,),
        taken=6,
        off_board=(J,),
        next_seat=1,
    )


def test_R5g_option_largest_count_only() -> None:
    ref = referee_at(2, options=RuleOptions(penalties_add_up=False), pocketed=(8, 0))
    r = ref.report(ShotReport(striker_pocketed=True, off_board=(J,)))
    assert r.penalty == 5 and r.taken == 5 and ref.pocketed(RED) == 3


def test_R5h_own_pucks_of_the_shot_back_then_count_more_opponent_stays() -> None:
    ref = referee_at(2, pocketed=(3, 0))
    r = ref.report(ShotReport(pocketed=(R, R, G), striker_pocketed=True))
    assert r == ruling(
        0,
        RED,
        penalty=1,
        fouls=(Foul.STRIKER_POCKETED,),
        foul_counts=(1,),
        reasons=("R3b", "R3d", "R5a", "R5h", "R6e"),
        returned=(R, R, R),
        voided=2,
        taken=1,
        service=1,
        next_seat=1,
    )
    assert ref.state.pocketed == (2, 1)


def test_R5h_own_pucks_of_the_shot_pay_no_debt() -> None:
    ref = referee_at(2, debt=(2, 0))
    r = ref.report(ShotReport(pocketed=(R,), striker_off_board=True))
    assert r.voided == 1 and r.debt_paid == () and r.debt_added == 1
    assert ref.debt(RED) == 3 and ref.pocketed(RED) == 0


def test_R5i_debt_paid_by_any_puck_of_that_colour_whoever_pockets_it() -> None:
    ref = referee_at(2, shooter=1, debt=(2, 0))
    r = ref.report(ShotReport(pocketed=(R,)))
    assert r == ruling(
        1,
        GREEN,
        reasons=("R3d", "R5i", "R6e"),
        returned=(R,),
        debt_paid=(R,),
        next_seat=0,
    )
    assert ref.debt(RED) == 1 and ref.pocketed(RED) == 0


def test_R5i_own_puck_paying_debt_is_a_success_by_the_reading() -> None:
    ref = referee_at(2, debt=(1, 0))
    r = ref.report(ShotReport(pocketed=(R, R)))
    assert r == ruling(
        0,
        RED,
        reasons=("R3a", "R5i", "R6e"),
        returned=(R,),
        debt_paid=(R,),
        continues=True,
        next_seat=0,
    )
    assert ref.debt(RED) == 0 and ref.pocketed(RED) == 1


def test_R5i_option_debt_payment_is_no_success() -> None:
    ref = referee_at(2, options=RuleOptions(debt_payment_is_success=False), debt=(1, 0))
    r = ref.report(ShotReport(pocketed=(R,)))
    assert not r.continues and r.debt_paid == (R,) and ref.shooter == 1


def test_R5i_opponent_service_pays_opponent_debt_under_a_penalty() -> None:
    ref = referee_at(2, pocketed=(2, 0), debt=(0, 1))
    r = ref.report(ShotReport(pocketed=(G, G), striker_pocketed=True))
    assert r.returned == (G, R) and r.debt_paid == (G,) and r.service == 1
    assert ref.state.pocketed == (1, 1) and ref.state.debt == (0, 0)


def test_R5j_jack_goes_back_on_top_of_everything() -> None:
    ref = referee_at(2, pocketed=(4, 0))
    r = ref.report(ShotReport(pocketed=(R, J), off_board=(G,)))
    assert r.returned == (G, R, R, R, R, R, J)  # 1 voided + 4 taken, 1 owed
    assert r.debt_added == 1
    assert "R5j" in r.reasons and "R6d" in r.reasons


def test_R5k_refereed_fouls_refused_in_digital_play() -> None:
    ref = referee_at(2, options=RuleOptions(refereed_fouls=False))
    before = ref.state
    for report in (
        ShotReport(seat=1),
        ShotReport(fouls=(Foul.TOUCHED_STRIKER,)),
        ShotReport(seat=1, fouls=(Foul.WRONG_ORDER,)),
    ):
        with pytest.raises(RefereedFoulError):
            ref.report(report)
    assert ref.state == before


# -- R6 Other cases ---------------------------------------------------------------------------


def test_R6a_last_puck_and_jack_together_is_a_failure() -> None:
    ref = referee_at(2, pocketed=(11, 0))
    r = ref.report(ShotReport(pocketed=(R, J)))
    assert r == ruling(
        0,
        RED,
        penalty=5,
        fouls=(Foul.JACK_BEFORE_PUCKS,),
        foul_counts=(5,),
        reasons=("R3d", "R5b", "R5h", "R5j", "R6a", "R6e"),
        returned=(R,) * 6 + (J,),
        voided=1,
        taken=5,
        next_seat=1,
    )
    assert ref.pocketed(RED) == 6 and not ref.is_over


def test_R6b_jack_after_all_own_pucks_wins_with_opponent_pucks() -> None:
    ref = referee_at(2, shooter=1, pocketed=(3, 12))
    r = ref.report(ShotReport(pocketed=(J, R, R)))
    expected_outcome = Outcome(GREEN, "R7a", (5, 112))
    assert r == ruling(1, GREEN, reasons=("R3b", "R6b", "R7a"), service=2, outcome=expected_outcome)
    assert ref.winner is GREEN and ref.is_over and ref.jack_pocketed
    assert ref.scores() == {RED: 5, GREEN: 112}


def test_R6b_striker_pocketed_voids_the_win_jack_on_top_no_R5b() -> None:
    ref = referee_at(2, pocketed=(12, 0))
    r = ref.report(ShotReport(pocketed=(J,), striker_pocketed=True))
    assert r == ruling(
        0,
        RED,
        penalty=1,
        fouls=(Foul.STRIKER_POCKETED,),
        foul_counts=(1,),
        reasons=("R3d", "R5a", "R5h", "R5j", "R6b", "R6e"),
        returned=(R, J),
        taken=1,
        next_seat=1,
    )
    assert not ref.is_over and ref.pocketed(RED) == 11


def test_R6b_option_foul_does_not_void_the_win() -> None:
    ref = referee_at(2, options=RuleOptions(foul_voids_win=False), pocketed=(12, 0))
    r = ref.report(ShotReport(pocketed=(J,), striker_off_board=True))
    assert r.winner is RED and r.penalty == 0 and ref.is_over


def test_R6c_pucks_off_the_board_go_to_the_jack_spot_no_penalty() -> None:
    ref = Referee(players=2)
    r = ref.report(ShotReport(off_board=(R, G, G)))
    assert r == ruling(
        0,
        RED,
        reasons=("R3d", "R6c", "R6d", "R6e"),
        returned=(G, G, R),
        off_board=(R, G, G),
        next_seat=1,
    )


def test_R6d_opponents_pucks_below_shooters_above_jack_on_top() -> None:
    ref = referee_at(2, shooter=1, pocketed=(0, 2))
    r = ref.report(ShotReport(pocketed=(G,), off_board=(R, J, G)))
    assert r.returned == (R, G, G, G, G, J)  # 1 voided, 1 off, 2 taken; 3 owed
    assert r.taken == 2 and r.debt_added == 3 and r.voided == 1
    assert "R6d" in r.reasons


def test_R6e_returns_stack_on_whatever_is_on_the_jack_spot() -> None:
    ref = referee_at(2, pocketed=(3, 3))
    first = ref.report(ShotReport(striker_pocketed=True))
    second = ref.report(ShotReport(striker_off_board=True))
    pile = first.returned + second.returned
    assert pile == (R, G) and "R6e" in first.reasons and "R6e" in second.reasons


# -- R7 Winning ----------------------------------------------------------------------------------


def test_R7a_partner_pockets_the_jack_team_wins_then_reports_refused() -> None:
    ref = referee_at(4, shooter=2, pocketed=(12, 9))
    r = ref.report(ShotReport(pocketed=(J,)))
    assert r.outcome == Outcome(RED, "R7a", (112, 9)) and r.next_seat is None
    with pytest.raises(GameOverError):
        ref.report(ShotReport())
    with pytest.raises(GameOverError):
        ref.skip_turn()
    with pytest.raises(GameOverError):
        ref.call_time()


def test_R7b_time_called_round_finishes_with_the_last_seat_then_more_pucks_win() -> None:
    ref = referee_at(4, shooter=1, pocketed=(5, 4))
    ref.call_time()
    assert ref.report(ShotReport()).outcome is None  # seat 1
    assert ref.report(ShotReport(pocketed=(R,))).continues  # seat 2 continues
    assert ref.report(ShotReport()).outcome is None  # seat 2 ends its turn
    r = ref.report(ShotReport(pocketed=(G, G)))  # seat 3 continues: its turn goes on
    assert r.continues and r.outcome is None
    r = ref.report(ShotReport())  # seat 3 ends its turn: decide, level 6-6
    assert r == ruling(3, GREEN, reasons=("R3d", "R7b", "R7c"), next_seat=0)
    assert ref.extra_round == 1 and not ref.is_over


def test_R7b_exact_decision_after_the_last_seat() -> None:
    ref = referee_at(2, shooter=0, pocketed=(5, 4))
    ref.call_time()
    ref.report(ShotReport())
    r = ref.report(ShotReport(pocketed=(R,)))
    assert r == ruling(
        1,
        GREEN,
        reasons=("R3b", "R3d", "R7b"),
        service=1,
        outcome=Outcome(RED, "R7b", (6, 4)),
    )
    assert ref.winner is RED and ref.is_over


def test_R7b_debt_counts_against_the_score_by_the_reading() -> None:
    ref = referee_at(2, shooter=1, pocketed=(0, 0), debt=(1, 0))
    ref.call_time()
    r = ref.report(ShotReport())
    assert r.outcome == Outcome(GREEN, "R7b", (-1, 0))


def test_R7b_option_debt_not_counted_gives_a_level_score() -> None:
    ref = referee_at(2, options=RuleOptions(debt_counts_in_score=False), shooter=1, debt=(1, 0))
    ref.call_time()
    r = ref.report(ShotReport())
    assert r.outcome is None and ref.extra_round == 1 and "R7c" in r.reasons


def test_R7c_level_plays_full_extra_rounds_until_one_leads() -> None:
    ref = referee_at(2, shooter=1, pocketed=(3, 3))
    ref.call_time()
    r = ref.report(ShotReport())
    assert r == ruling(1, GREEN, reasons=("R3d", "R7b", "R7c"), next_seat=0)
    assert ref.extra_round == 1
    ref.report(ShotReport(pocketed=(G,)))  # red pockets green: service
    r = ref.report(ShotReport())
    assert r.outcome == Outcome(GREEN, "R7c", (3, 4))


def test_R7d_deadlock_draw_after_the_cap() -> None:
    ref = referee_at(2, options=RuleOptions(max_extra_rounds=1), shooter=1, pocketed=(3, 3))
    ref.call_time()
    ref.report(ShotReport())
    ref.skip_turn()
    r = ref.skip_turn()
    assert r.outcome == Outcome(None, "R7d", (3, 3)) and ref.is_over and ref.winner is None


def test_R7d_deadlock_by_lot_waits_for_the_caller() -> None:
    ref = referee_at(
        2, options=RuleOptions(max_extra_rounds=0, deadlock="lot"), shooter=1, pocketed=(3, 3)
    )
    with pytest.raises(LotNotPendingError):
        ref.decide_lot(RED)
    ref.call_time()
    with pytest.raises(TimeAlreadyCalledError):
        ref.call_time()
    r = ref.report(ShotReport())
    assert r.outcome is None and r.next_seat is None and "R7d" in r.reasons
    assert ref.awaiting_lot and not ref.is_over
    with pytest.raises(LotPendingError):
        ref.report(ShotReport())
    assert ref.decide_lot(GREEN) == Outcome(GREEN, "R7d", (3, 3))
    assert ref.winner is GREEN
    ref.undo()
    assert ref.awaiting_lot and ref.outcome is None


def test_R7d_jack_still_wins_at_once_while_the_round_finishes() -> None:
    ref = referee_at(2, shooter=0, pocketed=(12, 0))
    ref.call_time()
    r = ref.report(ShotReport(pocketed=(J,)))
    assert r.outcome == Outcome(RED, "R7a", (112, 0))


def test_R7e_championship_matches_last_five_minutes() -> None:
    options = RuleOptions.championship()
    assert options.match_time_s == 300.0 and options.timed
    assert not RuleOptions().timed
    assert MatchClock.from_options(options, now=lambda: 0.0).limit_s == 300.0


# -- R8 The 10-second rule ---------------------------------------------------------------------


def test_R8a_skip_turn_loses_the_shot_and_passes_the_turn() -> None:
    ref = referee_at(4, shooter=3, pocketed=(2, 2))
    r = ref.skip_turn()
    assert r == ruling(3, GREEN, reasons=("R3d", "R8a"), skipped=True, next_seat=0)
    assert ref.state.pocketed == (2, 2) and ref.state.shots == 4


def test_R8a_skip_of_a_continuation_passes_the_turn() -> None:
    ref = Referee(players=2)
    ref.report(ShotReport(pocketed=(R,)))
    ref.skip_turn()
    assert ref.shooter == 1


# -- R3d / R2b reading: a turn passed without a shot ------------------------------------------


def test_R3d_pass_turn_passes_without_penalty() -> None:
    ref = referee_at(4, shooter=3, pocketed=(2, 2))
    r = ref.pass_turn()
    assert r == ruling(3, GREEN, reasons=("R3d",), skipped=True, next_seat=0)
    assert ref.state.pocketed == (2, 2) and ref.state.debt == (0, 0)
    assert explain(r)[0] == "Green passes (R3d)"
    ref.undo()
    assert ref.shooter == 3


def test_R2b_reading_a_pass_for_want_of_a_place_names_R2b() -> None:
    ref = Referee(players=2)
    r = ref.pass_turn(no_placement=True)
    assert r.reasons == ("R2b", "R3d") and r.skipped and r.penalty == 0
    assert "R2b" in explain(r)[0] and "エリアライン" in explain(r, "ja")[0]


def test_R2b_reading_option_covered_area_line() -> None:
    assert RuleOptions().covered_area_line == "nearest_free"
    assert RuleOptions(covered_area_line="pass").to_dict()["covered_area_line"] == "pass"
    with pytest.raises(InvalidOptionsError):
        RuleOptions(covered_area_line="wait")  # type: ignore[arg-type]
