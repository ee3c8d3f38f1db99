"""An event (大会): its divisions, entries, pools, brackets, board plan and results, in one value.

:class:`Event` is the aggregate a director works on: every change goes through a method that
checks it first and raises :class:`TournamentError` (changing nothing) when it cannot be done.
It does no I/O: the server stores it (:meth:`Event.to_dict`) and rebuilds it
(:meth:`Event.from_dict`).

Late entries: an entry added after its division's draw joins the pool with the fewest entries
among those not begun (no result, no match called), up to one more than the pool size; the
pool's round robin is made again and its matches (and the knockout matches after them) are put
into the free time of the board plan, nobody else's slot moving. When a pool closes, the
knockout matches whose players became known and now clash with another of their matches (a
child in singles and family pairs) are moved the same way.

Corrections: a pool's results can be changed until the pool is closed. A closed pool's results
are locked: a correction is refused; the director may reopen the pool as long as no knockout
match fed by it has a result, correct it and close it again (its places are then recomputed).
A knockout result can be corrected until the next match of its entrants has a result.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from hikone_carrom.tournament.boardplan import (
    BoardPlan,
    Job,
    Slot,
    clashes,
    plan_boards,
    replan,
    reslot,
)
from hikone_carrom.tournament.codec import (
    bracket_from_dict,
    bracket_to_dict,
    division_from_dict,
    division_to_dict,
    entry_from_dict,
    entry_to_dict,
    plan_from_dict,
    plan_to_dict,
    rules_from_dict,
    rules_to_dict,
)
from hikone_carrom.tournament.divisions import Division
from hikone_carrom.tournament.entries import Entry
from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.knockout import BYE, Bracket, PoolPlace, build_bracket
from hikone_carrom.tournament.people import Person
from hikone_carrom.tournament.pools import Pool, draw_pools, pool_label, round_robin
from hikone_carrom.tournament.results import Result
from hikone_carrom.tournament.standings import (
    Pairing,
    Standing,
    StandingRules,
    effective_result,
    standings,
)

__all__ = ["Event", "EventSettings", "Match", "Stage"]

Stage = Literal["pool", "knockout"]


@dataclass(frozen=True)
class EventSettings:
    """How an event is run.

    Attributes:
        name: the event's name (第38回カロム日本選手権大会).
        date: ISO date (YYYY-MM-DD).
        boards: boards in the hall, numbered from 1.
        start_s: first match, s from midnight (9:30 = 34200).
        changeover_s: time between two matches on a board and a player's two matches, s.
        golden_board: the board finals are played on, or None.
        seed: seed of the draws and of the drawing of lots.
        rules: match points and tie-breaks (:class:`StandingRules`).
        online: matches are played in online rooms of the browser game, not on real boards
            (a "board" is then one of ``boards`` games at a time).
    """

    name: str
    date: str = ""
    boards: int = 124
    start_s: int = 9 * 3600 + 30 * 60
    changeover_s: int = 60
    golden_board: int | None = 1
    seed: int = 0
    rules: StandingRules = field(default_factory=StandingRules)
    online: bool = False

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise TournamentError("name_missing", "The event needs a name", "大会名が要ります")
        if not 1 <= self.boards <= 1000:
            raise TournamentError(
                "bad_boards", "Boards must be 1-1000", "台数は1〜1000にしてください"
            )
        if not 0 <= self.start_s < 24 * 3600:
            raise TournamentError(
                "bad_start", "The start time must be within the day", "開始時刻が一日の外です"
            )
        if not 0 <= self.changeover_s <= 1800:
            raise TournamentError(
                "bad_changeover",
                "The changeover must be 0-1800 s",
                "入れ替え時間は0〜1800秒にしてください",
            )
        if self.golden_board is not None and not 1 <= self.golden_board <= self.boards:
            raise TournamentError(
                "bad_golden_board",
                f"The golden board must be one of boards 1-{self.boards}",
                f"決勝台は1〜{self.boards}番のどれかにしてください",
            )


@dataclass(frozen=True)
class Match:
    """A match as the event knows it now.

    ``sides`` are entry ids, ``BYE`` (nobody will come) or None (not decided yet); ``name_ja`` and
    ``name_en`` say what it is ("Aリーグ 第2試合", "準決勝").
    """

    id: str
    division: str
    stage: Stage
    pool: int | None
    round: int
    sides: tuple[str | None, str | None]
    name_ja: str
    name_en: str
    after: tuple[str, ...] = ()
    final: bool = False

    @property
    def playable(self) -> bool:
        """Both entrants are known and present."""
        return all(s not in (None, BYE) for s in self.sides)


class Event:
    """The whole event (see the module doc)."""

    def __init__(
        self,
        settings: EventSettings,
        divisions: Sequence[Division],
        entries: Iterable[Entry] = (),
    ) -> None:
        ids = [d.id for d in divisions]
        if len(set(ids)) != len(ids):
            raise TournamentError(
                "duplicate_division", "Two divisions share an id", "部門IDが重なっています"
            )
        self.settings = settings
        self.divisions: dict[str, Division] = {d.id: d for d in divisions}
        self.entries: dict[str, Entry] = {}
        self.pools: dict[str, tuple[Pool, ...]] = {}
        self.brackets: dict[str, Bracket] = {}
        self.results: dict[str, Result] = {}
        self.closed: set[tuple[str, int]] = set()
        self.plan: BoardPlan | None = None
        self._pool_cache: dict[str, dict[int, list[Match]]] = {}
        self._knockout_cache: dict[str, list[Match]] = {}
        self._merged: dict[str, Match] | None = None
        self._withdrawn: frozenset[str] | None = None
        for entry in entries:
            self.add_entry(entry)

    # -- entries ---------------------------------------------------------------------------

    def division(self, division_id: str) -> Division:
        """The division with this id."""
        try:
            return self.divisions[division_id]
        except KeyError:
            raise TournamentError(
                "no_division", f"No division {division_id!r}", f"部門「{division_id}」はありません"
            ) from None

    def entry(self, entry_id: str) -> Entry:
        """The entry with this id."""
        try:
            return self.entries[entry_id]
        except KeyError:
            raise TournamentError(
                "no_entry", f"No entry {entry_id!r}", f"エントリー「{entry_id}」はありません"
            ) from None

    def next_entry_id(self, division_id: str) -> str:
        """A fresh entry id in ``division_id`` ("GS-018")."""
        taken = {e.id for e in self.entries.values()}
        n = sum(1 for e in self.entries.values() if e.division == division_id) + 1
        while f"{division_id}-{n:03d}" in taken:
            n += 1
        return f"{division_id}-{n:03d}"

    def check_entry(self, entry: Entry, *, started: Collection[str] = ()) -> Pool | None:
        """Raise :class:`TournamentError` unless ``entry`` may be added (eligibility: the
        division's member rules; nobody twice in one division); returns the pool a late entry
        joins (see :meth:`late_pool`), or None before the draw."""
        division = self.division(entry.division)
        division.check_members(entry.members)
        if entry.id in self.entries:
            raise TournamentError(
                "duplicate_entry",
                f"Entry id {entry.id} is taken",
                f"ID {entry.id} は使われています",
            )
        self._check_once(entry)
        if entry.division not in self.pools:
            return None
        return self.late_pool(entry.division, started=started)

    def _check_once(self, entry: Entry) -> None:
        """Nobody is entered twice in one division."""
        division = self.division(entry.division)
        for other in self.entries.values():
            if (
                other.id != entry.id
                and other.division == entry.division
                and other.people & entry.people
            ):
                who = next(p.name for p in entry.members if p.key in other.people)
                raise TournamentError(
                    "entered_twice",
                    f"{who} is already entered in {division.name_en} ({other.id})",
                    f"{who}さんはすでに{division.name_ja}にエントリーしています（{other.id}）",
                )

    def late_pool(self, division_id: str, *, started: Collection[str] = ()) -> Pool:
        """The pool a late entry of a drawn division joins: of the pools not begun (no result,
        none of their matches in ``started`` (called or played), not closed), the one with the
        fewest active entries, while it stays within the pool size plus one. Refused when no
        pool can take it, or when the knockout bracket would have to change after a knockout
        match was called or played."""
        division = self.division(division_id)
        begun = set(self.results) | set(started)
        out = self.withdrawn()
        open_pools = [
            p
            for p in self.pools[division_id]
            if (division_id, p.number) not in self.closed
            and not any(m.id in begun for m in self._pool_games(division_id).get(p.number, []))
        ]
        if not open_pools:
            raise TournamentError(
                "pools_begun",
                f"Every pool of {division.name_en} has begun; a late entry cannot join one",
                f"{division.name_ja}はすべてのリーグが始まっているため、追加できません",
            )
        pool = min(open_pools, key=lambda p: (sum(e not in out for e in p.entries), p.number))
        if sum(e not in out for e in pool.entries) >= division.pool_size + 1:
            raise TournamentError(
                "pools_full",
                f"Every pool of {division.name_en} that has not begun has "
                f"{division.pool_size + 1} entries; a late entry cannot join one",
                f"{division.name_ja}のまだ始まっていないリーグはどれも{division.pool_size + 1}"
                "組のため、追加できません",
            )
        grows = len(pool.entries) < division.advance
        knockout = {m.id for m in self._knockout_games(division_id)}
        if grows and knockout & begun:
            raise TournamentError(
                "knockout_begun",
                f"The knockout of {division.name_en} has begun; its bracket cannot change",
                f"{division.name_ja}は決勝トーナメントが始まっているため、追加できません",
            )
        return pool

    def add_entry(
        self, entry: Entry, *, started: Collection[str] = (), now_s: int | None = None
    ) -> Pool | None:
        """Add ``entry`` after :meth:`check_entry`. A late entry (its division drawn) joins the
        pool :meth:`late_pool` chooses; that pool's round robin is made again and, when there
        is a board plan, its matches are put into the plan's free time from ``now_s`` (see
        :meth:`reslot`). Returns the pool joined, or None before the draw."""
        pool = self.check_entry(entry, started=started)
        self.entries[entry.id] = entry
        self._withdrawn = None
        if pool is None:
            return None
        division = self.divisions[entry.division]
        old_ids = {m.id for m in self._pool_games(entry.division).get(pool.number, [])}
        joined = Pool(pool.division, pool.number, (*pool.entries, entry.id))
        self.pools[entry.division] = tuple(
            joined if p.number == pool.number else p for p in self.pools[entry.division]
        )
        if len(pool.entries) < division.advance:
            self._rebuild_bracket(entry.division)
        self._invalidate(entry.division, pools=True)
        if self.plan is not None:
            kept = tuple(s for s in self.plan.slots if s.match not in old_ids)
            self.plan = replace(self.plan, slots=kept)
            new_ids = [m.id for m in self._pool_games(entry.division)[pool.number]]
            self.reslot(new_ids, self.settings.start_s if now_s is None else now_s, started)
        return joined

    def update_entry(
        self,
        entry_id: str,
        members: Sequence[Person],
        *,
        seed: int | None = None,
        division: str | None = None,
        started: Collection[str] = (),
        now_s: int | None = None,
    ) -> Entry:
        """Correct an entry's members (names, readings, clubs, ages, school years) or seed, or
        move it to another division before either is drawn; checked as :meth:`check_entry`.
        When a drawn entry's people change (one person now recognised in two divisions), its
        matches not begun are put into the board plan's free time again (:meth:`reslot`)."""
        old = self.entry(entry_id)
        target = division or old.division
        if target != old.division and (old.division in self.pools or target in self.pools):
            raise TournamentError(
                "drawn",
                "An entry changes division only before both draws: withdraw it and enter it anew",
                "組み合わせ後は部門を変えられません。棄権にして新しくエントリーしてください",
            )
        new = Entry(old.id, target, tuple(members), seed=seed, status=old.status)
        self.division(target).check_members(new.members)
        self._check_once(new)
        self.entries[entry_id] = new
        self._withdrawn = None
        self._invalidate(old.division)
        self._invalidate(target)
        if new.people != old.people and self.plan is not None and target in self.pools:
            mine = [m.id for m in self.matches_of(entry_id)]
            self.reslot(mine, self.settings.start_s if now_s is None else now_s, started)
        return new

    def set_status(
        self, entry_id: str, status: Literal["entered", "checked_in", "withdrawn"]
    ) -> Entry:
        """Check an entry in (受付), withdraw it (棄権) or set it back to entered. A withdrawn entry
        forfeits its pool matches not yet played (see :mod:`~.standings`); withdrawing after its
        pool closed, or once it has a knockout match, is refused."""
        entry = self.entry(entry_id)
        if status == entry.status:
            return entry
        if entry.status == "withdrawn" or status == "withdrawn":
            pool = self.pool_of(entry_id)
            if pool is not None and (entry.division, pool.number) in self.closed:
                raise TournamentError(
                    "pool_closed",
                    f"Pool {pool.label} is closed; its entries cannot change",
                    f"{pool.label}リーグは確定済みのため変更できません",
                )
        new = replace(entry, status=status)
        self.entries[entry_id] = new
        self._withdrawn = None
        self._invalidate(entry.division)
        return new

    # -- pools -----------------------------------------------------------------------------

    def draw(
        self, division_id: str, *, seeded: bool = True, seed: int | None = None
    ) -> tuple[Pool, ...]:
        """Draw the pools of a division (entries that withdrew are left out) and its bracket of
        pool places. A draw may be made again until a result of the division is recorded."""
        division = self.division(division_id)
        if any(
            m.division == division_id for m in self._match_map().values() if m.id in self.results
        ):
            raise TournamentError(
                "results_exist",
                f"{division.name_en} has results; the draw cannot change",
                f"{division.name_ja}は結果が入っているため組み直せません",
            )
        members = [e for e in self.entries.values() if e.division == division_id]
        base = self.settings.seed if seed is None else seed
        pools = draw_pools(
            division_id,
            members,
            division.pool_size,
            base * 1009 + _stable(division_id),
            seeded=seeded,
        )
        self.pools[division_id] = pools
        self._rebuild_bracket(division_id)
        self.closed = {c for c in self.closed if c[0] != division_id}
        self._invalidate(division_id, pools=True)
        return pools

    def _rebuild_bracket(self, division_id: str) -> None:
        """The knockout bracket of the division's pool places (the best ``advance`` of each
        pool, or all of a smaller pool)."""
        division = self.divisions[division_id]
        places = [
            PoolPlace(place, p.number)
            for p in self.pools[division_id]
            for place in range(1, min(division.advance, len(p.entries)) + 1)
        ]
        self.brackets[division_id] = build_bracket(
            division_id, places, third_place=division.third_place
        )

    def set_rules(self, rules: StandingRules) -> None:
        """Change the match points and tie-breaks; every pool's table is computed again.
        Refused once a pool is closed (its places went into the knockout under the old rules):
        reopen it first."""
        if self.closed:
            division, number = min(self.closed)
            label = f"{self.division(division).name_en} {pool_label(number)}"
            label_ja = f"{self.division(division).name_ja} {pool_label(number)}"
            raise TournamentError(
                "pool_closed",
                f"Pool {label} is closed; reopen every closed pool to change the ranking rules",
                f"{label_ja}リーグが確定済みです。順位の決め方を変えるには確定を取り消してください",
            )
        self.settings = replace(self.settings, rules=rules)
        for division in self.divisions:
            self._invalidate(division)

    def pool(self, division_id: str, number: int) -> Pool:
        """Pool ``number`` (from 1) of a division."""
        for p in self.pools.get(division_id, ()):
            if p.number == number:
                return p
        raise TournamentError(
            "no_pool",
            f"No pool {number} in {division_id}",
            f"{division_id}に第{number}リーグはありません",
        )

    def pool_of(self, entry_id: str) -> Pool | None:
        """The pool an entry was drawn into, or None."""
        entry = self.entry(entry_id)
        for p in self.pools.get(entry.division, ()):
            if entry_id in p.entries:
                return p
        return None

    def pairings(self, pool: Pool) -> list[Pairing]:
        """The pool's matches as pairings."""
        games = self._pool_games(pool.division).get(pool.number, [])
        return [Pairing(m.id, (m.sides[0] or "", m.sides[1] or "")) for m in games]

    def withdrawn(self) -> frozenset[str]:
        """Ids of withdrawn entries."""
        if self._withdrawn is None:
            self._withdrawn = frozenset(
                e.id for e in self.entries.values() if e.status == "withdrawn"
            )
        return self._withdrawn

    def standings(self, division_id: str, number: int) -> list[Standing]:
        """The table of one pool (:func:`~.standings.standings` with the event's rules)."""
        pool = self.pool(division_id, number)
        return standings(
            pool.entries, self.pairings(pool), self.results, self._rules(), self.withdrawn()
        )

    def pool_complete(self, division_id: str, number: int) -> bool:
        """Every match of the pool has a result (or a forfeit against a withdrawn entry)."""
        pool = self.pool(division_id, number)
        rules, out = self._rules(), self.withdrawn()
        for pairing in self.pairings(pool):
            if effective_result(pairing, self.results, out, rules) is None and not (
                set(pairing.sides) <= out
            ):
                return False
        return True

    def close_pool(
        self,
        division_id: str,
        number: int,
        *,
        started: Collection[str] = (),
        now_s: int | None = None,
    ) -> list[Standing]:
        """Close a complete pool: its places go into the knockout and its results lock. With a
        board plan, the division's knockout matches not begun (none in ``started``) that now
        clash with another match of one of their players are put into the plan's free time
        from ``now_s`` (see :meth:`reslot`)."""
        pool = self.pool(division_id, number)
        if not self.pool_complete(division_id, number):
            raise TournamentError(
                "pool_open",
                f"Pool {pool.label} still has matches without a result",
                f"{pool.label}リーグにまだ結果のない試合があります",
            )
        self.closed.add((division_id, number))
        self._invalidate(division_id)
        if self.plan is not None:
            knockout = {m.id for m in self._knockout_games(division_id)}
            moving = clashes(self.plan, self.jobs()) & knockout
            if moving:
                self.reslot(moving, self.settings.start_s if now_s is None else now_s, started)
        return self.standings(division_id, number)

    def reopen_pool(self, division_id: str, number: int) -> None:
        """Reopen a closed pool for a correction, while no knockout match it feeds has a
        result."""
        pool = self.pool(division_id, number)
        bracket = self.brackets[division_id]
        fed = {
            m.id
            for m in bracket.matches
            if any(f.place is not None and f.place.pool == number for f in m.feeds)
        }
        if fed & set(self.results):
            raise TournamentError(
                "knockout_started",
                f"Pool {pool.label}'s qualifiers have played in the knockout; it stays closed",
                f"{pool.label}リーグの勝ち上がりが決勝トーナメントを戦ったため、確定を取り消せません",
            )
        self.closed.discard((division_id, number))
        self._invalidate(division_id)

    def qualifiers(self, division_id: str) -> dict[PoolPlace, str]:
        """Pool places of the closed pools filled by entries (``BYE`` where nobody qualifies)."""
        out: dict[PoolPlace, str] = {}
        bracket = self.brackets.get(division_id)
        if bracket is None:
            return out
        for div, number in sorted(self.closed):
            if div != division_id:
                continue
            table = [s for s in self.standings(div, number) if not s.withdrawn]
            for place in bracket.places():
                if place.pool == number:
                    out[place] = table[place.place - 1].entry if place.place <= len(table) else BYE
        return out

    # -- matches ---------------------------------------------------------------------------

    def _rules(self) -> StandingRules:
        return replace(self.settings.rules, lot_seed=self.settings.seed)

    def _invalidate(self, division: str, *, pools: bool = False) -> None:
        """Forget the matches of ``division`` derived from results (and from its pools)."""
        self._knockout_cache.pop(division, None)
        if pools:
            self._pool_cache.pop(division, None)
        self._merged = None

    def _pool_games(self, division: str) -> dict[int, list[Match]]:
        """The pool matches of a division by pool number (they change only with the draw)."""
        games = self._pool_cache.get(division)
        if games is None:
            games = {p.number: _pool_matches(p) for p in self.pools.get(division, ())}
            self._pool_cache[division] = games
        return games

    def _knockout_games(self, division: str) -> list[Match]:
        """The knockout matches of a division with their entrants as known now."""
        cached = self._knockout_cache.get(division)
        if cached is not None:
            return cached
        out: list[Match] = []
        bracket = self.brackets.get(division)
        if bracket is not None:
            sides = bracket.sides(self.qualifiers(division), self.results)
            pool_ids = {n: [m.id for m in games] for n, games in self._pool_games(division).items()}
            for km in bracket.matches:
                after: list[str] = []
                for feed in km.feeds:
                    if feed.place is not None:
                        after += pool_ids.get(feed.place.pool, [])
                    elif feed.match is not None:
                        after.append(feed.match)
                out.append(
                    Match(
                        km.id,
                        division,
                        "knockout",
                        None,
                        km.round,
                        sides[km.id],
                        km.name(bracket.rounds, "ja"),
                        km.name(bracket.rounds, "en"),
                        tuple(dict.fromkeys(after)),
                        km.final,
                    )
                )
        self._knockout_cache[division] = out
        return out

    def _match_map(self) -> dict[str, Match]:
        if self._merged is None:
            merged: dict[str, Match] = {}
            for division in self.divisions:
                for games in self._pool_games(division).values():
                    merged.update((m.id, m) for m in games)
                merged.update((m.id, m) for m in self._knockout_games(division))
            self._merged = merged
        return self._merged

    def matches(self, division_id: str | None = None) -> list[Match]:
        """Every match (of one division), pools first then the knockout, in a stable order."""
        return [m for m in self._match_map().values() if division_id in (None, m.division)]

    def match(self, match_id: str) -> Match:
        """The match with this id."""
        try:
            return self._match_map()[match_id]
        except KeyError:
            raise TournamentError(
                "no_match", f"No match {match_id!r}", f"試合「{match_id}」はありません"
            ) from None

    def side_names(self, match: Match, lang: str = "ja") -> tuple[str, str]:
        """Display names of both sides ("未定"/"TBD" while unknown, "不戦"/"bye" for a bye)."""

        def name(side: str | None) -> str:
            if side is None:
                return "未定" if lang == "ja" else "TBD"
            if side == BYE:
                return "不戦" if lang == "ja" else "bye"
            return self.entry(side).name

        return name(match.sides[0]), name(match.sides[1])

    def forfeited(self, match: Match) -> bool:
        """A pool match with no result that a withdrawn entry will not play (a forfeit)."""
        out = self.withdrawn()
        return (
            match.stage == "pool"
            and match.id not in self.results
            and any(side in out for side in match.sides)
        )

    def record(self, match_id: str, result: Result) -> Result | None:
        """Record (or correct) the result of a match; returns the result it replaced, if any.

        Refused: a match whose entrants are not both known, a pool match a withdrawn entry
        forfeited, a draw in the knockout (R7c, R7d:
        a knockout match always has a winner), a match of a closed pool, a knockout match whose
        winner has played on and would change.
        """
        match = self.match(match_id)
        if not match.playable:
            raise TournamentError(
                "not_ready",
                f"Match {match_id} has no two entrants yet",
                f"試合 {match_id} はまだ対戦相手が決まっていません",
            )
        if self.forfeited(match):
            raise TournamentError(
                "forfeited",
                f"Match {match_id} is a forfeit: an entrant withdrew",
                f"試合 {match_id} は棄権による不戦です",
            )
        if match.stage == "pool":
            assert match.pool is not None
            if (match.division, match.pool) in self.closed:
                label = pool_label(match.pool)
                raise TournamentError(
                    "pool_closed",
                    f"Pool {label} is closed; reopen it before correcting a result",
                    f"{label}リーグは確定済みです。結果を直すには確定を取り消してください",
                )
        else:
            if result.winner is None:
                raise TournamentError(
                    "knockout_draw",
                    "A knockout match needs a winner (extra rounds R7c or the lot R7d)",
                    "決勝トーナメントは引き分けにできません（延長 R7c または抽選 R7d）",
                )
            old = self.results.get(match_id)
            if old is not None and old.winner != result.winner and self._played_on(match_id):
                raise TournamentError(
                    "played_on",
                    f"The winner of {match_id} has already played the next match",
                    f"{match_id} の勝者はすでに次の試合を終えています",
                )
        previous = self.results.get(match_id)
        self.results[match_id] = result
        self._invalidate(match.division)
        return previous

    def _played_on(self, match_id: str) -> bool:
        bracket = self.brackets[self.match(match_id).division]
        return any(
            m.id in self.results
            for m in bracket.matches
            if any(f.match == match_id for f in m.feeds)
        )

    def clear_result(self, match_id: str) -> Result | None:
        """Remove a result recorded by mistake (same locks as :meth:`record`)."""
        match = self.match(match_id)
        if match.stage == "pool" and (match.division, match.pool) in self.closed:
            raise TournamentError("pool_closed", "The pool is closed", "このリーグは確定済みです")
        if match.stage == "knockout" and self._played_on(match_id):
            raise TournamentError(
                "played_on",
                f"The winner of {match_id} has already played the next match",
                f"{match_id} の勝者はすでに次の試合を終えています",
            )
        self._invalidate(match.division)
        return self.results.pop(match_id, None)

    def final_places(self, division_id: str) -> dict[int, list[str]]:
        """Places 1-4 of a division as far as decided (certificates go to places 1-3)."""
        bracket = self.brackets.get(division_id)
        if bracket is None:
            return {}
        return bracket.final_places(self.qualifiers(division_id), self.results)

    # -- board plan --------------------------------------------------------------------------

    def jobs(self) -> list[Job]:
        """Every match that is to be played, as a planner :class:`Job` (byes and forfeits are
        not played, so nothing waits on them)."""
        order = {d: i for i, d in enumerate(self.divisions)}
        matches = self._match_map()
        skipped = {m.id for m in matches.values() if BYE in m.sides or self.forfeited(m)}
        jobs = []
        for m in matches.values():
            if m.id in skipped:
                continue
            division = self.divisions[m.division]
            people: set[str] = set()
            for side in m.sides:
                if side:
                    people |= self.entries[side].people
            if m.stage == "pool":
                assert m.pool is not None
                priority = (order[m.division], 0, m.pool, m.round)
                group = f"{m.division}-{m.pool}"
            else:
                priority = (order[m.division], 1, m.round, 0)
                group = ""
            jobs.append(
                Job(
                    m.id,
                    frozenset(people),
                    int(division.duration_s(final=m.final)),
                    after=tuple(a for a in m.after if a not in skipped),
                    board=self.settings.golden_board if m.final else None,
                    priority=priority,
                    group=group,
                )
            )
        return jobs

    def make_plan(self) -> BoardPlan:
        """Plan every match of the drawn divisions on the event's boards."""
        self.plan = plan_boards(
            self.jobs(),
            self.settings.boards,
            self.settings.start_s,
            changeover_s=self.settings.changeover_s,
        )
        return self.plan

    def replan(
        self,
        now_s: int,
        *,
        finished: Mapping[str, Slot],
        running: Mapping[str, Slot],
        out_of_service: frozenset[int] = frozenset(),
    ) -> BoardPlan:
        """Plan again from ``now_s`` keeping finished and running matches (see
        :func:`~.boardplan.replan`)."""
        if self.plan is None:
            return self.make_plan()
        self.plan = replan(
            self.jobs(),
            self.plan,
            now_s,
            finished=finished,
            running=running,
            out_of_service=out_of_service,
        )
        return self.plan

    def reslot(
        self, match_ids: Iterable[str], now_s: int, started: Collection[str] = ()
    ) -> BoardPlan | None:
        """Put ``match_ids`` (those not begun: no result, not in ``started``) and the matches
        after them into the board plan's free time from ``now_s``, every other slot kept (see
        :func:`~.boardplan.reslot`); returns the new plan (None without a plan)."""
        if self.plan is None:
            return None
        begun = set(self.results) | set(started)
        moving = {m for m in match_ids if m not in begun}
        if moving:
            self.plan = reslot(self.jobs(), self.plan, moving, now_s, fixed=begun)
        return self.plan

    # -- search ----------------------------------------------------------------------------

    def search(self, query: str, limit: int = 20) -> list[Entry]:
        """Entries whose member name or kana reading contains ``query`` (kana folded)."""
        found = [e for e in self.entries.values() if e.matches_search(query)]
        return found[:limit]

    def matches_of(self, entry_id: str) -> list[Match]:
        """An entry's matches, pools then knockout, in plan order where planned."""
        slots = self.plan.by_match() if self.plan else {}
        mine = [m for m in self._match_map().values() if entry_id in m.sides]
        return sorted(mine, key=lambda m: (slots[m.id].start_s if m.id in slots else 1 << 40, m.id))

    # -- serialisation ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict of the whole event."""
        s = self.settings
        return {
            "version": 1,
            "settings": {
                "name": s.name,
                "date": s.date,
                "boards": s.boards,
                "start_s": s.start_s,
                "changeover_s": s.changeover_s,
                "golden_board": s.golden_board,
                "seed": s.seed,
                "rules": rules_to_dict(s.rules),
                "online": s.online,
            },
            "divisions": [division_to_dict(d) for d in self.divisions.values()],
            "entries": [entry_to_dict(e) for e in self.entries.values()],
            "pools": {d: [list(p.entries) for p in pools] for d, pools in self.pools.items()},
            "brackets": {d: bracket_to_dict(b) for d, b in self.brackets.items()},
            "results": {m: r.to_dict() for m, r in self.results.items()},
            "closed": sorted([d, n] for d, n in self.closed),
            "plan": None if self.plan is None else plan_to_dict(self.plan),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Event:
        """Rebuild from :meth:`to_dict` output; raises :class:`TournamentError` when malformed."""
        try:
            s = data["settings"]
            settings = EventSettings(
                name=s["name"],
                date=s["date"],
                boards=int(s["boards"]),
                start_s=int(s["start_s"]),
                changeover_s=int(s["changeover_s"]),
                golden_board=None if s["golden_board"] is None else int(s["golden_board"]),
                seed=int(s["seed"]),
                rules=rules_from_dict(s["rules"]),
                online=bool(s.get("online", False)),
            )
            event = cls(settings, [division_from_dict(d) for d in data["divisions"]])
            for e in data["entries"]:
                entry = entry_from_dict(e)
                event.entries[entry.id] = entry
            event.pools = {
                d: tuple(Pool(d, i + 1, tuple(p)) for i, p in enumerate(pools))
                for d, pools in data["pools"].items()
            }
            event.brackets = {d: bracket_from_dict(d, b) for d, b in data["brackets"].items()}
            event.results = {m: Result.from_dict(r) for m, r in data["results"].items()}
            event.closed = {(str(d), int(n)) for d, n in data["closed"]}
            event.plan = None if data["plan"] is None else plan_from_dict(data["plan"])
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, TournamentError):
                raise
            raise TournamentError(
                "bad_event", f"Not an event: {err!r}", f"大会データとして読めません：{err!r}"
            ) from err
        return event


def _pool_matches(pool: Pool) -> list[Match]:
    """A pool's matches in round-robin order (circle method); ids "GS-A-07"."""
    out = []
    n = 0
    for rnd, pairs in enumerate(round_robin(pool.entries), start=1):
        for a, b in pairs:
            n += 1
            out.append(
                Match(
                    f"{pool.division}-{pool.label}-{n:02d}",
                    pool.division,
                    "pool",
                    pool.number,
                    rnd,
                    (a, b),
                    f"{pool.label}リーグ 第{n}試合",
                    f"Pool {pool.label} match {n}",
                )
            )
    return out


def _stable(text: str) -> int:
    """A small number from a text, the same in every process (``hash()`` is salted)."""
    return sum((i + 1) * ord(c) for i, c in enumerate(text))
