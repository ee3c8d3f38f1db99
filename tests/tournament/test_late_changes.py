"""Changes after the draw: late entries, corrected entries, the ranking rules, and the knockout's
board slots once its players are known (a person in two divisions is never on two boards at
once)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from tests.tournament.helpers import adult, general_event

from hikone_carrom.tournament import (
    Entry,
    Person,
    Result,
    StandingRules,
    Tournament,
    TournamentError,
    TournamentSettings,
    championship_divisions,
    clashes,
    parse_entries_csv,
)


def _late(event: Tournament, name: str, club: str = "遅刻クラブ") -> Entry:
    return Entry(event.next_entry_id("GS"), "GS", (adult(name, club),))


def _planned_event(entries: int = 14) -> Tournament:
    event = general_event(entries)
    event.draw("GS")
    event.make_plan()
    return event


def test_a_late_entry_joins_the_smallest_pool_not_begun_and_only_its_matches_move() -> None:
    event = _planned_event()  # pools of 5, 5 and 4
    assert event.plan is not None
    before = event.plan.by_match()
    pool = event.add_entry(_late(event, "遅刻 太郎"), now_s=event.settings.start_s + 600)
    assert pool is not None and pool.number == 3 and len(pool.entries) == 5
    games = [m for m in event.matches("GS") if m.pool == 3]
    pairs = Counter(frozenset(m.sides) for m in games)
    assert set(pairs) == {frozenset(p) for p in combinations(pool.entries, 2)}
    assert set(pairs.values()) == {1}  # every pair of the pool meets exactly once
    after = event.plan.by_match()
    assert {m.id for m in games} <= set(after)
    for match, slot in before.items():
        if not match.startswith("GS-C-") and event.match(match).stage == "pool":
            assert after[match] == slot  # nobody else's pool match moves
    for m in games:
        assert after[m.id].start_s >= event.settings.start_s + 600
    assert clashes(event.plan, event.jobs()) == set()


def test_a_late_entry_avoids_pools_with_a_result_or_a_called_match() -> None:
    event = _planned_event()
    first_a = next(m for m in event.matches("GS") if m.pool == 3)
    event.record(first_a.id, Result.from_scores(112, 0))
    first_b = next(m for m in event.matches("GS") if m.pool == 2)
    pool = event.add_entry(_late(event, "遅刻 一郎"), started={first_b.id})
    assert pool is not None and pool.number == 1


def test_a_late_entry_is_refused_with_a_sentence_when_no_pool_can_take_it() -> None:
    event = _planned_event()
    for number in (1, 2, 3):
        m = next(m for m in event.matches("GS") if m.pool == number)
        event.record(m.id, Result.from_scores(5, 3))
    with pytest.raises(TournamentError) as err:
        event.add_entry(_late(event, "遅刻 次郎"))
    assert err.value.code == "pools_begun" and "始まっている" in err.value.ja
    assert len(event.entries) == 14  # nothing changed

    full = general_event(12)  # two pools of 6
    full.draw("GS")
    full.add_entry(_late(full, "遅刻 A"))
    full.add_entry(_late(full, "遅刻 B"))  # pools of 7: one more than their size
    with pytest.raises(TournamentError) as err:
        full.add_entry(_late(full, "遅刻 C"))
    assert err.value.code == "pools_full" and "7組" in err.value.ja


def test_a_late_entry_into_a_pool_smaller_than_the_places_remakes_the_bracket() -> None:
    event = general_event(2)
    event.draw("GS")
    assert len(event.brackets["GS"].places()) == 2
    event.add_entry(_late(event, "遅刻 三郎"))
    assert len(event.brackets["GS"].places()) == 3  # the best 3 of a pool of 3


def test_late_entries_from_a_csv_file_are_placed_one_by_one() -> None:
    event = _planned_event()
    data = (
        "部門,氏名,よみがな,所属,年齢\n"
        "GS,遅刻 花子,ちこく はなこ,米原,30\n"
        "GS,遅刻 次郎,ちこく じろう,長浜,40\n"
    )
    report = parse_entries_csv(data.encode(), event)
    assert report.ok, report.problems
    pools = [event.add_entry(e) for e in report.entries]
    assert [p.number for p in pools if p] == [3, 1]


def test_an_entry_is_corrected_with_the_same_checks_as_a_new_one() -> None:
    event = Tournament(TournamentSettings("テスト"), championship_divisions())
    child = Person("山田 太郎", "やまだ たろう", "彦根", age=8, school_year=2)
    event.add_entry(Entry("JA-001", "JA", (child,)))
    event.add_entry(
        Entry("JA-002", "JA", (Person("佐藤 次郎", "さとう じろう", age=7, school_year=1),))
    )
    with pytest.raises(TournamentError) as err:
        event.update_entry("JA-001", [adult("山田 一郎")])
    assert err.value.code == "not_eligible" and "ジュニアA" in err.value.ja
    with pytest.raises(TournamentError) as err:
        event.update_entry("JA-002", [child])
    assert err.value.code == "entered_twice"
    fixed = event.update_entry("JA-001", [Person("山田 太朗", "やまだ たろう", "彦根", age=8,
                                                 school_year=2)], seed=1)  # fmt: skip
    assert fixed.name == "山田 太朗" and fixed.seed == 1 and event.entry("JA-001") == fixed
    moved = event.update_entry("JA-002", [adult("佐藤 次郎")], division="GS")
    assert moved.division == "GS"
    event.add_entry(Entry("JA-003", "JA", (Person("林 蓮", "はやし れん", age=6, school_year=1),)))
    event.draw("JA")
    with pytest.raises(TournamentError) as err:
        event.update_entry("JA-001", [child], division="JB")
    assert err.value.code == "drawn"


def test_a_correction_that_reveals_one_person_in_two_divisions_moves_their_matches() -> None:
    event = Tournament(TournamentSettings("テスト", boards=6), championship_divisions())
    kids = [Person(f"子{i}", "こども", f"クラブ{i}", age=8, school_year=2) for i in range(6)]
    for k in kids:
        event.add_entry(Entry(event.next_entry_id("JA"), "JA", (k,)))
    for i in range(6):
        other = Person(f"ちがう子{i}", "ちがうこ", "別", age=8, school_year=2)
        event.add_entry(Entry(event.next_entry_id("FP"), "FP", (adult(f"親{i}"), other)))
    event.draw("JA")
    event.draw("FP")
    old = event.make_plan()
    # FP-001's child was typed wrongly: it is 子0, who plays junior A at the same times
    event.update_entry("FP-001", [adult("親0"), kids[0]], now_s=event.settings.start_s)
    assert event.plan is not None
    assert clashes(old, event.jobs())  # the old plan puts 子0 on two boards at once
    assert clashes(event.plan, event.jobs()) == set()


def test_the_ranking_rules_change_until_a_pool_closes() -> None:
    event = general_event(3)
    event.draw("GS")
    a, b, c = event.pools["GS"][0].entries

    def win(winner: str, loser: str, score: int, against: int) -> None:
        m = next(m for m in event.matches("GS") if set(m.sides) == {winner, loser})
        first = m.sides[0] == winner
        event.record(m.id, Result.from_scores(*((score, against) if first else (against, score))))

    win(a, b, 112, 0)
    win(b, c, 3, 2)
    win(c, a, 2, 1)
    # every entry has one win; point difference decides, a first
    sides = {m.id: m.sides for m in event.matches("GS")}
    first = event.standings("GS", 1)[0]
    assert (first.entry, first.decided_by) == (a, "point_difference")
    event.set_rules(StandingRules(order=("match_points", "pucks", "lot"), win=3))
    table = event.standings("GS", 1)
    assert table[0].match_points == 3 and table[0].decided_by in ("pucks", "lot")
    assert sides == {m.id: m.sides for m in event.matches("GS")}
    event.close_pool("GS", 1)
    with pytest.raises(TournamentError) as err:
        event.set_rules(StandingRules())
    assert err.value.code == "pool_closed" and "確定を取り消して" in err.value.ja
    assert event.settings.rules.win == 3


def test_an_entry_withdrawn_after_the_draw_leaves_a_plannable_event() -> None:
    event = general_event(8)
    event.draw("GS")
    event.set_status("GS-001", "withdrawn")
    plan = event.make_plan()  # its forfeits are not played and nothing waits on them
    assert plan.slots and clashes(plan, event.jobs()) == set()


@pytest.mark.parametrize("seed", [0, 1])
def test_when_pools_close_the_knockout_never_puts_a_person_on_two_boards(seed: int) -> None:
    from hikone_carrom.bench.tournament import simulated_championship

    event = simulated_championship(seed=seed, scale=0.3)  # children in singles and family pairs
    for division in event.divisions:
        event.draw(division)
    event.make_plan()
    found = 0
    for division in ("JA", "JB"):
        for m in event.matches(division):
            if m.stage == "pool":
                event.record(m.id, Result.from_scores(112, 3))
        old = event.plan
        assert old is not None
        done = max(s.end_s for s in old.slots if s.match.startswith(f"{division}-") and
                   event.match(s.match).stage == "pool")  # fmt: skip
        for pool in event.pools[division]:
            event.close_pool(division, pool.number, now_s=done)
        found += len(clashes(old, event.jobs()))  # the old plan, the players known now
        assert clashes(event.plan, event.jobs()) == set()
        for m in event.matches(division):
            slot = event.plan.slot(m.id)
            if m.stage == "knockout" and slot is not None and old.slot(m.id) != slot:
                assert slot.start_s >= done
    assert found  # the old plan did put someone on two boards at once
