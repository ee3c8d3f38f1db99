"""The referee's surface: errors change nothing, serialisation round-trips, words cite rules."""

from __future__ import annotations

import json

import pytest
from rules_helpers import referee_at

import hikone_carrom.rules as rules
from hikone_carrom.rules import (
    Color,
    Foul,
    ImpossibleReportError,
    InvalidOptionsError,
    InvalidPlayersError,
    InvalidReportError,
    InvalidSeatError,
    NothingToUndoError,
    Outcome,
    Piece,
    Referee,
    RefereeState,
    RuleOptions,
    RulesError,
    Ruling,
    ShotReport,
    StateFormatError,
    explain,
    explain_outcome,
)

R, G, J = Piece.RED, Piece.GREEN, Piece.JACK


def test_public_api_names_exist() -> None:
    for name in rules.__all__:
        assert hasattr(rules, name), name
    for name in ("Referee", "RuleOptions", "ShotReport", "Ruling", "Piece", "Color", "Foul"):
        assert name in rules.__all__


def test_errors_are_value_errors_with_english_and_japanese() -> None:
    with pytest.raises(InvalidPlayersError) as err:
        Referee(players=3)
    assert isinstance(err.value, RulesError) and isinstance(err.value, ValueError)
    assert err.value.en and err.value.ja and err.value.message("ja") == err.value.ja


@pytest.mark.parametrize(
    "report",
    [
        ShotReport(pocketed=(R,) * 13),
        ShotReport(pocketed=(R,) * 7, off_board=(R,) * 6),
        ShotReport(pocketed=(J, J)),
        ShotReport(pocketed=(J,), off_board=(J,)),
        ShotReport(striker_pocketed=True, striker_off_board=True),
    ],
)
def test_impossible_reports_raise_and_change_nothing(report: ShotReport) -> None:
    ref = referee_at(2, pocketed=(0, 0))
    before = ref.state
    with pytest.raises(ImpossibleReportError):
        ref.report(report)
    assert ref.state == before and not ref.can_undo


def test_pocketed_pucks_cannot_be_pocketed_again() -> None:
    ref = referee_at(2, pocketed=(10, 0))
    with pytest.raises(ImpossibleReportError):
        ref.report(ShotReport(pocketed=(R, R, R)))


def test_malformed_reports_are_refused_at_once() -> None:
    with pytest.raises(InvalidReportError):
        ShotReport(fouls=(Foul.STRIKER_POCKETED,))
    with pytest.raises(InvalidReportError):
        ShotReport(fouls=(Foul.TOUCHED_STRIKER, Foul.TOUCHED_STRIKER))
    with pytest.raises(InvalidReportError):
        ShotReport(striker_pocketed=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidReportError):
        ShotReport(seat=-1)
    with pytest.raises(InvalidReportError):
        ShotReport(pocketed="red")  # type: ignore[arg-type]
    ref = Referee(players=2)
    with pytest.raises(InvalidSeatError):
        ref.report(ShotReport(seat=2))
    with pytest.raises(InvalidSeatError):
        ref.color(5)


def test_bad_options_are_refused() -> None:
    with pytest.raises(InvalidOptionsError):
        RuleOptions(deadlock="coin")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionsError):
        RuleOptions(unshootable_penalty=-1)
    with pytest.raises(InvalidOptionsError):
        RuleOptions(match_time_s=0)
    with pytest.raises(InvalidSeatError):
        Referee(players=2, options=RuleOptions(first_seat=3))
    assert RuleOptions(match_time_s=300).match_time_s == 300.0


def test_undo_with_nothing_raises() -> None:
    with pytest.raises(NothingToUndoError):
        Referee().undo()


def test_state_is_hashable_and_round_trips_through_json() -> None:
    ref = referee_at(4, options=RuleOptions.championship(deadlock="lot"), pocketed=(3, 0))
    ref.report(ShotReport(striker_pocketed=True, pocketed=(R, G)))
    ref.call_time()
    data = json.loads(json.dumps(ref.state.to_dict()))
    again = RefereeState.from_dict(data)
    assert again == ref.state and hash(again) == hash(ref.state)
    assert len({ref.state, again}) == 1
    copy = Referee.from_state(again)
    assert copy.shooter == ref.shooter and copy.scores() == ref.scores()
    assert Referee(state=again).state is again


def test_from_dict_refuses_malformed_or_inconsistent_states() -> None:
    good = Referee(players=2).state.to_dict()
    for bad in (
        None,
        {**good, "version": 99},
        {**good, "players": 3},
        {**good, "pocketed": {"red": 13, "green": 0}},
        {**good, "pocketed": {"red": 2, "green": 0}, "debt": {"red": 1, "green": 0}},
        {**good, "shooter": "0"},
        {**good, "options": {"nonsense": 1}},
        {k: v for k, v in good.items() if k != "debt"},
    ):
        with pytest.raises(StateFormatError):
            RefereeState.from_dict(bad)


def test_report_and_ruling_round_trip_through_json() -> None:
    ref = referee_at(2, pocketed=(4, 0))
    report = ShotReport(pocketed=(R, J), off_board=(G,), fouls=(Foul.TOUCHED_STRIKER,))
    ruling = ref.report(report)
    assert ShotReport.from_dict(json.loads(json.dumps(report.to_dict()))) == report
    assert Ruling.from_dict(json.loads(json.dumps(ruling.to_dict()))) == ruling
    outcome = Outcome(Color.GREEN, "R7b", (3, 5))
    assert Outcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome


def test_messages_cite_rules_in_english_and_japanese() -> None:
    ref = referee_at(2, pocketed=(2, 0))
    r = ref.report(ShotReport(striker_pocketed=True))
    # the foul states the penalty; the next sentence says where the one puck comes from (R5h)
    assert explain(r)[:2] == (
        "Striker pocketed: a penalty of 1 puck (R5a)",
        "1 puck of Red taken out of the pockets to the jack spot (R5h)",
    )
    assert (
        explain(r, "ja")[0]
        == "ストライカーがポケットに入りました：ペナルティはパック1個です（R5a）"
    )
    assert explain_outcome(Outcome(None, "R7d", (3, 3)), "ja").endswith("（R7d）")
    assert explain_outcome(Outcome(Color.RED, "R7a", (112, 0))) == (
        "Red pocketed the jack after all its pucks and wins (R7a)"
    )


def test_preview_changes_nothing() -> None:
    ref = Referee(players=2)
    state, ruling = ref.preview(ShotReport(pocketed=(R,)))
    assert ruling.continues and state.pocketed == (1, 0)
    assert ref.state == RefereeState.initial(2) and not ref.can_undo
