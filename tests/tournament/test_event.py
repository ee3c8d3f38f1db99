"""The event aggregate: entries, check-in, withdrawal, results, closing pools, corrections."""

from __future__ import annotations

import random

import pytest
from tests.tournament.helpers import adult, general_event

from hikone_carrom.tournament import (
    BYE,
    Entry,
    Result,
    Tournament,
    TournamentError,
)


def play_pools(event: Tournament, division: str = "GS", seed: int = 0) -> None:
    rng = random.Random(seed)
    for m in event.matches(division):
        if (
            m.stage == "pool"
            and m.playable
            and not event.forfeited(m)
            and m.id not in event.results
        ):
            event.record(m.id, Result.from_scores(rng.randint(0, 12), rng.randint(0, 12)))


def play_knockout(event: Tournament, division: str = "GS") -> None:
    while True:
        todo = [
            m for m in event.matches(division)
            if m.stage == "knockout" and m.playable and m.id not in event.results
        ]  # fmt: skip
        if not todo:
            return
        for m in todo:
            event.record(m.id, Result.from_scores(112, 5))


def test_a_whole_small_event_from_entries_to_places() -> None:
    event = general_event(14)
    pools = event.draw("GS")
    assert [len(p.entries) for p in pools] == [5, 5, 4]
    plan = event.make_plan()
    assert len(plan.slots) == len(event.jobs())
    play_pools(event)
    for p in pools:
        table = event.close_pool("GS", p.number)
        assert [s.place for s in table] == list(range(1, len(p.entries) + 1))
    play_knockout(event)
    places = event.final_places("GS")
    assert set(places) == {1, 2, 3, 4}
    qualified = set(event.qualifiers("GS").values())
    assert all(e[0] in qualified for e in places.values())


def test_the_same_person_cannot_enter_a_division_twice() -> None:
    event = general_event(2)
    with pytest.raises(TournamentError) as err:
        event.add_entry(Entry("GS-099", "GS", (adult("選手0", "クラブ0"),)))
    assert err.value.code == "entered_twice"
    assert len(event.entries) == 2


def test_a_closed_pool_refuses_corrections_until_it_is_reopened() -> None:
    event = general_event(6)
    event.draw("GS")
    play_pools(event)
    event.close_pool("GS", 1)
    first = event.matches("GS")[0]
    before = event.results[first.id]
    with pytest.raises(TournamentError) as err:
        event.record(first.id, Result.from_scores(0, 112))
    assert err.value.code == "pool_closed" and "確定" in err.value.ja
    assert event.results[first.id] == before  # nothing changed
    event.reopen_pool("GS", 1)
    event.record(first.id, Result.from_scores(0, 112))
    table = event.close_pool("GS", 1)
    assert event.qualifiers("GS")[next(iter(event.brackets["GS"].places()))] == table[0].entry


def test_a_pool_cannot_reopen_once_its_qualifiers_played_on() -> None:
    event = general_event(6)
    event.draw("GS")
    play_pools(event)
    event.close_pool("GS", 1)
    play_knockout(event)
    with pytest.raises(TournamentError) as err:
        event.reopen_pool("GS", 1)
    assert err.value.code == "knockout_started"


def test_a_pool_closes_only_when_complete() -> None:
    event = general_event(6)
    event.draw("GS")
    with pytest.raises(TournamentError) as err:
        event.close_pool("GS", 1)
    assert err.value.code == "pool_open"


def test_knockout_needs_a_winner_and_a_played_on_winner_is_locked() -> None:
    event = general_event(12)
    event.draw("GS")
    play_pools(event)
    for p in event.pools["GS"]:
        event.close_pool("GS", p.number)
    first = next(m for m in event.matches("GS") if m.stage == "knockout" and m.playable)
    with pytest.raises(TournamentError) as err:
        event.record(first.id, Result.from_scores(4, 4))
    assert err.value.code == "knockout_draw"
    play_knockout(event)
    with pytest.raises(TournamentError) as err:
        event.record(first.id, Result.from_scores(0, 9))
    assert err.value.code == "played_on"
    event.record(first.id, Result.from_scores(112, 11))  # same winner: a score correction


def test_a_withdrawn_entry_forfeits_and_its_pool_can_close() -> None:
    event = general_event(5)
    event.draw("GS")
    gone = event.pools["GS"][0].entries[0]
    event.set_status(gone, "withdrawn")
    forfeits = [m for m in event.matches("GS") if gone in m.sides]
    assert all(event.forfeited(m) for m in forfeits)
    assert not {m.id for m in forfeits} & {j.id for j in event.jobs()}  # not planned
    with pytest.raises(TournamentError) as err:
        event.record(forfeits[0].id, Result.from_scores(3, 2))
    assert err.value.code == "forfeited"
    play_pools(event)
    table = event.close_pool("GS", 1)
    assert table[-1].entry == gone and table[-1].withdrawn
    assert (table[-1].played, table[-1].lost) == (4, 4)
    assert gone not in event.qualifiers("GS").values()
    with pytest.raises(TournamentError) as err:
        event.set_status(gone, "entered")
    assert err.value.code == "pool_closed"


def test_an_empty_place_is_a_walkover_and_not_planned() -> None:
    event = general_event(3)  # one pool of 3, all three advance
    event.draw("GS")
    for entry in event.pools["GS"][0].entries[1:]:
        event.set_status(entry, "withdrawn")
    play_pools(event)
    event.close_pool("GS", 1)
    sides = [m.sides for m in event.matches("GS") if m.stage == "knockout"]
    assert any(BYE in s for s in sides)
    event.make_plan()


def test_search_finds_kana_and_kanji() -> None:
    event = general_event(0)
    event.add_entry(Entry("GS-001", "GS", (adult("山田 太郎", "彦根", "やまだ たろう"),)))
    event.add_entry(Entry("GS-002", "GS", (adult("佐藤 花子", "彦根", "さとう はなこ"),)))
    assert [e.id for e in event.search("ヤマダ")] == ["GS-001"]
    assert [e.id for e in event.search("花子")] == ["GS-002"]
    assert event.search("  ") == []


def test_the_event_round_trips_through_a_dict() -> None:
    event = general_event(9)
    event.draw("GS")
    event.make_plan()
    play_pools(event)
    event.close_pool("GS", 1)
    again = Tournament.from_dict(event.to_dict())
    assert again.to_dict() == event.to_dict()
    assert again.standings("GS", 1) == event.standings("GS", 1)


def test_the_draw_is_fixed_once_results_exist() -> None:
    event = general_event(6)
    event.draw("GS")
    play_pools(event)
    with pytest.raises(TournamentError) as err:
        event.draw("GS")
    assert err.value.code == "results_exist"
