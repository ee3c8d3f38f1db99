"""An event (大会): its divisions, entries, pools, brackets, board plan and results, in one value.

:class:`Tournament` is the aggregate a director works on: every change goes through a method that
checks it first (:mod:`~.locks`) and raises :class:`TournamentError` (changing nothing) when it
cannot be done. Its matches are derived from the draw, the brackets and the results
(:mod:`~.fixtures`), and handed to the board planner as jobs (:mod:`~.scheduling`). It does no
I/O: the server stores it (:meth:`Tournament.to_dict`) and rebuilds it
(:meth:`Tournament.from_dict`).

Late entries: an entry added after its division's draw joins the pool with the fewest entries
among those not begun (no result, no match called), up to one more than the pool size; the
pool's round robin is made again and its matches (and the knockout matches after them: every
division's final too while the finals wait for the day's last pool match) are put into the free
time of the board plan, nobody else's slot moving. When a pool closes, the
knockout matches whose players became known and now clash with another of their matches (a
child in singles and family pairs) are moved the same way.

Corrections: a pool's results can be changed until the pool is closed. A closed pool's results
are locked: a correction is refused; the director may reopen the pool as long as no knockout
match fed by it has a result, correct it and close it again (its places are then recomputed).
A knockout result can be corrected until the next match of its entrants has a result.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

from hikone_carrom.tournament import locks
from hikone_carrom.tournament.autocall import AutoMode
from hikone_carrom.tournament.boardplan import (
    BoardPlan,
    Job,
    Slot,
    clashes,
    plan_boards,
    replan,
    reslot,
)
from hikone_carrom.tournament.codec import event_from_dict, event_to_dict
from hikone_carrom.tournament.divisions import Division, KnockoutSize
from hikone_carrom.tournament.entries import Entry
from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.fixtures import Fixture, Fixtures, Stage, side_names
from hikone_carrom.tournament.knockout import Bracket, PoolPlace, build_bracket
from hikone_carrom.tournament.knockout_size import fill_ranked, knockout_places
from hikone_carrom.tournament.people import Person
from hikone_carrom.tournament.pools import Pool, draw_pools
from hikone_carrom.tournament.results import Result
from hikone_carrom.tournament.scheduling import match_jobs
from hikone_carrom.tournament.settings import TournamentSettings
from hikone_carrom.tournament.standings import (
    Pairing,
    Standing,
    StandingRules,
    pool_complete,
    standings,
)

__all__ = ["Fixture", "Stage", "Tournament", "TournamentSettings"]


class Tournament:
    """The whole event (see the module doc); ``fixtures`` holds its matches as known now."""

    def __init__(
        self,
        settings: TournamentSettings,
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
        self.auto = AutoMode()
        """Automatic calls and pool closes (:mod:`~.autocall`), stored with the event."""
        self.fixtures = Fixtures(self)
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
        locks.check_new(self, entry)
        if entry.division not in self.pools:
            return None
        return self.late_pool(entry.division, started=started)

    def late_pool(self, division_id: str, *, started: Collection[str] = ()) -> Pool:
        """The pool a late entry of a drawn division joins: of the pools not begun (no result,
        none of their matches in ``started`` (called or played), not closed), the one with the
        fewest active entries, while it stays within the pool size plus one. Refused when no
        pool can take it, or when the knockout bracket would have to change after a knockout
        match was called or played."""
        return locks.late_pool(self, division_id, started)

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
        old_ids = {m.id for m in self.fixtures.pool_games(entry.division).get(pool.number, [])}
        joined = Pool(pool.division, pool.number, (*pool.entries, entry.id))
        self.pools[entry.division] = tuple(
            joined if p.number == pool.number else p for p in self.pools[entry.division]
        )
        if len(pool.entries) < division.advance:
            self._rebuild_bracket(entry.division)
        self.fixtures.forget(entry.division, pools=True)
        if self.plan is not None:
            kept = tuple(s for s in self.plan.slots if s.match not in old_ids)
            self.plan = replace(self.plan, slots=kept)
            new_ids = [m.id for m in self.fixtures.pool_games(entry.division)[pool.number]]
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
        locks.check_division_move(self, old, target)
        new = Entry(old.id, target, tuple(members), seed=seed, status=old.status)
        self.division(target).check_members(new.members)
        locks.check_once(self, new)
        self.entries[entry_id] = new
        self._withdrawn = None
        self.fixtures.forget(old.division)
        self.fixtures.forget(target)
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
        locks.check_status(self, entry, status)
        new = replace(entry, status=status)
        self.entries[entry_id] = new
        self._withdrawn = None
        self.fixtures.forget(entry.division)
        return new

    def withdrawn(self) -> frozenset[str]:
        """Ids of withdrawn entries."""
        if self._withdrawn is None:
            self._withdrawn = frozenset(
                e.id for e in self.entries.values() if e.status == "withdrawn"
            )
        return self._withdrawn

    def search(self, query: str, limit: int = 20) -> list[Entry]:
        """Entries whose member name or kana reading contains ``query`` (kana folded)."""
        found = [e for e in self.entries.values() if e.matches_search(query)]
        return found[:limit]

    # -- pools -----------------------------------------------------------------------------

    def draw(
        self, division_id: str, *, seeded: bool = True, seed: int | None = None
    ) -> tuple[Pool, ...]:
        """Draw the pools of a division (entries that withdrew are left out) and its bracket of
        pool places. A draw may be made again until a result of the division is recorded."""
        division = self.division(division_id)
        locks.check_draw(self, division_id)
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
        self.fixtures.forget(division_id, pools=True)
        return pools

    def _rebuild_bracket(self, division_id: str) -> None:
        """The knockout bracket of the division's pool places (the best ``advance`` of each
        pool, or all of a smaller pool) under its knockout size."""
        division = self.divisions[division_id]
        places = knockout_places(self.pools[division_id], division.advance, division.knockout)
        self.brackets[division_id] = build_bracket(
            division_id, places, third_place=division.third_place
        )

    def set_knockout_size(
        self,
        division_id: str,
        size: KnockoutSize,
        *,
        started: Collection[str] = (),
        now_s: int | None = None,
    ) -> Bracket | None:
        """Choose the size of a division's knockout (:mod:`~.knockout_size`); refused once one
        of its knockout matches is called or played. A drawn division's bracket is made again
        and, with a board plan, its knockout matches are put into the plan's free time from
        ``now_s`` (see :meth:`reslot`). Returns the new bracket (None before the draw)."""
        division = self.division(division_id)
        locks.check_knockout_size(self, division_id, started)
        self.divisions[division_id] = replace(division, knockout=size)
        if division_id not in self.pools:
            return None
        old = {m.id for m in self.fixtures.knockout_games(division_id)}
        self._rebuild_bracket(division_id)
        self.fixtures.forget(division_id)
        if self.plan is not None:
            kept = tuple(s for s in self.plan.slots if s.match not in old)
            self.plan = replace(self.plan, slots=kept)
            new = [m.id for m in self.fixtures.knockout_games(division_id)]
            self.reslot(new, self.settings.start_s if now_s is None else now_s, started)
        return self.brackets[division_id]

    def set_rules(self, rules: StandingRules) -> None:
        """Change the match points and tie-breaks; every pool's table is computed again.
        Refused once a pool is closed (its places went into the knockout under the old rules):
        reopen it first."""
        locks.check_rules_change(self)
        self.settings = replace(self.settings, rules=rules)
        for division in self.divisions:
            self.fixtures.forget(division)

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
        games = self.fixtures.pool_games(pool.division).get(pool.number, [])
        return [Pairing(m.id, (m.sides[0] or "", m.sides[1] or "")) for m in games]

    def standings(self, division_id: str, number: int) -> list[Standing]:
        """The table of one pool (:func:`~.standings.standings` with the event's rules)."""
        pool = self.pool(division_id, number)
        return standings(
            pool.entries, self.pairings(pool), self.results, self._rules(), self.withdrawn()
        )

    def _rules(self) -> StandingRules:
        return replace(self.settings.rules, lot_seed=self.settings.seed)

    def pool_complete(self, division_id: str, number: int) -> bool:
        """Every match of the pool has a result (or a forfeit against a withdrawn entry)."""
        pairings = self.pairings(self.pool(division_id, number))
        return pool_complete(pairings, self.results, self.withdrawn(), self._rules())

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
        locks.check_close(self, self.pool(division_id, number))
        self.closed.add((division_id, number))
        self.fixtures.forget(division_id)
        if self.plan is not None:
            knockout = {m.id for m in self.fixtures.knockout_games(division_id)}
            moving = clashes(self.plan, self.jobs()) & knockout
            if moving:
                self.reslot(moving, self.settings.start_s if now_s is None else now_s, started)
        return self.standings(division_id, number)

    def reopen_pool(self, division_id: str, number: int) -> None:
        """Reopen a closed pool for a correction, while no knockout match it feeds has a
        result."""
        locks.check_reopen(self, self.pool(division_id, number))
        self.closed.discard((division_id, number))
        self.fixtures.forget(division_id)

    def qualifiers(self, division_id: str) -> dict[PoolPlace, str]:
        """Pool places of the closed pools filled by entries (``BYE`` where nobody qualifies);
        places ranked across the pools once every pool of the division is closed."""
        bracket = self.brackets.get(division_id)
        if bracket is None:
            return {}
        tables = {
            number: [s for s in self.standings(div, number) if not s.withdrawn]
            for div, number in sorted(self.closed)
            if div == division_id
        }
        out = bracket.fill({n: [s.entry for s in t] for n, t in tables.items()})
        if len(tables) == len(self.pools.get(division_id, ())):
            out.update(fill_ranked(bracket, tables, self._rules()))
        return out

    # -- matches and results ---------------------------------------------------------------

    def matches(self, division_id: str | None = None) -> list[Fixture]:
        """Every match (of one division), pools first then the knockout, in a stable order."""
        return [m for m in self.fixtures.by_id().values() if division_id in (None, m.division)]

    def match(self, match_id: str) -> Fixture:
        """The match with this id."""
        try:
            return self.fixtures.by_id()[match_id]
        except KeyError:
            raise TournamentError(
                "no_match", f"No match {match_id!r}", f"試合「{match_id}」はありません"
            ) from None

    def matches_of(self, entry_id: str) -> list[Fixture]:
        """An entry's matches, pools then knockout, in plan order where planned."""
        slots = self.plan.by_match() if self.plan else {}
        mine = [m for m in self.fixtures.by_id().values() if entry_id in m.sides]
        return sorted(mine, key=lambda m: (slots[m.id].start_s if m.id in slots else 1 << 40, m.id))

    def side_names(self, match: Fixture, lang: str = "ja") -> tuple[str, str]:
        """Display names of both sides ("未定"/"TBD" while unknown, "不戦"/"bye" for a bye)."""
        return side_names(match, lambda side: self.entry(side).name, lang)

    def forfeited(self, match: Fixture) -> bool:
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
        locks.check_record(self, match, result)
        previous = self.results.get(match_id)
        self.results[match_id] = result
        self.fixtures.forget(match.division)
        return previous

    def clear_result(self, match_id: str) -> Result | None:
        """Remove a result recorded by mistake (same locks as :meth:`record`)."""
        match = self.match(match_id)
        locks.check_clear(self, match)
        self.fixtures.forget(match.division)
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
        not played, so nothing waits on them; see :mod:`~.scheduling`)."""
        return match_jobs(self)

    def make_plan(self) -> BoardPlan:
        """Plan every match of the drawn divisions on the event's boards."""
        self.plan = plan_boards(
            self.jobs(),
            self.settings.boards,
            self.settings.start_s,
            changeover_s=self.settings.changeover_s,
            breaks=self.settings.breaks(),
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
            self._current_plan(self.plan),
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
            plan = self._current_plan(self.plan)
            self.plan = reslot(self.jobs(), plan, moving, now_s, fixed=begun)
        return self.plan

    def _current_plan(self, plan: BoardPlan) -> BoardPlan:
        """``plan`` with the changeover and breaks of the settings as they are now (the
        director may have changed them since it was made)."""
        return replace(plan, changeover_s=self.settings.changeover_s, breaks=self.settings.breaks())

    # -- serialisation ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict of the whole event (see :mod:`~.codec`), its automatic mode
        included."""
        return {**event_to_dict(self), "auto": self.auto.to_dict()}

    @classmethod
    def from_dict(cls, data: Any) -> Tournament:
        """Rebuild from :meth:`to_dict` output; raises :class:`TournamentError` when malformed
        (an event stored before automatic mode has it off)."""
        event = event_from_dict(cls, data)
        event.auto = AutoMode.from_dict(data.get("auto"))
        return event


def _stable(text: str) -> int:
    """A small number from a text, the same in every process (``hash()`` is salted)."""
    return sum((i + 1) * ord(c) for i, c in enumerate(text))
