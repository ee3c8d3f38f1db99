"""Pairing waiting players ("play someone now"): same time control and number of players, close
ratings first; the rating range a seeker accepts widens the longer they wait.

A seeker without a rating (a guest) pairs with anyone; a game is rated only when every seat is
an account's. Times are in s on one clock (monotonic), ratings in rating points.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BASE_RANGE", "RANGE_GROWTH_PER_S", "Pairing", "Seeker", "pair", "rating_range"]

BASE_RANGE = 150.0
"""Rating points either side a seeker accepts at once."""

RANGE_GROWTH_PER_S = 50.0
"""How much (rating points) the accepted range widens per second of waiting."""


@dataclass(frozen=True)
class Seeker:
    """One waiting seek: ``minutes`` is the time control (None: untimed), ``players`` 2 or 4,
    ``account`` the account id (None: a guest), ``rating`` in that time control (None: none),
    ``since`` when it started waiting (s)."""

    id: str
    minutes: int | None
    players: int
    since: float
    account: str | None = None
    rating: float | None = None

    def same_game(self, other: Seeker) -> bool:
        """True when both want the same game (time control and players)."""
        return self.minutes == other.minutes and self.players == other.players


@dataclass(frozen=True)
class Pairing:
    """Seekers put into one room: ``seats[i]`` sits at seat ``i`` (in doubles seats 0 and 2
    are partners, 1 and 3, R1a); ``rated`` when every seat is an account."""

    seats: tuple[Seeker, ...]
    rated: bool


def rating_range(seeker: Seeker, now: float) -> float:
    """The rating points either side ``seeker`` accepts at ``now`` (s)."""
    return BASE_RANGE + RANGE_GROWTH_PER_S * max(0.0, now - seeker.since)


def _accepts(a: Seeker, b: Seeker, now: float) -> bool:
    if a.rating is None or b.rating is None:
        return True
    gap = abs(a.rating - b.rating)
    return gap <= rating_range(a, now) and gap <= rating_range(b, now)


def _gap(a: Seeker, b: Seeker) -> float:
    return 0.0 if a.rating is None or b.rating is None else abs(a.rating - b.rating)


def pair(waiting: Sequence[Seeker], now: float, rng: random.Random | None = None) -> list[Pairing]:
    """Pair as many of ``waiting`` as can be paired at ``now``: the longest waiting first, each
    with the closest-rated seekers of the same game that accept each other; seats (and so
    doubles partners) at random."""
    chance = rng or random.Random()
    free = sorted(waiting, key=lambda s: (s.since, s.id))
    pairings: list[Pairing] = []
    while free:
        first = free.pop(0)
        group = [first]
        for other in sorted((s for s in free if s.same_game(first)), key=lambda s: _gap(first, s)):
            if len(group) == first.players:
                break
            if all(_accepts(member, other, now) for member in group):
                group.append(other)
        if len(group) < first.players:
            continue
        for member in group[1:]:
            free.remove(member)
        chance.shuffle(group)
        rated = all(member.account is not None for member in group)
        pairings.append(Pairing(tuple(group), rated))
    return pairings
