"""Pool standings (順位) with the event's tie-breaks, and the forfeit rule.

Match points: a win 2, a draw 1, a loss 0 (configurable). Entries level on match points are
separated by the tie-breaks in the event's order, by default:

1. ``point_difference``: R7b score for minus score against, over all pool matches;
2. ``head_to_head``: match points in the matches among the entries still level only;
3. ``pucks``: pucks pocketed over all pool matches;
4. ``lot``: a drawing of lots, reproducible from the event's seed.

Each tie-break only separates entries still level on every earlier one. Without ``lot`` in the
order, entries still level share a place.

Forfeit (不戦): a side that does not play loses; the other side is credited the event's forfeit
score (default 12 to 0, all pucks). A withdrawn entry (棄権) forfeits every pool match it has not
played; its played results stand; it is listed last and never advances.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.results import Result

__all__ = [
    "DEFAULT_TIEBREAKS",
    "Pairing",
    "Standing",
    "StandingRules",
    "TieBreak",
    "effective_result",
    "lot_key",
    "pool_complete",
    "standings",
]

TieBreak = Literal["match_points", "point_difference", "head_to_head", "pucks", "lot"]
DEFAULT_TIEBREAKS: tuple[TieBreak, ...] = (
    "match_points",
    "point_difference",
    "head_to_head",
    "pucks",
    "lot",
)

TIEBREAK_NAMES: dict[str, tuple[str, str]] = {
    "match_points": ("match points", "勝ち点"),
    "point_difference": ("point difference", "得失点差"),
    "head_to_head": ("head-to-head", "直接対決"),
    "pucks": ("pucks pocketed", "パック数"),
    "lot": ("lot", "抽選"),
}


@dataclass(frozen=True)
class StandingRules:
    """How a pool is ranked.

    Attributes:
        win, draw, loss: match points of each outcome.
        order: tie-break keys, first to last (see the module doc); each at most once.
        forfeit_score: (present side's, absent side's) score credited for a forfeit.
        lot_seed: seed of the drawing of lots.
    """

    win: int = 2
    draw: int = 1
    loss: int = 0
    order: tuple[TieBreak, ...] = DEFAULT_TIEBREAKS
    forfeit_score: tuple[int, int] = (12, 0)
    lot_seed: int = 0

    def __post_init__(self) -> None:
        known = get_args(TieBreak)
        if not self.order or len(set(self.order)) != len(self.order):
            raise TournamentError(
                "bad_tiebreaks",
                "List each tie-break once",
                "順位の決め方はそれぞれ1回ずつ並べてください",
            )
        for key in self.order:
            if key not in known:
                raise TournamentError(
                    "bad_tiebreaks",
                    f"Unknown tie-break {key!r}; use {', '.join(known)}",
                    f"順位の決め方「{key}」はありません（{', '.join(known)}）",
                )
        if not self.win > self.draw >= self.loss:
            raise TournamentError(
                "bad_points",
                "Match points must be win > draw >= loss",
                "勝ち点は 勝ち > 引き分け >= 負け にしてください",
            )
        won, lost = self.forfeit_score
        if not 0 <= lost < won:
            raise TournamentError(
                "bad_forfeit_score",
                "The forfeit score must favour the side present",
                "不戦の得点は来ていた側を上にしてください",
            )


@dataclass(frozen=True)
class Pairing:
    """A pool match: its id and the two entries (side 0, side 1)."""

    id: str
    sides: tuple[str, str]


@dataclass(frozen=True)
class Standing:
    """One line of a pool's table.

    ``place`` is shared by entries level on every tie-break; ``decided_by`` names the tie-break
    that put this entry above the next one when match points alone did not.
    """

    entry: str
    place: int
    played: int
    won: int
    drawn: int
    lost: int
    match_points: int
    scored: int
    conceded: int
    pucks: int
    withdrawn: bool = False
    decided_by: TieBreak | None = None

    @property
    def difference(self) -> int:
        """Score for minus score against (R7b)."""
        return self.scored - self.conceded


def lot_key(seed: int, entry: str) -> str:
    """The drawing of lots: a reproducible, order-free key per entry (the lowest key wins)."""
    return hashlib.sha256(f"{seed}:{entry}".encode()).hexdigest()


def effective_result(
    pairing: Pairing,
    results: Mapping[str, Result],
    withdrawn: frozenset[str],
    rules: StandingRules,
) -> Result | None:
    """The result that counts for ``pairing``: the recorded one, else a forfeit against a
    withdrawn side (None when neither or both sides withdrew and nothing was recorded)."""
    recorded = results.get(pairing.id)
    if recorded is not None:
        return recorded
    out = [side in withdrawn for side in pairing.sides]
    if out[0] != out[1]:
        return Result.walkover(0 if out[0] else 1, rules.forfeit_score)
    return None


def pool_complete(
    pairings: Sequence[Pairing],
    results: Mapping[str, Result],
    withdrawn: frozenset[str],
    rules: StandingRules,
) -> bool:
    """Every pairing has a result that counts, or both its sides withdrew."""
    return all(
        effective_result(p, results, withdrawn, rules) is not None or set(p.sides) <= withdrawn
        for p in pairings
    )


@dataclass
class _Line:
    entry: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: int = 0
    scored: int = 0
    conceded: int = 0
    pucks: int = 0


def _add(line: _Line, result: Result, side: int, rules: StandingRules) -> None:
    line.played += 1
    line.scored += result.scores[side]
    line.conceded += result.scores[1 - side]
    line.pucks += result.pucks[side]
    if result.winner is None:
        line.drawn += 1
        line.points += rules.draw
    elif result.winner == side:
        line.won += 1
        line.points += rules.win
    else:
        line.lost += 1
        line.points += rules.loss


def standings(
    entries: Sequence[str],
    pairings: Iterable[Pairing],
    results: Mapping[str, Result],
    rules: StandingRules | None = None,
    withdrawn: frozenset[str] = frozenset(),
) -> list[Standing]:
    """The table of one pool, best first (see the module doc for the order).

    ``results`` maps pairing ids to results; pairings without a result (and no forfeit) do not
    count yet. The table depends only on the set of results, never on the order they came in.
    """
    rules = rules or StandingRules()
    lines, played = _tally(entries, pairings, results, rules, withdrawn)
    ranking = _Ranking(lines, played, rules)
    in_play = [e for e in entries if e not in withdrawn]
    out_groups = [sorted(e for e in entries if e in withdrawn)] if withdrawn else []
    groups = ranking.rank(in_play, rules.order) + [g for g in out_groups if g]
    table: list[Standing] = []
    for group in groups:
        place = len(table) + 1
        for e in group:
            line = lines[e]
            by = ranking.decided.get(e)
            table.append(
                Standing(
                    entry=e,
                    place=place,
                    played=line.played,
                    won=line.won,
                    drawn=line.drawn,
                    lost=line.lost,
                    match_points=line.points,
                    scored=line.scored,
                    conceded=line.conceded,
                    pucks=line.pucks,
                    withdrawn=e in withdrawn,
                    decided_by=None if by == "match_points" else by,
                )
            )
    return table


def _tally(
    entries: Sequence[str],
    pairings: Iterable[Pairing],
    results: Mapping[str, Result],
    rules: StandingRules,
    withdrawn: frozenset[str],
) -> tuple[dict[str, _Line], list[tuple[Pairing, Result]]]:
    """Each entry's line of the table and the pairings that count, with their results (in
    pairing id order)."""
    lines = {e: _Line(e) for e in entries}
    played: list[tuple[Pairing, Result]] = []
    for pairing in sorted(pairings, key=lambda p: p.id):
        result = effective_result(pairing, results, withdrawn, rules)
        if result is None:
            continue
        a, b = pairing.sides
        if a not in lines or b not in lines:
            raise TournamentError(
                "not_in_pool",
                f"Match {pairing.id} is not between entries of this pool",
                f"試合 {pairing.id} はこのリーグの組み合わせではありません",
            )
        played.append((pairing, result))
        _add(lines[a], result, 0, rules)
        _add(lines[b], result, 1, rules)
    return lines, played


class _Ranking:
    """The order of a pool's entries by the tie-breaks in turn; ``decided`` says, of the last
    entry of each group set apart from the next, which tie-break did it."""

    def __init__(
        self,
        lines: Mapping[str, _Line],
        played: Sequence[tuple[Pairing, Result]],
        rules: StandingRules,
    ) -> None:
        self.lines = lines
        self.played = played
        self.rules = rules
        self.decided: dict[str, TieBreak] = {}

    def rank(self, group: list[str], keys: tuple[TieBreak, ...]) -> list[list[str]]:
        """``group`` in groups still tied after ``keys``, best first."""
        if len(group) <= 1 or not keys:
            return [sorted(group)]
        key = keys[0]
        of = self._value(key, group)
        buckets: dict[int, list[str]] = {}
        for e in group:
            buckets.setdefault(of(e), []).append(e)
        ordered = sorted(buckets.items(), key=lambda kv: kv[0], reverse=True)
        out: list[list[str]] = []
        for i, (_, members) in enumerate(ordered):
            sub = self.rank(members, keys[1:])
            if i < len(ordered) - 1:
                self.decided[sub[-1][-1]] = key
            out.extend(sub)
        return out

    def _value(self, key: TieBreak, group: Sequence[str]) -> Callable[[str], int]:
        lines = self.lines
        if key == "match_points":
            return lambda e: lines[e].points
        if key == "point_difference":
            return lambda e: lines[e].scored - lines[e].conceded
        if key == "pucks":
            return lambda e: lines[e].pucks
        if key == "head_to_head":
            return self._head_to_head(group)
        seed = self.rules.lot_seed
        return lambda e: -int(lot_key(seed, e)[:15], 16)

    def _head_to_head(self, group: Sequence[str]) -> Callable[[str], int]:
        """Match points among ``group`` only."""
        members = set(group)
        mini = {e: _Line(e) for e in group}
        for pairing, result in self.played:
            a, b = pairing.sides
            if a in members and b in members:
                _add(mini[a], result, 0, self.rules)
                _add(mini[b], result, 1, self.rules)
        return lambda e: mini[e].points
