"""The knockout (決勝トーナメント): pool places into a bracket, byes, results advancing winners.

The bracket is drawn from pool places ("A1" = winner of pool A) as soon as the pools are drawn,
so it can be printed and planned before anyone has played; closing a pool fills its places.
Pool winners take the top seed lines in pool order, then the runners-up, then the thirds, in the
standard seeding order (seed 1 and 2 can meet only in the final, 1-4 only from the semi-finals,
...), so pool winners meet late and byes (when the number of qualifiers is not a power of two)
go to the top seeds. Within each place, lines are then swapped while that moves entrants of the
same pool further apart (ideally into opposite halves). A place may also be ranked across the
pools ("3位-1" = the best third, :mod:`~.knockout_size`): it is filled once every pool of the
division is closed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.pools import Pool, pool_label
from hikone_carrom.tournament.results import Result

__all__ = [
    "BYE",
    "Bracket",
    "Feed",
    "KnockoutMatch",
    "PoolPlace",
    "build_bracket",
    "meeting_round",
    "pool_places",
    "seeding_order",
    "separation_cost",
]

BYE = ""
"""A side that will never come: a bye line, or a pool place nobody fills."""


@dataclass(frozen=True, order=True)
class PoolPlace:
    """A qualifying place: ``place`` (1 = winner) of pool ``pool`` (numbered from 1); or, with
    ``rank`` (from 1, ``pool`` then 0), the ``rank``-th best of that place across the pools."""

    place: int
    pool: int
    rank: int = 0

    @property
    def label(self) -> str:
        """ "A1" = winner of pool A; "3位-1" = the best third across the pools."""
        if self.rank:
            return f"{self.place}位-{self.rank}"
        return f"{pool_label(self.pool)}{self.place}"

    def fed_by(self, pool: int) -> bool:
        """Whether pool ``pool``'s table decides who fills this place."""
        return self.rank > 0 or self.pool == pool


@dataclass(frozen=True)
class Feed:
    """Where a side of a knockout match comes from: a pool place, the winner or the loser of an
    earlier match, or nobody (a bye)."""

    kind: Literal["place", "winner", "loser", "bye"]
    place: PoolPlace | None = None
    match: str | None = None


@dataclass(frozen=True)
class KnockoutMatch:
    """One match of the bracket; ``round`` counts from 1, the final is the last round, the
    third-place match shares the final's round."""

    id: str
    division: str
    round: int
    slot: int
    feeds: tuple[Feed, Feed]
    final: bool = False
    third_place: bool = False

    def name(self, rounds: int, lang: str = "ja") -> str:
        """ "決勝", "準決勝", "3位決定戦", "準々決勝", "2回戦" ... (ja) or the English name."""
        if self.third_place:
            return "3位決定戦" if lang == "ja" else "Third-place match"
        to_go = rounds - self.round
        names = (("決勝", "Final"), ("準決勝", "Semi-final"), ("準々決勝", "Quarter-final"))
        if to_go < len(names):
            return names[to_go][0 if lang == "ja" else 1]
        return f"{self.round}回戦" if lang == "ja" else f"Round {self.round}"


def seeding_order(size: int) -> list[int]:
    """Seed numbers line by line for a bracket of ``size`` lines (a power of two): 1 and 2 can
    meet only in the final, 1-4 only from the semi-finals, and so on. ``seeding_order(8) ==
    [1, 8, 4, 5, 2, 7, 3, 6]``."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def meeting_round(line_a: int, line_b: int) -> int:
    """The round (from 1) in which bracket lines ``line_a`` and ``line_b`` can first meet."""
    return (line_a ^ line_b).bit_length()


@dataclass(frozen=True)
class Bracket:
    """A division's knockout: ``lines`` (pool places or ``None`` for byes) and its matches."""

    division: str
    lines: tuple[PoolPlace | None, ...]
    matches: tuple[KnockoutMatch, ...]

    @property
    def rounds(self) -> int:
        """Rounds up to the final."""
        return max(0, (len(self.lines) - 1).bit_length())

    def match(self, match_id: str) -> KnockoutMatch:
        """The match with this id."""
        for m in self.matches:
            if m.id == match_id:
                return m
        raise TournamentError("no_match", f"No match {match_id}", f"試合 {match_id} はありません")

    def places(self) -> list[PoolPlace]:
        """Every qualifying place, each once."""
        return [p for p in self.lines if p is not None]

    def fill(self, tables: Mapping[int, Sequence[str]]) -> dict[PoolPlace, str]:
        """The places of the pools whose final ``tables`` are given (pool number to entry ids in
        finishing order, withdrawn entries left out), ``BYE`` where nobody qualifies."""
        out: dict[PoolPlace, str] = {}
        for number, table in tables.items():
            for place in self.places():
                if place.pool == number:
                    out[place] = table[place.place - 1] if place.place <= len(table) else BYE
        return out

    def sides(
        self, qualifiers: Mapping[PoolPlace, str], results: Mapping[str, Result]
    ) -> dict[str, tuple[str | None, str | None]]:
        """Each match's two entries as far as known: an entry id, ``BYE`` (nobody will come) or
        None (not decided yet). ``qualifiers`` maps the filled pool places to entry ids (a place
        of a closed pool with nobody in it is ``BYE``); winners advance by ``results``."""
        winners: dict[str, str | None] = {}
        losers: dict[str, str | None] = {}
        out: dict[str, tuple[str | None, str | None]] = {}
        for m in self.matches:
            pair = (
                self._side(m.feeds[0], qualifiers, winners, losers),
                self._side(m.feeds[1], qualifiers, winners, losers),
            )
            out[m.id] = pair
            winners[m.id], losers[m.id] = _decide(pair, results.get(m.id))
        return out

    @staticmethod
    def _side(
        feed: Feed,
        qualifiers: Mapping[PoolPlace, str],
        winners: Mapping[str, str | None],
        losers: Mapping[str, str | None],
    ) -> str | None:
        if feed.kind == "bye":
            return BYE
        if feed.kind == "place":
            assert feed.place is not None
            return qualifiers.get(feed.place)
        assert feed.match is not None
        return (winners if feed.kind == "winner" else losers)[feed.match]

    def final_places(
        self, qualifiers: Mapping[PoolPlace, str], results: Mapping[str, Result]
    ) -> dict[int, list[str]]:
        """Places 1-4 as far as decided: {1: [champion], 2: [runner-up], 3: [...], 4: [...]}.
        Without a third-place match both losing semi-finalists share place 3."""
        sides = self.sides(qualifiers, results)
        places: dict[int, list[str]] = {}
        if not self.matches:
            only = [qualifiers.get(p) for p in self.places()]
            if only and only[0]:
                places[1] = [only[0]]
            return places
        final = next(m for m in self.matches if m.final)
        won, lost = _decide(sides[final.id], results.get(final.id))
        if won:
            places[1] = [won]
        if lost:
            places[2] = [lost]
        third = next((m for m in self.matches if m.third_place), None)
        if third is not None:
            won3, lost3 = _decide(sides[third.id], results.get(third.id))
            if won3:
                places[3] = [won3]
            if lost3:
                places[4] = [lost3]
        else:
            semis = [m for m in self.matches if m.round == self.rounds - 1 and not m.third_place]
            beaten = [_decide(sides[m.id], results.get(m.id))[1] for m in semis]
            shared = [e for e in beaten if e]
            if shared:
                places[3] = shared
        return places


def _decide(
    pair: tuple[str | None, str | None], result: Result | None
) -> tuple[str | None, str | None]:
    """(winner, loser) of a match: an entry, ``BYE`` or None (unknown). A side facing a bye
    advances without playing."""
    a, b = pair
    if a == BYE and b == BYE:
        return BYE, BYE
    if a == BYE:
        return b, BYE if b is not None else None
    if b == BYE:
        return a, BYE if a is not None else None
    if result is None or result.winner is None or a is None or b is None:
        return None, None
    return (a, b) if result.winner == 0 else (b, a)


def _weight(place: int, other: PoolPlace | None) -> int:
    """How much keeping two places of one pool apart matters: a pool's winner and runner-up
    first, then the winner and the third, then the rest."""
    pair = {place, other.place if other else 0}
    if pair == {1, 2}:
        return 1000
    return 30 if 1 in pair else 1


def separation_cost(lines: Sequence[PoolPlace | None], rounds: int) -> int:
    """Same-pool pairs weighted by their places and how early they can meet (lower is
    better)."""
    by_pool: dict[int, list[int]] = {}
    for i, p in enumerate(lines):
        if p is not None and not p.rank:
            by_pool.setdefault(p.pool, []).append(i)
    cost = 0
    for members in by_pool.values():
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                a, b = lines[members[x]], lines[members[y]]
                assert a is not None
                cost += _weight(a.place, b) * 4 ** (rounds - meeting_round(members[x], members[y]))
    return cost


def pool_places(pools: Sequence[Pool], advance: int) -> list[PoolPlace]:
    """The qualifying places of drawn ``pools``: the best ``advance`` of each, or all of a
    smaller pool."""
    return [
        PoolPlace(place, p.number)
        for p in pools
        for place in range(1, min(advance, len(p.entries)) + 1)
    ]


def build_bracket(
    division: str, places: Sequence[PoolPlace], *, third_place: bool = True
) -> Bracket:
    """The bracket of ``division`` for the qualifying ``places`` (see the module doc)."""
    if len(set(places)) != len(places):
        raise TournamentError(
            "duplicate_place", "A pool place qualifies twice", "同じ順位が2回入っています"
        )
    ordered = sorted(places)
    size = 1
    while size < len(ordered):
        size *= 2
    rounds = (size - 1).bit_length()
    lines: list[PoolPlace | None] = [None] * size
    for line, seed in enumerate(seeding_order(size)):
        if seed <= len(ordered):
            lines[line] = ordered[seed - 1]
    _separate(lines, rounds)
    return Bracket(division, tuple(lines), _matches(division, lines, rounds, third_place))


def _separate(lines: list[PoolPlace | None], rounds: int) -> None:
    """Swap lines of the same place while that lowers the same-pool cost (in place)."""
    tiers: dict[int, list[int]] = {}
    at: dict[int, set[int]] = {}
    for i, p in enumerate(lines):
        if p is not None and not p.rank:  # a ranked place's pool is not known yet
            tiers.setdefault(p.place, []).append(i)
            at.setdefault(p.pool, set()).add(i)

    def pull(line: int, pool: int, place: int) -> int:
        return sum(
            _weight(place, lines[k]) * 4 ** (rounds - meeting_round(line, k))
            for k in at[pool]
            if k != line
        )

    for _ in range(20):
        improved = False
        for members in tiers.values():
            for x in range(len(members)):
                for y in range(x + 1, len(members)):
                    i, j = members[x], members[y]
                    pi, pj = lines[i], lines[j]
                    assert pi is not None and pj is not None
                    if pi.pool == pj.pool:
                        continue
                    now = pull(i, pi.pool, pi.place) + pull(j, pj.pool, pj.place)
                    at[pi.pool].discard(i)
                    at[pj.pool].discard(j)
                    after = pull(j, pi.pool, pi.place) + pull(i, pj.pool, pj.place)
                    if after < now:
                        lines[i], lines[j] = pj, pi
                        at[pi.pool].add(j)
                        at[pj.pool].add(i)
                        improved = True
                    else:
                        at[pi.pool].add(i)
                        at[pj.pool].add(j)
        if not improved:
            return


def _matches(
    division: str, lines: Sequence[PoolPlace | None], rounds: int, third_place: bool
) -> tuple[KnockoutMatch, ...]:
    matches: list[KnockoutMatch] = []
    feeds: list[Feed] = [Feed("bye") if p is None else Feed("place", place=p) for p in lines]
    for rnd in range(1, rounds + 1):
        nxt: list[Feed] = []
        for slot in range(len(feeds) // 2):
            a, b = feeds[2 * slot], feeds[2 * slot + 1]
            if a.kind == "bye" or b.kind == "bye":
                nxt.append(b if a.kind == "bye" else a)
                continue
            final = rnd == rounds
            match_id = f"{division}-F" if final else f"{division}-K{rnd}-{slot + 1:02d}"
            matches.append(KnockoutMatch(match_id, division, rnd, slot, (a, b), final=final))
            nxt.append(Feed("winner", match=match_id))
        feeds = nxt
    if third_place and rounds >= 2:
        semis = [m for m in matches if m.round == rounds - 1]
        if len(semis) == 2:
            matches.append(
                KnockoutMatch(
                    f"{division}-3rd",
                    division,
                    rounds,
                    1,
                    (Feed("loser", match=semis[0].id), Feed("loser", match=semis[1].id)),
                    third_place=True,
                )
            )
    return tuple(matches)
