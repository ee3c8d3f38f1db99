"""Knockout sizes (決勝トーナメントの大きさ): how many of a division's pool qualifiers its bracket
takes, who gets the byes, and what each choice means before the director confirms it.

11 pools with the best 3 advancing give 33 qualifiers; the choices (:data:`KnockoutSize`):

- ``full`` (全員出場): every qualifier, a bracket of the next power of two up (64 lines, 31 byes,
  one first-round match: a preliminary between two of the lowest seeds); the byes go to the
  top seeds (pool winners first, then runners-up, then thirds, in pool order, lines of one
  place swapped to keep a pool's entrants apart).
- ``ranked_byes`` (成績順の不戦勝): the same bracket, but the place split between byes and
  first-round matches (9 of the 11 thirds get a bye) is ranked across the pools: the best get
  the byes, the weakest play the preliminary.
- ``cut`` (縮小): a bracket of the next power of two down (32 lines, no byes); the places that
  fit are taken whole, the place split by the cut is ranked across the pools and its weakest
  are left out (33 to 32: the weakest third does not play).

Across the pools, entries of one place are compared by the event's tie-breaks in their order,
head-to-head left out (they have not met): match points, point difference and pucks per match
played (pools differ by one entry), then the lot, then the pool order. A ranked place is filled
once every pool of the division is closed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import get_args

from hikone_carrom.tournament.divisions import KnockoutSize
from hikone_carrom.tournament.knockout import BYE, Bracket, PoolPlace, build_bracket, pool_places
from hikone_carrom.tournament.pools import Pool
from hikone_carrom.tournament.standings import Standing, StandingRules, lot_key

__all__ = [
    "KNOCKOUT_SIZES",
    "SizeChoice",
    "describe_sizes",
    "fill_ranked",
    "knockout_places",
    "rank_across_pools",
]

KNOCKOUT_SIZES: tuple[KnockoutSize, ...] = get_args(KnockoutSize)


def _power_up(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def _ranked(places: Sequence[PoolPlace], tier: int) -> list[PoolPlace]:
    """``places`` with those of place ``tier`` turned into ranks across the pools."""
    count = sum(1 for p in places if p.place == tier)
    fixed = [p for p in places if p.place != tier]
    return sorted(fixed + [PoolPlace(tier, 0, rank) for rank in range(1, count + 1)])


def knockout_places(pools: Sequence[Pool], advance: int, size: KnockoutSize) -> list[PoolPlace]:
    """The places in the bracket of drawn ``pools`` (the best ``advance`` of each) under the
    choice ``size`` (see the module doc), best seed first."""
    ordered = sorted(pool_places(pools, advance))
    count = len(ordered)
    up = _power_up(count)
    if size == "full" or count < 2 or up == count:
        return ordered
    if size == "ranked_byes":
        byes = up - count
        tier = ordered[byes - 1].place
        return _ranked(ordered, tier) if ordered[byes].place == tier else ordered
    keep = up // 2
    tier = ordered[keep - 1].place
    if ordered[keep].place != tier:
        return ordered[:keep]
    whole = [p for p in ordered[:keep] if p.place != tier]
    return whole + [PoolPlace(tier, 0, rank) for rank in range(1, keep - len(whole) + 1)]


def _per_match(value: int, played: int) -> Fraction:
    return Fraction(value, played) if played else Fraction(0)


def rank_across_pools(
    tables: Mapping[int, Sequence[Standing]], place: int, rules: StandingRules
) -> list[str]:
    """The entries at ``place`` of each pool's final table (pool number to its table, withdrawn
    entries left out), best first (see the module doc)."""
    rivals = [(number, t[place - 1]) for number, t in tables.items() if len(t) >= place]

    def key(item: tuple[int, Standing]) -> tuple[object, ...]:
        number, s = item
        figures: list[object] = []
        for tiebreak in rules.order:
            if tiebreak == "match_points":
                figures.append(-_per_match(s.match_points, s.played))
            elif tiebreak == "point_difference":
                figures.append(-_per_match(s.difference, s.played))
            elif tiebreak == "pucks":
                figures.append(-_per_match(s.pucks, s.played))
            elif tiebreak == "lot":
                figures.append(lot_key(rules.lot_seed, s.entry))
        return (*figures, number)

    return [s.entry for _, s in sorted(rivals, key=key)]


def fill_ranked(
    bracket: Bracket, tables: Mapping[int, Sequence[Standing]], rules: StandingRules
) -> dict[PoolPlace, str]:
    """The ranked places of ``bracket`` from every pool's final ``tables`` (``BYE`` where fewer
    entries reached that place than the bracket has ranks)."""
    out: dict[PoolPlace, str] = {}
    order: dict[int, list[str]] = {}
    for p in bracket.places():
        if p.rank:
            ranking = order.setdefault(p.place, rank_across_pools(tables, p.place, rules))
            out[p] = ranking[p.rank - 1] if p.rank <= len(ranking) else BYE
    return out


_PLACE_EN = {1: "pool winners", 2: "runners-up", 3: "thirds"}


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


@dataclass(frozen=True)
class SizeChoice:
    """What a knockout size means for a division: the bracket's lines, the qualifiers in it,
    its byes, its matches (the third-place match included), those of the first round, how many
    qualifiers are left out, the place ranked across the pools (or None) with the ranks in the
    bracket, and of those left out: how many of the ranked place, how many of the places below
    (from ``lower_place``)."""

    size: KnockoutSize
    lines: int
    entrants: int
    byes: int
    matches: int
    first_round: int
    left_out: int
    ranked_place: int | None
    ranked_count: int
    ranked_out: int = 0
    lower_out: int = 0
    lower_place: int | None = None

    def text(self, lang: str = "ja") -> str:
        """The consequences as the director reads them."""
        p, n = self.ranked_place, self.ranked_count
        if lang == "ja":
            out = (
                f"{self.lines}枠・出場{self.entrants}・不戦勝{self.byes}・"
                f"全{self.matches}試合（1回戦{self.first_round}試合）"
            )
            if self.left_out:
                who = []
                if self.ranked_out:
                    who.append(f"{p}位{n + self.ranked_out}組のうち成績下位{self.ranked_out}組")
                if self.lower_out:
                    who.append(f"{self.lower_place}位以下の{self.lower_out}組")
                out += f"。{'と、'.join(who)}は出場しません"
            elif p is not None:
                out += f"。{p}位{n}組はリーグをまたいだ成績順で不戦勝を決めます"
            elif self.byes:
                out += "。不戦勝は上位シード（各リーグの1位から）へ"
            return out
        out = (
            f"{self.lines} lines, {self.entrants} play, {self.byes} byes, "
            f"{self.matches} matches ({self.first_round} in round 1)"
        )
        name = _PLACE_EN.get(p or 0, f"{p}th places")
        if self.left_out:
            who = []
            if self.ranked_out:
                who.append(f"the weakest {self.ranked_out} of the {n + self.ranked_out} {name}")
            if self.lower_out:
                who.append(
                    f"the {self.lower_out} placed {_ordinal(self.lower_place or 0)} or lower"
                )
            out += f"; {' and '.join(who)} do not play"
        elif p is not None:
            out += f"; the {n} {name} are ranked across the pools for the byes"
        elif self.byes:
            out += "; byes to the top seeds (pool winners first)"
        return out

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, with the text in both languages."""
        return {
            "size": self.size,
            "lines": self.lines,
            "entrants": self.entrants,
            "byes": self.byes,
            "matches": self.matches,
            "first_round": self.first_round,
            "left_out": self.left_out,
            "ranked_place": self.ranked_place,
            "ja": self.text("ja"),
            "en": self.text("en"),
        }


def describe_sizes(
    division: str, pools: Sequence[Pool], advance: int, *, third_place: bool = True
) -> list[SizeChoice]:
    """Each knockout size's consequences for drawn ``pools`` (in :data:`KNOCKOUT_SIZES` order)."""
    qualifying = pool_places(pools, advance)
    qualifiers = len(qualifying)
    out = []
    for size in KNOCKOUT_SIZES:
        places = knockout_places(pools, advance, size)
        bracket = build_bracket(division, places, third_place=third_place)
        ranked = [p for p in places if p.rank]
        tier = ranked[0].place if ranked else None
        ranked_out = sum(1 for p in qualifying if p.place == tier) - len(ranked) if ranked else 0
        lowest = max(p.place for p in places)
        lower = [p for p in qualifying if p.place > lowest]
        out.append(
            SizeChoice(
                size=size,
                lines=len(bracket.lines),
                entrants=len(places),
                byes=len(bracket.lines) - len(places),
                matches=len(bracket.matches),
                first_round=sum(1 for m in bracket.matches if m.round == 1),
                left_out=qualifiers - len(places),
                ranked_place=tier,
                ranked_count=len(ranked),
                ranked_out=ranked_out,
                lower_out=len(lower),
                lower_place=lowest + 1 if lower else None,
            )
        )
    return out
