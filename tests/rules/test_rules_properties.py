"""Hypothesis properties over random report sequences (R3-R7).

Every puck accounted for, debt never negative, undo restores exactly, the same input gives the same
ruling, the game ends only as R7 says (and always when it says so).
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hikone_carrom.rules import (
    PUCKS_PER_COLOR,
    Color,
    Foul,
    ImpossibleReportError,
    Piece,
    Referee,
    RefereeState,
    RuleOptions,
    Ruling,
    ShotReport,
    explain,
)

CITES_RULE = re.compile(r"[(（]R[1-8][a-k][)）]$")

SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)

options_st = st.builds(
    RuleOptions,
    unshootable_penalty=st.sampled_from([0, 1]),
    penalties_add_up=st.booleans(),
    debt_payment_is_success=st.booleans(),
    foul_voids_win=st.booleans(),
    debt_counts_in_score=st.booleans(),
    deadlock=st.sampled_from(["draw", "lot"]),
    max_extra_rounds=st.sampled_from([None, 0, 1, 2]),
    wrong_order_turn=st.sampled_from(["rightful", "after_offender"]),
)


def draw_report(data: st.DataObject, state: RefereeState) -> ShotReport:
    """A report that can be true in ``state``: never more pucks than lie outside the pockets."""
    pocketed: list[Piece] = []
    off: list[Piece] = []
    for color in Color:
        free = state.pucks_on_board(color)
        n_in = data.draw(st.integers(0, min(free, 4)) | st.just(free))
        n_off = data.draw(st.integers(0, min(free - n_in, 2)))
        pocketed += [color.puck] * n_in
        off += [color.puck] * n_off
    jack = data.draw(st.sampled_from(["board", "board", "pocket", "pocket", "off"]))
    if jack == "pocket":
        pocketed.append(Piece.JACK)
    elif jack == "off":
        off.append(Piece.JACK)
    striker = data.draw(st.sampled_from(["board"] * 4 + ["pocket", "off"]))
    seat = None
    fouls: list[Foul] = []
    if data.draw(st.integers(0, 9)) == 0:
        seat = data.draw(st.integers(0, state.players - 1))
        if seat != state.shooter and data.draw(st.booleans()):
            fouls.append(Foul.WRONG_ORDER)
    if data.draw(st.integers(0, 14)) == 0:
        fouls.append(Foul.TOUCHED_STRIKER)
    return ShotReport(
        pocketed=tuple(data.draw(st.permutations(pocketed))),
        off_board=tuple(off),
        striker_pocketed=striker == "pocket",
        striker_off_board=striker == "off",
        unshootable_hit=state.players == 4 and data.draw(st.integers(0, 9)) == 0,
        fouls=tuple(fouls),
        seat=seat,
    )


def check_invariants(state: RefereeState) -> None:
    for color in Color:
        pocketed, debt = state.pocketed_of(color), state.debt_of(color)
        assert 0 <= pocketed <= PUCKS_PER_COLOR
        assert debt >= 0
        assert pocketed == 0 or debt == 0
        assert pocketed + state.pucks_on_board(color) == PUCKS_PER_COLOR
    assert (state.jack is not None) == (state.outcome is not None and state.outcome.reason == "R7a")
    assert RefereeState.from_dict(state.to_dict()) == state
    assert hash(RefereeState.from_dict(state.to_dict())) == hash(state)


def check_accounting(
    before: RefereeState, report: ShotReport, r: Ruling, after: RefereeState
) -> None:
    """Pockets after = pockets before + fallen - (returned that did not fly off); jack on top."""
    color = before.color(r.seat)
    for c in Color:
        back = r.returned.count(c.puck)
        if r.restored:
            assert after.pocketed_of(c) == before.pocketed_of(c) - back
            assert back == (r.taken if c is color else 0)
        else:
            from_pockets = back - report.count_off(c.puck)
            assert from_pockets >= 0
            assert (
                after.pocketed_of(c) == before.pocketed_of(c) + report.count(c.puck) - from_pockets
            )
        added = r.debt_added if c is color else 0
        assert after.debt_of(c) == before.debt_of(c) + added - r.debt_paid.count(c.puck)
    if Piece.JACK in r.returned:
        assert r.returned[-1] is Piece.JACK and r.returned.count(Piece.JACK) == 1
    pucks = [p for p in r.returned if p is not Piece.JACK]
    assert pucks == sorted(pucks, key=lambda p: p is color.puck)  # R6d: opponent below
    assert r.penalty >= 0 and r.taken + r.debt_added == r.penalty
    assert not (r.continues and r.penalty)


def check_ending(before: RefereeState, report: ShotReport | None, r: Ruling) -> None:
    """An outcome (or a lot) appears only as R7 says."""
    if r.outcome is None and r.next_seat is not None:
        return
    if r.outcome is not None and r.outcome.reason == "R7a":
        assert report is not None and Piece.JACK in report.pocketed and not r.restored
        assert before.pocketed_of(r.color) == PUCKS_PER_COLOR
        assert r.penalty == 0
        assert r.outcome.winner is r.color
        return
    # R7b-R7d: only after time, when the last seat's turn ends
    assert before.time_called and before.shooter == before.last_seat and not r.continues
    red, green = r.outcome.scores if r.outcome is not None else (0, 0)
    if r.outcome is not None and r.outcome.reason in ("R7b", "R7c"):
        assert (r.outcome.reason == "R7b") == (before.extra_round == 0)
        assert red != green and (r.outcome.winner is Color.RED) == (red > green)
    else:
        assert before.options.max_extra_rounds is not None
        assert before.extra_round == before.options.max_extra_rounds


FULL_MIX = ["shot"] * 6 + ["quiet"] * 4 + ["skip", "time"]
TIMED_MIX = ["single", "quiet", "quiet", "skip", "time"]


def play_random(data: st.DataObject, players: int, options: RuleOptions, mix: list[str]) -> None:
    """Play random actions from ``mix``, checking every property after each."""
    ref = Referee(players=players, options=options)
    check_invariants(ref.state)
    steps = data.draw(st.integers(1, 60))
    for _ in range(steps):
        if ref.is_over:
            break
        before = ref.state
        if ref.awaiting_lot:
            ref.decide_lot(data.draw(st.sampled_from(list(Color))))
            assert ref.outcome is not None and ref.outcome.reason == "R7d"
        else:
            kind = data.draw(st.sampled_from(mix))
            if kind == "time" and not before.time_called:
                ref.call_time()
                assert ref.state == before.evolve(time_called=True)
                check_invariants(ref.state)
                continue
            report: ShotReport | None = None
            if kind == "single":
                puck = data.draw(st.sampled_from([Piece.RED, Piece.GREEN]))
                free = before.pucks_on_board(Color.RED if puck is Piece.RED else Color.GREEN)
                report = ShotReport(pocketed=(puck,) if free else ())
            elif kind == "quiet":
                report = ShotReport()
            elif kind == "shot":
                report = draw_report(data, before)
            if report is not None:
                r = ref.report(report)
                check_accounting(before, report, r, ref.state)
            else:  # "skip", or "time" once time is already called
                r = ref.skip_turn()
                assert r.skipped and ref.state.pocketed == before.pocketed
            check_ending(before, report, r)
            sentences = explain(r, "en") + explain(r, "ja")
            assert sentences and all(CITES_RULE.search(s) for s in sentences)
            assert set(r.reasons) <= {f"R{n}{c}" for n in range(1, 9) for c in "abcdefghijk"}
            round_over = (
                before.time_called and before.shooter == before.last_seat and "R3d" in r.reasons
            )
            if round_over and r.outcome is None:
                assert ref.awaiting_lot or ref.extra_round == before.extra_round + 1
            if not round_over:
                assert ref.extra_round == before.extra_round and not ref.awaiting_lot
                assert r.outcome is None or r.outcome.reason == "R7a"
            after = ref.state
            # undo restores exactly; redoing gives the same state and ruling (determinism)
            ref.undo()
            assert ref.state == before
            again = ref.report(report) if report is not None else ref.skip_turn()
            assert again == r and ref.state == after
        check_invariants(ref.state)
        if not ref.is_over and not ref.awaiting_lot:
            assert ref.state.jack is None
    history = ref.history
    while ref.can_undo:
        ref.undo()
    assert ref.state == RefereeState.initial(players, options)
    assert len(history) <= steps


@SETTINGS
@given(data=st.data(), players=st.sampled_from([2, 4]), options=options_st)
def test_random_games_keep_every_invariant(
    data: st.DataObject, players: int, options: RuleOptions
) -> None:
    play_random(data, players, options, FULL_MIX)


@SETTINGS
@given(data=st.data(), players=st.sampled_from([2, 4]), options=options_st)
def test_random_timed_games_end_only_as_R7b_to_R7d(
    data: st.DataObject, players: int, options: RuleOptions
) -> None:
    play_random(data, players, options, TIMED_MIX)


@SETTINGS
@given(data=st.data(), players=st.sampled_from([2, 4]))
def test_impossible_reports_change_nothing(data: st.DataObject, players: int) -> None:
    ref = Referee(players=players)
    for _ in range(data.draw(st.integers(0, 10))):
        if ref.is_over:
            return
        ref.report(draw_report(data, ref.state))
    if ref.is_over or ref.awaiting_lot:
        return
    before, undo_depth = ref.state, len(ref.history)
    color = data.draw(st.sampled_from(list(Color)))
    too_many = ref.pucks_on_board(color) + 1
    split = data.draw(st.integers(0, too_many))
    bad = data.draw(
        st.sampled_from(
            [
                ShotReport(
                    pocketed=(color.puck,) * split, off_board=(color.puck,) * (too_many - split)
                ),
                ShotReport(pocketed=(Piece.JACK,), off_board=(Piece.JACK,)),
                ShotReport(pocketed=(Piece.JACK, Piece.JACK)),
                ShotReport(striker_pocketed=True, striker_off_board=True),
            ]
        )
    )
    try:
        ref.report(bad)
    except ImpossibleReportError:
        pass
    else:
        raise AssertionError(f"{bad} was accepted")
    assert ref.state == before and len(ref.history) == undo_depth
