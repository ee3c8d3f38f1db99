"""Preliminary pools (予選リーグ): the draw and each pool's round-robin order.

The draw is seeded (snake order of the seed ranks) or random, always reproducible from a seed,
and keeps clubs apart where it can: large clubs are spread first, then swaps between pools remove
what clashes remain. The round-robin order is the circle method: every pair meets exactly once
and, round by round, everyone plays at most once (an odd pool gives one bye per round).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from hikone_carrom.tournament.entries import Entry
from hikone_carrom.tournament.errors import TournamentError

__all__ = ["Pool", "club_clashes", "draw_pools", "pool_label", "pool_sizes", "round_robin"]


@dataclass(frozen=True)
class Pool:
    """One pool of a division: ``number`` from 1, ``entries`` in draw order (entry ids)."""

    division: str
    number: int
    entries: tuple[str, ...]

    @property
    def label(self) -> str:
        """The pool as printed: A, B, ..., Z, AA, AB, ..."""
        return pool_label(self.number)


@cache
def pool_label(number: int) -> str:
    """Letters for pool ``number`` (1 -> A, 27 -> AA)."""
    text = ""
    n = number
    while n > 0:
        n, rest = divmod(n - 1, 26)
        text = chr(ord("A") + rest) + text
    return text


def pool_sizes(entries: int, pool_size: int) -> list[int]:
    """Sizes of the fewest pools of at most ``pool_size`` for ``entries``; they differ by at most
    one, larger pools first. Raises :class:`TournamentError` for fewer than 2 entries."""
    if entries < 2:
        raise TournamentError(
            "too_few_entries",
            f"A division needs at least 2 entries to play (has {entries})",
            f"試合をするには2組以上の参加が必要です（{entries}組）",
        )
    count = math.ceil(entries / pool_size)
    base, extra = divmod(entries, count)
    return [base + 1] * extra + [base] * (count - extra)


def _clashes_in(members: Sequence[Entry]) -> int:
    counts = Counter(club for e in members for club in e.clubs)
    return sum(c - 1 for c in counts.values() if c > 1)


def club_clashes(pools: Sequence[Sequence[Entry]]) -> int:
    """Pairs of the same club beyond the first in each pool, summed (0 = clubs kept apart)."""
    return sum(_clashes_in(p) for p in pools)


def draw_pools(
    division: str, entries: Sequence[Entry], pool_size: int, seed: int, *, seeded: bool = True
) -> tuple[Pool, ...]:
    """Draw the active ``entries`` of ``division`` into pools of at most ``pool_size``.

    With ``seeded``, entries with a seed rank go first in snake order (1 -> pool A, 2 -> B, ...,
    then back), one tier of seeds per round of pools; everyone else is placed at random
    (``random.Random(seed)``), the largest clubs first, each into the pool with the fewest of
    their clubs and then the most room. Same entries and seed, same pools.
    """
    active = [e for e in entries if e.active]
    sizes = pool_sizes(len(active), pool_size)
    rng = random.Random(seed)
    pools: list[list[Entry]] = [[] for _ in sizes]
    fixed: set[str] = set()
    rest = list(active)
    if seeded:
        ranked = sorted((e for e in active if e.seed is not None), key=lambda e: (e.seed, e.id))
        for i, entry in enumerate(ranked):
            tier, pos = divmod(i, len(pools))
            index = pos if tier % 2 == 0 else len(pools) - 1 - pos
            if len(pools[index]) >= sizes[index]:
                index = next(j for j in range(len(pools)) if len(pools[j]) < sizes[j])
            pools[index].append(entry)
            fixed.add(entry.id)
        rest = [e for e in active if e.id not in fixed]
    rng.shuffle(rest)
    club_size = Counter(club for e in active for club in e.clubs)
    rest.sort(key=lambda e: -max((club_size[c] for c in e.clubs), default=0))
    for entry in rest:
        open_pools = [j for j in range(len(pools)) if len(pools[j]) < sizes[j]]
        best = min(
            open_pools,
            key=lambda j: (
                sum(1 for other in pools[j] if other.clubs & entry.clubs),
                len(pools[j]) / sizes[j],
                rng.random(),
            ),
        )
        pools[best].append(entry)
    _separate_clubs(pools, fixed)
    return tuple(
        Pool(division, number + 1, tuple(e.id for e in members))
        for number, members in enumerate(pools)
    )


def _separate_clubs(pools: list[list[Entry]], fixed: set[str]) -> None:
    """Swap unseeded entries between pools while that lowers the club clashes (in place)."""
    improved = True
    rounds = 0
    while improved and rounds < 50:
        improved = False
        rounds += 1
        for a, pool_a in enumerate(pools):
            if _clashes_in(pool_a) == 0:
                continue
            for i, x in enumerate(pool_a):
                if x.id in fixed or not any(
                    o.clubs & x.clubs for k, o in enumerate(pool_a) if k != i
                ):
                    continue
                if _swap_somewhere(pools, a, i, fixed):
                    improved = True
                    break


def _swap_somewhere(pools: list[list[Entry]], a: int, i: int, fixed: set[str]) -> bool:
    pool_a = pools[a]
    for b, pool_b in enumerate(pools):
        if b == a:
            continue
        before = _clashes_in(pool_a) + _clashes_in(pool_b)
        for j, y in enumerate(pool_b):
            if y.id in fixed:
                continue
            new_a = [*pool_a[:i], y, *pool_a[i + 1 :]]
            new_b = [*pool_b[:j], pool_a[i], *pool_b[j + 1 :]]
            if _clashes_in(new_a) + _clashes_in(new_b) < before:
                pools[a], pools[b] = new_a, new_b
                return True
    return False


def round_robin(entries: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Rounds of a round robin by the circle method: ``n - 1`` rounds for an even ``n`` (``n``
    for odd, one entry resting each round); every pair meets exactly once. The first entry stays
    put; sides alternate so each entry is listed first about half the time."""
    ring: list[str | None] = list(entries)
    if len(ring) < 2:
        return []
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds: list[list[tuple[str, str]]] = []
    for r in range(n - 1):
        pairs: list[tuple[str, str]] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                continue
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds
