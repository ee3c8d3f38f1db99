"""Corrections after a call: the called matches a proposed correction would change are listed,
the event itself unchanged."""

from __future__ import annotations

import pytest
from tests.tournament.helpers import general_event

from hikone_carrom.tournament import Result, Tournament, TournamentError
from hikone_carrom.tournament.call_conflicts import (
    SideChange,
    clear_conflicts,
    record_conflicts,
    reopen_conflicts,
    status_conflicts,
)


def _knockout() -> Tournament:
    """12 entrants in 2 pools, both closed; GS-K1-02 feeds GS-K2-01 (as in issue 47)."""
    event = general_event(12)
    event.draw("GS")
    for pool in event.pools["GS"]:
        for m in event.fixtures.pool_games("GS")[pool.number]:
            event.record(m.id, Result.from_scores(112, 3))
        event.close_pool("GS", pool.number)
    return event


def test_correcting_the_winner_of_k1_02_changes_the_called_k2_01() -> None:
    event = _knockout()
    a, b = event.match("GS-K1-02").sides
    event.record("GS-K1-02", Result.from_scores(112, 3))
    first = event.match("GS-K2-01").sides
    assert first[1] == a
    changes = record_conflicts(event, {"GS-K2-01"}, "GS-K1-02", Result.from_scores(3, 112))
    assert changes == [SideChange("GS-K2-01", first, (first[0], b), True)]
    assert event.match("GS-K2-01").sides == first  # the event is unchanged
    assert event.results["GS-K1-02"].winner == 0


def test_a_correction_that_keeps_the_winner_changes_nobody() -> None:
    event = _knockout()
    event.record("GS-K1-02", Result.from_scores(112, 3))
    assert record_conflicts(event, {"GS-K2-01"}, "GS-K1-02", Result.from_scores(112, 9)) == []


def test_only_called_matches_are_listed() -> None:
    event = _knockout()
    event.record("GS-K1-02", Result.from_scores(112, 3))
    assert record_conflicts(event, {"GS-K1-04"}, "GS-K1-02", Result.from_scores(3, 112)) == []


def test_clearing_k1_02_leaves_the_called_k2_01_without_an_entrant() -> None:
    event = _knockout()
    event.record("GS-K1-02", Result.from_scores(112, 3))
    first = event.match("GS-K2-01").sides
    changes = clear_conflicts(event, {"GS-K2-01"}, "GS-K1-02")
    assert changes == [SideChange("GS-K2-01", first, (first[0], None), False)]
    assert "GS-K1-02" in event.results


def test_reopening_a_pool_takes_its_places_out_of_the_called_knockout() -> None:
    event = _knockout()
    first = event.match("GS-K1-02").sides
    changes = reopen_conflicts(event, {"GS-K1-02", "GS-K1-04"}, "GS", 2)
    assert changes == [SideChange("GS-K1-02", first, (None, None), False)]
    assert ("GS", 2) in event.closed


def test_withdrawing_an_entrant_makes_its_called_pool_match_a_forfeit() -> None:
    event = general_event(12)
    event.draw("GS")
    match = event.fixtures.pool_games("GS")[1][0]
    entry = match.sides[0]
    assert entry is not None
    changes = status_conflicts(event, {match.id}, entry, "withdrawn")
    assert changes == [SideChange(match.id, match.sides, match.sides, False)]
    assert event.entry(entry).status == "entered"
    assert status_conflicts(event, {match.id}, entry, "checked_in") == []


def test_a_refused_correction_raises_as_the_change_would() -> None:
    event = _knockout()
    event.record("GS-K1-02", Result.from_scores(112, 3))
    event.record("GS-K1-04", Result.from_scores(112, 3))
    event.record("GS-K2-01", Result.from_scores(112, 3))
    with pytest.raises(TournamentError) as err:
        record_conflicts(event, {"GS-F"}, "GS-K1-02", Result.from_scores(3, 112))
    assert err.value.code == "played_on"
