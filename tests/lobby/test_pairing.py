"""Pairing waiting seeks: same game, closest ratings, the range widening with the wait."""

from __future__ import annotations

import random

from hikone_carrom.lobby import (
    BASE_RANGE,
    RANGE_GROWTH_PER_S,
    Pairing,
    Seeker,
    pair,
    rating_range,
)


def seeker(
    sid: str,
    rating: float | None = None,
    *,
    since: float = 0.0,
    players: int = 2,
    minutes: int | None = 5,
) -> Seeker:
    account = None if rating is None else f"acc-{sid}"
    return Seeker(sid, minutes, players, since, account, rating)


def ids(pairings: list[Pairing]) -> list[set[str]]:
    return [{s.id for s in p.seats} for p in pairings]


def test_two_guests_of_the_same_game_are_paired_unrated() -> None:
    [p] = pair([seeker("a"), seeker("b")], now=0.0)
    assert {s.id for s in p.seats} == {"a", "b"}
    assert not p.rated


def test_different_time_controls_or_players_never_pair() -> None:
    assert pair([seeker("a"), seeker("b", minutes=None)], now=100.0) == []
    assert pair([seeker("a"), seeker("b", players=4)], now=100.0) == []


def test_a_lone_seeker_waits() -> None:
    assert pair([seeker("a", 1500.0)], now=0.0) == []


def test_the_closest_rating_is_chosen_and_the_game_is_rated() -> None:
    waiting = [seeker("a", 1500.0), seeker("far", 1640.0), seeker("near", 1520.0)]
    [p] = pair(waiting, now=0.0)
    assert {s.id for s in p.seats} == {"a", "near"}
    assert p.rated


def test_a_guest_pairs_with_an_account_but_the_game_is_unrated() -> None:
    [p] = pair([seeker("a", 2200.0), seeker("guest")], now=0.0)
    assert not p.rated


def test_ratings_too_far_apart_wait_until_the_range_has_widened() -> None:
    waiting = [seeker("a", 1500.0), seeker("b", 1800.0)]
    assert pair(waiting, now=0.0) == []
    wait = (300.0 - BASE_RANGE) / RANGE_GROWTH_PER_S
    assert pair(waiting, now=wait - 0.1) == []
    assert ids(pair(waiting, now=wait)) == [{"a", "b"}]
    assert rating_range(waiting[0], wait) == 300.0


def test_the_longest_waiting_is_paired_first() -> None:
    waiting = [seeker("new", since=5.0), seeker("old", since=1.0), seeker("mid", since=3.0)]
    assert ids(pair(waiting, now=6.0)) == [{"old", "mid"}]


def test_doubles_fill_four_seats_and_partners_are_drawn_at_random() -> None:
    four = [seeker(s, players=4) for s in "abcd"]
    assert pair(four[:3], now=0.0) == []
    partners = set()
    for n in range(40):
        [p] = pair(four, now=0.0, rng=random.Random(n))
        assert len(p.seats) == 4
        seat = {s.id: n for n, s in enumerate(p.seats)}
        partners.add(next(s for s in "bcd" if seat[s] % 2 == seat["a"] % 2))
    assert partners == {"b", "c", "d"}  # every split into two pairs happens


def test_a_rated_doubles_group_needs_every_member_within_range() -> None:
    four = [
        seeker(s, r, players=4)
        for s, r in zip("abcde", (1500, 1510, 1520, 1900, 1530), strict=True)
    ]
    [p] = pair(four, now=0.0)
    assert {s.id for s in p.seats} == {"a", "b", "c", "e"}
