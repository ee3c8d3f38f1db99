"""Standings: match points, the tie-breaks in their configurable order, forfeits, withdrawals."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hikone_carrom.tournament import (
    Pairing,
    Result,
    StandingRules,
    TournamentError,
    round_robin,
    standings,
)

IDS = ["a", "b", "c", "d"]


def _pairings(ids: list[str]) -> list[Pairing]:
    return [Pairing(f"m{i}", pair) for i, pair in enumerate(p for r in round_robin(ids) for p in r)]


def _by_sides(pairings: list[Pairing], results: dict[tuple[str, str], Result]) -> dict[str, Result]:
    out = {}
    for p in pairings:
        if p.sides in results:
            out[p.id] = results[p.sides]
        elif p.sides[::-1] in results:
            out[p.id] = results[p.sides[::-1]].swapped()
    return out


def test_match_points_win_2_draw_1_loss_0() -> None:
    pairings = [Pairing("m1", ("a", "b")), Pairing("m2", ("b", "c")), Pairing("m3", ("a", "c"))]
    results = {
        "m1": Result.from_scores(10, 4),
        "m2": Result.from_scores(5, 5),  # a draw (R7d deadlock "draw")
        "m3": Result.from_scores(112, 6),  # R7a: jack after all pucks
    }
    table = standings(["a", "b", "c"], pairings, results)
    assert [(s.entry, s.match_points, s.place) for s in table] == [
        ("a", 4, 1), ("b", 1, 2), ("c", 1, 3)
    ]  # fmt: skip
    a = table[0]
    assert (a.won, a.drawn, a.lost, a.scored, a.conceded, a.difference) == (2, 0, 0, 122, 10, 112)


def test_point_difference_by_the_R7b_score_breaks_a_tie() -> None:
    ids = ["a", "b", "c"]
    pairings = _pairings(ids)
    results = _by_sides(
        pairings,
        {("a", "b"): Result.from_scores(112, 0), ("b", "c"): Result.from_scores(8, 2),
         ("c", "a"): Result.from_scores(9, 3)},
    )  # fmt: skip
    table = standings(ids, pairings, results)
    assert [s.entry for s in table] == ["a", "c", "b"]  # all on 2 points: +106, 0, -106
    assert table[0].decided_by == "point_difference"


def test_head_to_head_among_the_entries_still_level() -> None:
    ids = ["a", "b", "c", "d"]
    pairings = _pairings(ids)
    results = _by_sides(
        pairings,
        {
            ("a", "b"): Result.from_scores(5, 4),  # a beat b
            ("c", "d"): Result.from_scores(8, 5),
            ("a", "c"): Result.from_scores(2, 4),
            ("b", "d"): Result.from_scores(4, 2),
            ("a", "d"): Result.from_scores(7, 8),
            ("b", "c"): Result.from_scores(5, 3),
        },
    )
    table = standings(ids, pairings, results, StandingRules())
    points = {s.entry: s.match_points for s in table}
    assert points == {"a": 2, "b": 4, "c": 4, "d": 2}
    b, c = next(s for s in table if s.entry == "b"), next(s for s in table if s.entry == "c")
    assert b.difference == c.difference == 3
    assert [s.entry for s in table[:2]] == ["b", "c"]  # b beat c
    assert table[0].decided_by == "head_to_head"


def test_the_order_of_tie_breaks_is_the_events_choice() -> None:
    ids = ["a", "b"]
    pairings = [Pairing("m1", ("a", "b")), Pairing("m2", ("b", "a"))]
    results = {
        "m1": Result.from_scores(112, 11),  # a: +101, 0 pucks... pucks from score: 12 vs 11
        "m2": Result(scores=(12, 0), pucks=(12, 0), winner=0),
    }
    default = standings(ids, pairings, results)
    assert [s.entry for s in default] == ["a", "b"]  # difference +89 first
    pucks_first = standings(
        ids, pairings, results, StandingRules(order=("match_points", "pucks", "lot"))
    )
    assert [s.entry for s in pucks_first] == ["b", "a"]  # 23 pucks to 12
    assert pucks_first[0].decided_by == "pucks"


def test_without_a_lot_level_entries_share_a_place() -> None:
    table = standings(["a", "b"], [Pairing("m", ("a", "b"))], {"m": Result.from_scores(4, 4)},
                      StandingRules(order=("match_points", "point_difference")))  # fmt: skip
    assert [s.place for s in table] == [1, 1]
    lot = standings(["a", "b"], [Pairing("m", ("a", "b"))], {"m": Result.from_scores(4, 4)})
    assert [s.place for s in lot] == [1, 2] and lot[0].decided_by == "lot"


def test_a_forfeit_gives_the_side_present_the_forfeit_score() -> None:
    rules = StandingRules(forfeit_score=(12, 0))
    table = standings(["a", "b"], [Pairing("m", ("a", "b"))], {"m": Result.walkover(1, (12, 0))},
                      rules)  # fmt: skip
    assert (table[0].entry, table[0].scored, table[0].won) == ("a", 12, 1)
    assert (table[1].lost, table[1].scored) == (1, 0)


def test_a_withdrawn_entry_forfeits_what_it_has_not_played_and_is_listed_last() -> None:
    ids = ["a", "b", "c"]
    pairings = _pairings(ids)
    results = _by_sides(pairings, {("a", "b"): Result.from_scores(3, 10)})
    table = standings(ids, pairings, results, withdrawn=frozenset({"b"}))
    assert table[-1].entry == "b" and table[-1].withdrawn
    b = table[-1]
    assert (b.won, b.lost) == (1, 1)  # its played win stands, the unplayed match is forfeited
    c = next(s for s in table if s.entry == "c")
    assert c.won == 1 and c.scored == 12


def test_bad_rules_are_refused() -> None:
    with pytest.raises(TournamentError):
        StandingRules(order=("match_points", "match_points"))
    with pytest.raises(TournamentError):
        StandingRules(order=("coin",))  # type: ignore[arg-type]
    with pytest.raises(TournamentError):
        StandingRules(win=1, draw=1)


def test_results_must_follow_R7b_and_R7d() -> None:
    with pytest.raises(TournamentError):
        Result(scores=(5, 4), pucks=(5, 4), winner=None)  # a draw needs level scores
    with pytest.raises(TournamentError):
        Result(scores=(3, 4), pucks=(3, 4), winner=0)  # the winner cannot trail
    with pytest.raises(TournamentError):
        Result.from_scores(113, 0)
    assert Result.from_scores(7, 7, winner=1).winner == 1  # R7d lot


scores = st.integers(0, 12)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(3, 7),
    st.lists(st.tuples(scores, scores, st.booleans()), min_size=21, max_size=21),
    st.randoms(use_true_random=False),
    st.integers(0, 3),
)
def test_standings_do_not_depend_on_the_order_results_arrive(
    n: int, raw: list[tuple[int, int, bool]], rnd: object, withdrawn: int
) -> None:
    import random

    assert isinstance(rnd, random.Random)
    ids = [f"e{i}" for i in range(n)]
    pairings = _pairings(ids)
    results: dict[str, Result] = {}
    for p, (a, b, jack) in zip(pairings, raw, strict=False):
        if jack and a != b:
            results[p.id] = Result.from_scores(112, b) if a > b else Result.from_scores(a, 112)
        else:
            results[p.id] = Result.from_scores(a, b)
    out = frozenset(ids[:withdrawn])
    first = standings(ids, pairings, results, withdrawn=out)
    items = list(results.items())
    rnd.shuffle(items)
    shuffled_pairings = list(pairings)
    rnd.shuffle(shuffled_pairings)
    again = standings(ids, shuffled_pairings, dict(items), withdrawn=out)
    assert first == again
    assert sorted(s.entry for s in first) == sorted(ids)
    assert sum(s.won for s in first) == sum(s.lost for s in first)
    assert all(a.match_points >= b.match_points for a, b in combinations(
        [s for s in first if not s.withdrawn], 2))  # fmt: skip
