"""The knockout: seeding, byes, same-pool separation, winners advancing, places 1-4."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from hikone_carrom.tournament import (
    BYE,
    PoolPlace,
    Result,
    build_bracket,
    meeting_round,
    seeding_order,
)


def test_seeding_order_keeps_top_seeds_apart() -> None:
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = seeding_order(16)
    line = {s: i for i, s in enumerate(order)}
    assert meeting_round(line[1], line[2]) == 4  # only in the final
    top4 = [line[s] for s in (1, 2, 3, 4)]
    assert all(meeting_round(a, b) >= 3 for i, a in enumerate(top4) for b in top4[i + 1 :])


def _places(pools: int, advance: int) -> list[PoolPlace]:
    return [PoolPlace(k, p) for p in range(1, pools + 1) for k in range(1, advance + 1)]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 3), st.booleans())
def test_a_bracket_has_each_qualifier_exactly_once(pools: int, advance: int, third: bool) -> None:
    places = _places(pools, advance)
    bracket = build_bracket("GS", places, third_place=third)
    assert Counter(bracket.places()) == Counter(places)
    size = len(bracket.lines)
    assert size >= len(places) and size & (size - 1) == 0 and size < 2 * max(2, len(places))
    # round-1 feeds name each place once: a place never appears in two matches
    fed = [f.place for m in bracket.matches for f in m.feeds if f.place is not None]
    assert len(fed) == len(set(fed))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.integers(2, 3))
def test_pool_winners_meet_late_and_same_pool_entrants_are_separated(
    pools: int, advance: int
) -> None:
    bracket = build_bracket("GS", _places(pools, advance))
    line = {p: i for i, p in enumerate(bracket.lines) if p is not None}
    rounds = bracket.rounds
    # winner and runner-up of a pool are in opposite halves: they can meet only in the final
    for pool in range(1, pools + 1):
        assert meeting_round(line[PoolPlace(1, pool)], line[PoolPlace(2, pool)]) == rounds
    # two pool winners never meet in round 1
    winners = [line[PoolPlace(1, p)] for p in range(1, pools + 1)]
    assert all(meeting_round(a, b) > 1 for i, a in enumerate(winners) for b in winners[i + 1 :])


def test_byes_go_to_the_pool_winners() -> None:
    bracket = build_bracket("GS", _places(3, 3))  # 9 qualifiers in 16 lines: 7 byes
    with_bye = []
    for i in range(0, len(bracket.lines), 2):
        a, b = bracket.lines[i], bracket.lines[i + 1]
        assert a is not None or b is not None
        if a is None or b is None:
            with_bye.append((a or b).place)  # type: ignore[union-attr]
    # the 7 top seeds: the 3 winners, the 3 runners-up and one third
    assert Counter(with_bye) == Counter({1: 3, 2: 3, 3: 1})


def test_results_advance_winners_to_the_final_and_the_third_place_match() -> None:
    places = _places(2, 2)  # A1 B1 A2 B2: two semi-finals
    bracket = build_bracket("GS", places, third_place=True)
    who = {p: p.label for p in places}
    sides = bracket.sides(who, {})
    semis = [m for m in bracket.matches if m.round == 1]
    assert len(semis) == 2 and all(None not in sides[m.id] for m in semis)
    results = {semis[0].id: Result.from_scores(112, 3), semis[1].id: Result.from_scores(2, 9)}
    sides = bracket.sides(who, results)
    final = next(m for m in bracket.matches if m.final)
    third = next(m for m in bracket.matches if m.third_place)
    s0, s1 = (bracket.sides(who, {})[m.id] for m in semis)
    assert sides[final.id] == (s0[0], s1[1])
    assert sides[third.id] == (s0[1], s1[0])
    results[final.id] = Result.from_scores(3, 5)
    results[third.id] = Result.from_scores(6, 6, winner=0)  # R7d lot
    assert bracket.final_places(who, results) == {1: [s1[1]], 2: [s0[0]], 3: [s0[1]], 4: [s1[0]]}


def test_without_third_place_match_both_semi_losers_share_third() -> None:
    places = _places(2, 2)
    bracket = build_bracket("GS", places, third_place=False)
    assert not any(m.third_place for m in bracket.matches)
    who = {p: p.label for p in places}
    semis = [m for m in bracket.matches if m.round == 1]
    results = {m.id: Result.from_scores(10, 1) for m in semis}
    assert len(bracket.final_places(who, results)[3]) == 2


def test_an_empty_pool_place_is_a_walkover() -> None:
    places = _places(2, 2)
    bracket = build_bracket("GS", places)
    who = {p: p.label for p in places}
    who[PoolPlace(2, 2)] = BYE
    sides = bracket.sides(who, {})
    semi = next(m for m in bracket.matches if BYE in sides[m.id])
    final = next(m for m in bracket.matches if m.final)
    assert sides[semi.id][0] in sides[final.id] or sides[semi.id][1] in sides[final.id]
