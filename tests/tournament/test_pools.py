"""The draw and the round-robin order (circle method)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from hikone_carrom.tournament import (
    Entry,
    Person,
    club_clashes,
    draw_pools,
    pool_sizes,
    round_robin,
)


@given(st.integers(2, 16))
def test_every_pair_of_a_pool_meets_exactly_once(n: int) -> None:
    ids = [f"e{i}" for i in range(n)]
    rounds = round_robin(ids)
    met = Counter(frozenset(p) for r in rounds for p in r)
    assert set(met) == {frozenset(p) for p in combinations(ids, 2)}
    assert set(met.values()) == {1}
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for r in rounds:  # nobody twice in a round
        seen = [x for p in r for x in p]
        assert len(seen) == len(set(seen))


def test_sides_alternate_roughly_evenly() -> None:
    firsts = Counter(a for r in round_robin([f"e{i}" for i in range(6)]) for a, _ in r)
    assert max(firsts.values()) - min(firsts.values()) <= 2


@given(st.integers(2, 200), st.integers(2, 10))
def test_pool_sizes_are_even_and_within_the_limit(n: int, size: int) -> None:
    sizes = pool_sizes(n, size)
    assert sum(sizes) == n and max(sizes) <= size and max(sizes) - min(sizes) <= 1


def _entries(clubs: list[int]) -> list[Entry]:
    return [
        Entry(f"GS-{i:03d}", "GS", (Person(f"選手{i}", "せんしゅ", f"C{c}", age=30),))
        for i, c in enumerate(clubs)
    ]


@settings(max_examples=60, deadline=None)
@given(st.integers(7, 60), st.integers(0, 10_000), st.data())
def test_draw_keeps_clubs_apart_when_possible(n: int, seed: int, data: st.DataObject) -> None:
    pools_count = len(pool_sizes(n, 6))
    # every club no larger than the number of pools: a clash-free draw exists
    clubs = data.draw(st.lists(st.integers(0, 30), min_size=n, max_size=n))
    counts = Counter(clubs)
    for club, k in list(counts.items()):
        if k > pools_count:
            clubs = [c if c != club or j < pools_count else 100 + j for j, c in enumerate(clubs)]
    entries = _entries(clubs)
    pools = draw_pools("GS", entries, 6, seed)
    by_id = {e.id: e for e in entries}
    members = [[by_id[i] for i in p.entries] for p in pools]
    assert sorted(i for p in pools for i in p.entries) == sorted(by_id)
    assert club_clashes(members) == 0


def test_same_seed_same_draw_and_another_seed_another() -> None:
    entries = _entries([i % 5 for i in range(30)])
    assert draw_pools("GS", entries, 6, 1) == draw_pools("GS", entries, 6, 1)
    assert draw_pools("GS", entries, 6, 1) != draw_pools("GS", entries, 6, 2)


def test_seeds_go_in_snake_order_and_withdrawn_entries_are_left_out() -> None:
    entries = _entries(list(range(12)))
    entries = [
        Entry(e.id, e.division, e.members, seed=i + 1 if i < 4 else None)
        for i, e in enumerate(entries)
    ]
    entries[11] = Entry(entries[11].id, "GS", entries[11].members, status="withdrawn")
    pools = draw_pools("GS", entries, 6, 0)
    assert len(pools) == 2
    assert pools[0].entries[:2] == ("GS-000", "GS-003")  # seeds 1 and 4
    assert pools[1].entries[:2] == ("GS-001", "GS-002")  # seeds 2 and 3
    assert "GS-011" not in {i for p in pools for i in p.entries}
