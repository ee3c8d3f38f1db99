"""Automatic mode's policy: which matches go to the boards now, and why the others wait."""

from __future__ import annotations

from tests.tournament.helpers import adult, general_event

from hikone_carrom.bench.autocall import run_day
from hikone_carrom.bench.tournament import simulated_championship
from hikone_carrom.tournament import (
    Entry,
    Result,
    Tournament,
    TournamentSettings,
    championship_divisions,
)
from hikone_carrom.tournament.autocall import (
    AutoMode,
    Waiting,
    describe,
    dispatch,
    pools_to_close,
)


def _people(event: Tournament, match_id: str) -> set[str]:
    out: set[str] = set()
    for side in event.match(match_id).sides:
        if side:
            out |= event.entry(side).people
    return out


def test_free_boards_take_the_first_planned_matches_nobody_twice() -> None:
    event = general_event(12, boards=8)
    event.draw("GS")
    event.make_plan()
    calls = dispatch(event, {}, ()).calls
    # 12 players: 6 matches at once, each on its planned board
    assert len(calls) == 6
    boards = [b for _, b in calls]
    assert len(set(boards)) == 6
    plan = event.plan
    assert plan is not None
    assert all(plan.slot(m) and plan.slot(m).board == b for m, b in calls)  # type: ignore[union-attr]
    seen: set[str] = set()
    for m, _ in calls:
        assert not (_people(event, m) & seen)
        seen |= _people(event, m)


def test_a_busy_board_sends_the_next_ready_match_to_a_free_one() -> None:
    event = general_event(12, boards=8)
    event.draw("GS")
    event.make_plan()
    first = dispatch(event, {}, ()).calls
    other, done = first[0], first[1]
    playing = dict(first[2:])
    # a later match was called by hand to the board planned for ``other``; ``done`` is over
    squatter = next(
        m.id
        for m in event.matches("GS")
        if m.stage == "pool" and m.id not in dict(first)
        and not (_people(event, m.id) & (_people(event, other[0]) | _people(event, done[0])))
    )  # fmt: skip
    playing[squatter] = other[1]
    again = dict(dispatch(event, playing, {*playing, done[0]}).calls)
    assert again[other[0]] == done[1]


def test_a_person_in_two_divisions_waits_for_the_other_match_then_goes() -> None:
    general, pairs = championship_divisions()[2], championship_divisions()[5]
    event = Tournament(TournamentSettings("テスト大会", boards=8, seed=3), [general, pairs])
    both = adult("二刀流", "クラブ0", "にとうりゅう")
    singles = [both, *(adult(f"選手{i}", f"クラブ{i % 3}") for i in range(3))]
    for p in singles:
        event.add_entry(Entry(event.next_entry_id("GS"), "GS", (p,)))
    for i in range(2):
        mate = both if i == 0 else adult(f"相方{i}", "クラブ1")
        partner = adult(f"組{i}", "クラブ2")
        event.add_entry(Entry(event.next_entry_id("GP"), "GP", (mate, partner)))
    event.draw("GS")
    event.draw("GP")
    event.make_plan()
    mine = {e.id for e in event.entries.values() if both.key in e.people}
    singles_match = next(m.id for m in event.matches("GS") if set(m.sides) & mine and m.round == 1)
    pair_match = next(m.id for m in event.matches("GP") if set(m.sides) & mine)
    playing = {singles_match: 1}
    found = dispatch(event, playing, set(playing))
    assert pair_match not in dict(found.calls)
    wait = found.waiting[pair_match]
    assert wait.code == "entrant" and wait.match == singles_match
    assert wait.entry is not None and both.key in event.entry(wait.entry).people
    # the singles match ends: the pair match goes to a board at once
    event.record(singles_match, Result.from_scores(112, 0))
    assert pair_match in dict(dispatch(event, {}, {singles_match}).calls)


def test_a_pool_closes_when_complete_unless_held_and_the_knockout_waits_for_it() -> None:
    event = general_event(8, boards=4)
    event.draw("GS")
    event.make_plan()
    assert pools_to_close(event) == []
    knockout = next(m for m in event.matches("GS") if m.stage == "knockout")
    wait = dispatch(event, {}, ()).waiting[knockout.id]
    assert wait.code == "pool" and wait.pool is not None and not wait.held
    for m in event.matches("GS"):
        if m.stage == "pool":
            event.record(m.id, Result.from_scores(112, 5))
    assert pools_to_close(event) == [("GS", 1), ("GS", 2)]
    event.auto = AutoMode(on=True, held=frozenset({("GS", 1)}))
    assert pools_to_close(event) == [("GS", 2)]
    event.close_pool("GS", 2)
    waiting = dispatch(event, {}, ()).waiting
    assert Waiting("pool", pool=("GS", 1), held=True) in waiting.values()
    event.close_pool("GS", 1)
    # both pools closed: the knockout's first matches go to the boards
    calls = dispatch(event, {}, ()).calls
    assert calls and all(event.match(m).stage == "knockout" for m, _ in calls)


def test_the_mode_is_stored_with_the_event_and_old_events_load_with_it_off() -> None:
    event = general_event(8)
    event.draw("GS")
    event.auto = AutoMode(on=True, held=frozenset({("GS", 2)}))
    again = Tournament.from_dict(event.to_dict())
    assert again.auto == event.auto
    old = event.to_dict()
    del old["auto"]
    assert Tournament.from_dict(old).auto == AutoMode()


def test_the_reasons_name_boards_or_an_online_events_games_in_both_languages() -> None:
    event = general_event(4)
    busy = Waiting("board", board=3, match="GS-A-02")
    assert describe(busy, event) == {"ja": "第3台で試合 GS-A-02 が行われています",
                                     "en": "Board 3 is busy with match GS-A-02"}  # fmt: skip
    online = Tournament(TournamentSettings("ネット大会", boards=2, online=True),
                        championship_divisions())  # fmt: skip
    assert describe(Waiting("ready", board=2), online) == {
        "ja": "対局2に呼び出せます（自動進行は停止中）",
        "en": "Ready for game 2 (automatic mode paused)",
    }


def test_a_whole_day_runs_by_automatic_mode_nobody_ever_on_two_boards() -> None:
    event = simulated_championship(boards=16, seed=2, scale=0.15)
    for division in event.divisions:
        event.draw(division)
    planned = {s.match for s in event.make_plan().slots}
    day = run_day(event, seed=2)
    assert day.clashes == 0
    assert day.calls == len(planned) and set(event.results) >= planned
    assert day.closes == sum(len(p) for p in event.pools.values())
    assert all(event.final_places(d).get(1) for d in event.pools)
