"""Every rule path through the pad's entries, named after the rule ids of docs/rules.md."""

from __future__ import annotations

import pytest
from scoring_helpers import doubles, singles, timed

from hikone_carrom.rules import (
    ClockError,
    Color,
    GameOverError,
    ImpossibleReportError,
    LotNotPendingError,
    Piece,
    RulesError,
    UnshootableInSinglesError,
    UntimedMatchError,
)
from hikone_carrom.scoring import (
    ConfirmedError,
    CorrectionError,
    EntryError,
    EntryKind,
    MatchSetup,
    RefereedMatch,
    SetupError,
    SheetLine,
    Tap,
    replay_entries,
)

R, G, J = Piece.RED, Piece.GREEN, Piece.JACK
RED, GREEN = Color.RED, Color.GREEN


def win_red(m: RefereedMatch) -> None:
    """Red pockets all 12 pucks in one shot, then the jack (R6b, R7a)."""
    m.shot(Tap(red=12))
    m.shot(Tap(jack=True))


# -- R1 set-up and order ----------------------------------------------------------------------


def test_R1b_R1c_singles_red_south_first_then_green_north() -> None:
    m = singles()
    assert [m.setup.side(s) for s in (0, 1)] == ["S", "N"]
    assert [m.setup.color(s) for s in (0, 1)] == [RED, GREEN]
    assert m.shooter == 0
    m.shot()
    assert m.shooter == 1


def test_R1c_doubles_clockwise_S_W_N_E_partners_opposite() -> None:
    m = doubles()
    assert [m.setup.side(s) for s in range(4)] == ["S", "W", "N", "E"]
    assert m.setup.team(RED) == ("田中", "山本") and m.setup.team(GREEN) == ("佐藤", "鈴木")
    seen = []
    for _ in range(5):
        seen.append(m.shooter)
        m.shot()
    assert seen == [0, 1, 2, 3, 0]


# -- R3 turn and continuation --------------------------------------------------------------------


def test_R3a_own_puck_pocketed_shooter_continues() -> None:
    m = singles()
    r = m.shot(Tap(red=2))
    assert r.continues and r.reasons == ("R3a",) and m.shooter == 0
    assert m.state.pocketed == (2, 0)


def test_R3b_opponent_pucks_stay_pocketed_as_service() -> None:
    m = singles()
    r = m.shot(Tap(green=2))
    assert r.service == 2 and "R3b" in r.reasons and not r.continues
    assert m.state.pocketed == (0, 2) and m.shooter == 1


def test_R3c_success_counts_with_pieces_off_the_board() -> None:
    m = singles()
    r = m.shot(Tap(red=1, green_off=1))
    assert r.continues and {"R3a", "R3c", "R6c"} <= set(r.reasons)
    assert r.returned == (G,)


def test_R3d_no_pocket_is_one_entry_and_passes_the_turn() -> None:
    m = singles()
    assert Tap().is_no_pocket
    r = m.shot()
    assert r.reasons == ("R3d",) and r.next_seat == 1 and r.penalty == 0


# -- R4 doubles: unshootable pieces -------------------------------------------------------------


def test_R4c_unshootable_hit_restores_the_board_and_passes_the_turn() -> None:
    m = doubles()
    m.shot(Tap(red=1))
    r = m.shot(Tap(red=2, green=1, unshootable_hit=True))
    assert r.restored and "R4c" in r.reasons and r.penalty == 0
    assert r.returned == () and m.state.pocketed == (1, 0) and m.shooter == 1


def test_R4c_unshootable_penalty_option_costs_a_puck() -> None:
    from hikone_carrom.rules import RuleOptions

    setup = MatchSetup(("a", "b", "c", "d"), None, options=RuleOptions(unshootable_penalty=1))
    m = RefereedMatch(setup)
    m.shot(Tap(red=1))
    r = m.shot(Tap(unshootable_hit=True))
    assert r.penalty == 1 and r.taken == 1 and r.returned == (R,)


def test_R4e_unshootable_hit_in_singles_is_refused_and_changes_nothing() -> None:
    m = singles()
    m.shot(Tap(red=1))
    before = m.state
    with pytest.raises(UnshootableInSinglesError) as err:
        m.shot(Tap(unshootable_hit=True))
    assert "R4e" in err.value.en and "R4e" in err.value.ja
    assert m.state == before and len(m.entries) == 1


# -- R5 penalties ----------------------------------------------------------------------------


def test_R5a_striker_pocketed_penalty_one_from_the_pockets() -> None:
    m = singles()
    m.shot(Tap(red=3))
    r = m.shot(Tap(striker_pocketed=True))
    assert r.penalty == 1 and r.taken == 1 and r.returned == (R,)
    assert "R5a" in r.reasons and m.state.pocketed == (2, 0) and m.shooter == 1


def test_R5b_jack_before_all_own_pucks_penalty_five_jack_on_top() -> None:
    m = singles()
    m.shot(Tap(red=6))
    r = m.shot(Tap(red=1, jack=True))
    assert r.penalty == 5 and r.voided == 1 and r.taken == 5
    assert r.returned == (R,) * 6 + (J,)
    assert {"R5b", "R5h", "R5j", "R6e"} <= set(r.reasons)
    assert m.state.pocketed == (1, 0)


def test_R5c_striker_off_the_board_penalty_one_as_debt() -> None:
    m = singles()
    r = m.shot(Tap(striker_off=True))
    assert r.penalty == 1 and r.debt_added == 1 and r.returned == ()
    assert {"R5c", "R5i"} <= set(r.reasons) and m.state.debt == (1, 0)


def test_R5d_jack_off_the_board_penalty_five_jack_back_on_top() -> None:
    m = singles()
    m.shot(Tap(red=2))
    r = m.shot(Tap(jack_off=True))
    assert r.penalty == 5 and r.taken == 2 and r.debt_added == 3
    assert r.returned == (R, R, J) and m.state.debt == (3, 0)


def test_R5e_wrong_order_penalty_and_the_rightful_seat_keeps_the_turn() -> None:
    m = doubles()
    r = m.shot(Tap(wrong_order_seat=2, red=1))
    assert r.seat == 2 and r.penalty == 1 and "R5e" in r.reasons
    assert r.voided == 1 and m.shooter == 0  # R5k reading: the rightful seat shoots
    with pytest.raises(ImpossibleReportError):
        m.shot(Tap(wrong_order_seat=0))  # seat 0 is on turn: not out of turn


def test_R5f_touching_the_moving_striker_penalty_one() -> None:
    m = singles()
    m.shot(Tap(red=1))
    r = m.shot(Tap(red=1, touched_striker=True))
    assert r.penalty == 1 and r.voided == 1 and r.taken == 1
    assert "R5f" in r.reasons and m.state.pocketed == (0, 0) and m.shooter == 1


def test_R5g_penalties_of_one_shot_add_up() -> None:
    m = singles()
    m.shot(Tap(red=8))
    r = m.shot(Tap(striker_pocketed=True, jack_off=True, touched_striker=True))
    assert r.penalty == 7 and "R5g" in r.reasons and r.taken == 7


def test_R5h_own_pucks_of_the_shot_go_back_opponents_stay() -> None:
    m = singles()
    r = m.shot(Tap(red=2, green=1, striker_pocketed=True))
    assert r.voided == 2 and r.service == 1 and r.debt_added == 1
    assert r.returned == (R, R) and m.state.pocketed == (0, 1) and m.state.debt == (1, 0)


def test_R5i_debt_is_paid_by_pucks_that_go_in_whoever_pockets_them() -> None:
    m = singles()
    m.shot(Tap(striker_off=True))  # red owes 1
    r = m.shot(Tap(red=1))  # green pockets a red: it pays red's debt
    assert r.debt_paid == (R,) and r.returned == (R,) and m.state.debt == (0, 0)
    assert "R5i" in r.reasons and m.state.pocketed == (0, 0)


def test_R5i_own_puck_paying_debt_still_continues() -> None:
    m = singles()
    m.shot(Tap(striker_off=True))
    m.shot()
    r = m.shot(Tap(red=1))
    assert r.continues and r.debt_paid == (R,) and m.shooter == 0


def test_R5j_jack_in_a_penalty_goes_back_on_top_of_everything() -> None:
    m = singles()
    m.shot(Tap(red=3))
    r = m.shot(Tap(red=1, green=1, jack=True, green_off=1))
    assert r.returned[-1] is J and "R5j" in r.reasons
    assert r.returned == (G, R, R, R, R, J)  # off-board green, voided red, 3 taken, jack
    assert r.debt_added == 2 and m.state.debt == (2, 0) and m.state.pocketed == (0, 1)


# -- R6 other cases --------------------------------------------------------------------------


def test_R6a_last_puck_and_jack_together_is_a_failure() -> None:
    m = singles()
    m.shot(Tap(red=11))
    r = m.shot(Tap(red=1, jack=True))
    assert {"R6a", "R5b"} <= set(r.reasons) and r.penalty == 5 and r.outcome is None
    assert r.returned == (R,) * 6 + (J,)


def test_R6b_R7a_jack_after_all_own_pucks_wins_with_opponent_pucks() -> None:
    m = singles()
    m.shot(Tap(red=12))
    r = m.shot(Tap(jack=True, green=2))
    assert r.outcome is not None and r.outcome.winner is RED and r.outcome.reason == "R7a"
    assert m.is_over and m.scores() == {RED: 112, GREEN: 2}


def test_R6b_a_foul_in_the_winning_shot_voids_the_win() -> None:
    m = singles()
    m.shot(Tap(red=12))
    r = m.shot(Tap(jack=True, striker_pocketed=True))
    assert r.outcome is None and "R6b" in r.reasons and r.penalty == 1
    assert r.returned == (R, J) and not m.is_over and m.shooter == 1


def test_R6c_pucks_off_the_board_go_to_the_jack_spot_without_penalty() -> None:
    m = singles()
    r = m.shot(Tap(red_off=1, green_off=2))
    assert r.penalty == 0 and "R6c" in r.reasons and r.returned == (G, G, R)


def test_R6d_opponent_pucks_at_the_bottom_shooters_above() -> None:
    m = singles()
    m.shot(Tap(red=2))
    r = m.shot(Tap(green_off=2, red_off=1, striker_pocketed=True))
    assert r.returned == (G, G, R, R) and "R6d" in r.reasons


def test_R6e_every_return_is_stacked_on_what_is_there() -> None:
    m = singles()
    r = m.shot(Tap(red_off=1))
    assert "R6e" in r.reasons


# -- R7 winning ------------------------------------------------------------------------------


def test_R7b_time_called_finishes_the_round_then_more_pucks_wins() -> None:
    m, now = timed(2)
    m.clock.start()  # type: ignore[union-attr]
    m.shot(Tap(red=2))
    m.shot()  # red passes to green
    now.advance(300)
    (step,) = m.tick()
    assert step.entry.kind == "call_time" and "R7b" in step.explain("en")[0]
    assert not m.is_over and m.shooter == 1
    r = m.shot()  # green (seat 1, the last seat) ends the round
    assert r.outcome is not None and r.outcome.reason == "R7b" and r.outcome.winner is RED
    assert r.outcome.scores == (2, 0)


def test_R7b_debt_counts_against_the_score() -> None:
    m, _ = timed(2)
    m.shot(Tap(green=1))  # service: green 1
    m.shot(Tap(striker_off=True))  # green pays its only puck back: 0
    m.shot(Tap(striker_off=True, red=0))  # red owes 1
    m.call_time()
    m.shot()
    assert m.outcome is not None and m.outcome.scores == (-1, 0) and m.outcome.winner is GREEN


def test_R7c_level_after_the_round_plays_another_round() -> None:
    m, _ = timed(4)
    m.call_time()
    for _ in range(4):
        m.shot()
    assert m.state.extra_round == 1 and not m.is_over
    m.shot(Tap(red=1))  # red A pockets and continues
    m.shot()
    for _ in range(3):
        m.shot()
    assert m.outcome is not None and m.outcome.reason == "R7c" and m.outcome.winner is RED


def test_R7d_deadlock_draw_after_the_extra_rounds() -> None:
    m, _ = timed(2)
    m.call_time()
    for _ in range(2 * 4):  # the round, then max_extra_rounds (3) more, all level
        m.shot()
    assert m.outcome is not None and m.outcome.winner is None and m.outcome.reason == "R7d"


def test_R7d_deadlock_by_rock_paper_scissors() -> None:
    m, _ = timed(2, deadlock="lot")
    m.call_time()
    for _ in range(8):
        m.shot()
    assert m.state.awaiting_lot and not m.is_over
    with pytest.raises(RulesError):
        m.shot()  # the lot comes first (R7d)
    out = m.decide_lot(GREEN)
    assert out.winner is GREEN and out.reason == "R7d"


def test_R7d_lot_when_none_is_awaited_is_refused() -> None:
    m = singles()
    with pytest.raises(LotNotPendingError):
        m.decide_lot(RED)


# -- R8 the 10-second rule -------------------------------------------------------------------


def test_R8a_countdown_only_in_the_last_minute_and_a_lost_shot_when_it_runs_out() -> None:
    m, now = timed(2)
    clock = m.clock
    assert clock is not None
    clock.start()
    with pytest.raises(ClockError):
        clock.start_countdown()  # 4:59 left: not yet
    now.advance(241)
    clock.start_countdown()
    now.advance(9.9)
    assert m.tick() == [] and clock.countdown_remaining() == pytest.approx(0.1)
    now.advance(0.1)
    (step,) = m.tick()
    assert step.ruling is not None and step.ruling.skipped and "R8a" in step.ruling.reasons
    assert m.shooter == 1 and not clock.counting_down and step.entry.at == pytest.approx(251.0)


def test_R8a_pause_stops_match_time_and_countdown() -> None:
    m, now = timed(2)
    clock = m.clock
    assert clock is not None
    clock.start()
    now.advance(245)
    clock.start_countdown()
    now.advance(5)
    clock.pause()
    now.advance(100)
    assert clock.remaining() == pytest.approx(50) and clock.countdown_remaining() == 5
    clock.resume()
    now.advance(4)
    assert m.tick() == []
    m.shot()  # the shot was taken: the countdown stops
    assert not clock.counting_down


def test_R8a_lost_shot_and_time_call_are_refused_in_an_untimed_match() -> None:
    m = singles()
    with pytest.raises(UntimedMatchError, match="untimed"):
        m.skip_turn()
    with pytest.raises(UntimedMatchError, match="untimed"):
        m.call_time()
    assert m.entries == ()


def test_R8a_the_time_call_leaves_the_countdown_of_the_player_on_turn_running() -> None:
    m, now = timed(2)
    clock = m.clock
    assert clock is not None
    clock.start()
    now.advance(296)
    clock.start_countdown()  # red's turn began at 4:56
    now.advance(4)
    (step,) = m.tick()  # 5:00: time is called, red's 10 s go on (R8a counts from the turn)
    assert step.entry.kind is EntryKind.CALL_TIME and step.entry.at == 300.0
    assert clock.countdown_remaining() == pytest.approx(6.0)
    now.advance(6)
    (lost,) = m.tick()
    assert lost.entry.kind is EntryKind.SKIP and lost.seat == 0 and lost.entry.at == 306.0
    assert m.shooter == 1


def test_R8a_a_countdown_run_out_just_before_time_and_the_time_call_are_both_entered_in_order() -> (
    None
):
    m, now = timed(2)
    clock = m.clock
    assert clock is not None
    clock.start()
    now.advance(289.5)
    clock.start_countdown()  # red's 10 s run out at 4:59.5, time at 5:00
    now.advance(10.6)  # the next tick comes after both
    steps = m.tick()
    assert [(s.entry.kind, s.entry.at, s.seat) for s in steps] == [
        (EntryKind.SKIP, 299.5, 0),
        (EntryKind.CALL_TIME, 300.0, 1),
    ]
    assert m.state.time_called and m.shooter == 1 and not m.is_over
    r = m.shot()  # green, the last seat, ends the round: level at 0-0, an extra round (R7c)
    assert r.outcome is None and m.state.extra_round == 1


def test_R8a_a_lost_shot_before_the_last_minute_is_refused() -> None:
    m, now = timed(2)
    assert m.clock is not None
    m.clock.start()
    now.advance(10)
    with pytest.raises(ClockError, match="last minute"):
        m.skip_turn()  # 0:10 of 5:00: the 10-second rule does not apply yet
    assert m.entries == ()
    now.advance(230)
    assert m.skip_turn().skipped  # 4:00: the last minute has begun
    with pytest.raises(CorrectionError, match=r"entry 1 .*last minute"):
        replay_entries(m.setup, [SheetLine.skip(239.9)])
    done = replay_entries(m.setup, [SheetLine.call_time(300.0), SheetLine.skip(None)])
    assert done[-1].ruling is not None and done[-1].ruling.skipped


# -- impossible entries: a clear error, nothing changes -----------------------------------------


@pytest.mark.parametrize(
    ("tap", "words"),
    [
        (lambda: Tap(red=-1), "negative"),
        (lambda: Tap(green=13), "more than the 12"),
        (lambda: Tap(jack=True, jack_off=True), "one jack"),
        (lambda: Tap(striker_off=True, striker_pocketed=True), "both"),
        (lambda: Tap(red="2"), "whole number"),  # type: ignore[arg-type]
    ],
)
def test_malformed_taps_are_refused_in_both_languages(tap: object, words: str) -> None:
    with pytest.raises(EntryError) as err:
        tap()  # type: ignore[operator]
    assert words in err.value.en and err.value.ja


def test_more_pucks_than_on_the_board_is_refused_and_changes_nothing() -> None:
    m = singles()
    m.shot(Tap(red=10))
    before = m.state
    with pytest.raises(ImpossibleReportError) as err:
        m.shot(Tap(red=2, red_off=1))
    assert "only 2" in err.value.en and "2個" in err.value.ja
    assert m.state == before and len(m.entries) == 1


def test_an_entry_after_the_match_ended_is_refused() -> None:
    m = singles()
    win_red(m)
    with pytest.raises(GameOverError):
        m.shot(Tap(jack=True))  # the jack cannot be pocketed twice
    m.confirm()
    with pytest.raises(ConfirmedError):
        m.undo()


# -- undo and correction ---------------------------------------------------------------------


def test_undo_drops_the_last_entries() -> None:
    m = singles()
    m.shot(Tap(red=2))
    m.shot(Tap(striker_pocketed=True))
    assert m.undo() == (SheetLine.shot(Tap(striker_pocketed=True)),)
    assert m.state.pocketed == (2, 0) and m.shooter == 0
    with pytest.raises(CorrectionError):
        m.undo(5)
    m.undo(1)
    assert m.entries == () and m.shooter == 0


def test_correcting_an_entry_recomputes_everything_after_it() -> None:
    m = singles()
    m.shot(Tap(red=1))  # 1: red continues
    m.shot()  # 2: red passes
    m.shot(Tap(green=2))  # 3: green continues
    m.shot(Tap(striker_off=True))  # 4: green penalty 1
    steps = m.correct(1, SheetLine.shot(Tap()))  # red pocketed nothing after all
    assert [s.seat for s in m.steps] == [0, 1, 0, 1]  # the turn passes at entry 1 now
    assert m.steps[2].ruling is not None and m.steps[2].ruling.service == 2  # red's 2 greens
    assert len(steps) == 4 and m.state.pocketed == (0, 1) and m.shooter == 0


def test_a_correction_that_makes_a_later_entry_impossible_is_refused() -> None:
    m = singles()
    m.shot(Tap(red=2))
    m.shot(Tap(red=10))
    before = m.steps
    with pytest.raises(CorrectionError) as err:
        m.correct(1, SheetLine.shot(Tap(red=3)))
    assert err.value.entry == 2 and "entry 2" in err.value.en and "2番目" in err.value.ja
    assert m.steps == before


def test_setup_errors_are_clear() -> None:
    with pytest.raises(SetupError):
        MatchSetup(("a", "b", "c"))
    with pytest.raises(SetupError):
        MatchSetup(("a", " "))
    with pytest.raises(SetupError):
        MatchSetup(("a", "b"), match_time_s=-5)
    with pytest.raises(SetupError):
        MatchSetup.from_dict({"names": ["a", "b"], "deadlock": "coin"})


def test_round_trip_through_dict_judges_the_same() -> None:
    m = doubles(minutes=5, deadlock="lot")
    m.shot(Tap(red=2))
    m.shot(Tap(green=1, striker_pocketed=True))
    m.call_time()
    again = RefereedMatch.from_dict(m.to_dict())
    assert again.steps == m.steps and again.setup == m.setup


def test_a_copy_changes_apart_from_its_match_without_judging_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    m = singles()
    m.shot(Tap(red=2))
    m.shot()
    import hikone_carrom.scoring.refereed as refereed

    judged: list[int] = []
    real = refereed._judge
    monkeypatch.setattr(refereed, "_judge", lambda *a: judged.append(1) or real(*a))
    twin = m.copy()
    assert judged == [] and twin.steps == m.steps and twin.state == m.state
    twin.shot(Tap(green=3))
    assert len(judged) == 1 and len(twin.steps) == 3 and len(m.steps) == 2
    twin.undo(3)
    assert len(m.steps) == 2 and m.scores() != twin.scores()
    done = singles()
    win_red(done)
    done.confirm()
    assert done.copy().confirmed and not twin.confirmed
