"""Automatic mode (自動進行): which matches go to which boards now, which pools close, and why a
planned match is still waiting.

A pure policy over the event and what is on the boards: the planned matches not begun are taken
in the plan's order (start time, then board); each whose two entrants are known and whose people
are all free goes to its planned board if that board is free, else to the lowest free board the
plan still uses (a final keeps the golden board). One person is never on two boards at once: a
child in singles and in a family pair waits for the other match. A pool closes once its last
result is in, unless the director holds it; a knockout match becomes callable when the pools
and matches that feed it are over, so the knockout starts by itself.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.knockout import BYE
from hikone_carrom.tournament.pools import pool_label

if TYPE_CHECKING:
    from hikone_carrom.tournament.entries import Entry
    from hikone_carrom.tournament.event import Tournament
    from hikone_carrom.tournament.fixtures import Fixture

__all__ = ["AutoMode", "Dispatch", "Waiting", "describe", "dispatch", "pools_to_close"]

PoolKey = tuple[str, int]
"""A pool: (division id, pool number from 1)."""


@dataclass(frozen=True)
class AutoMode:
    """The director's choice: automatic calls and pool closes ``on`` (off = paused), and the
    pools ``held`` open (their last result does not close them)."""

    on: bool = False
    held: frozenset[PoolKey] = frozenset()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (stored with the event)."""
        return {"on": self.on, "held": sorted([d, n] for d, n in self.held)}

    @classmethod
    def from_dict(cls, data: Any) -> AutoMode:
        """Inverse of :meth:`to_dict`; None (an event stored before automatic mode) is off."""
        if data is None:
            return cls()
        try:
            held = frozenset((str(d), int(n)) for d, n in data["held"])
            return cls(on=bool(data["on"]), held=held)
        except (KeyError, TypeError, ValueError) as err:
            raise TournamentError(
                "bad_event",
                f"Not an automatic mode: {err!r}",
                f"自動進行の設定が読めません：{err!r}",
            ) from err


WaitCode = Literal["ready", "board", "entrant", "pool", "match", "entrants"]


@dataclass(frozen=True)
class Waiting:
    """Why a planned match is not called yet.

    ``code``: ``ready`` (it could be called on ``board``: automatic mode is paused), ``board``
    (``board`` is busy with ``match``; every board is busy), ``entrant`` (``person``, a person
    key of its entry ``entry``, is still in ``match``), ``pool`` (``pool`` is not closed yet;
    ``held`` by the director), ``match`` (the knockout ``match`` that feeds it has no result),
    ``entrants`` (its entrants are not known).
    """

    code: WaitCode
    board: int | None = None
    match: str | None = None
    entry: str | None = None
    pool: PoolKey | None = None
    held: bool = False
    person: str | None = None


@dataclass(frozen=True)
class Dispatch:
    """One pass of the policy: the ``calls`` to make now ((match, board) in order) and why each
    other planned match not begun is ``waiting`` (by match id, in plan order)."""

    calls: tuple[tuple[str, int], ...]
    waiting: dict[str, Waiting]


def pools_to_close(event: Tournament) -> list[PoolKey]:
    """The pools that are complete, not closed and not held (``event.auto``), in the event's
    order."""
    held, results = event.auto.held, event.results
    out = []
    for division, pools in event.pools.items():
        games = event.fixtures.pool_games(division)
        for pool in pools:
            key = (division, pool.number)
            if key in event.closed or key in held:
                continue
            open_ = (m for m in games.get(pool.number, ()) if m.id not in results)
            if any(not event.forfeited(m) for m in open_):
                continue  # a match to play: not complete (the quick test of most pools)
            if event.pool_complete(division, pool.number):
                out.append(key)
    return out


def dispatch(
    event: Tournament,
    on_boards: Mapping[str, int],
    begun: Collection[str],
    *,
    reasons: bool = True,
) -> Dispatch:
    """The calls to make now and (``reasons``) why the other planned matches wait.

    ``on_boards`` are the matches called or being played with their boards, ``begun`` every
    match called, played or finished. Work: one walk over the plan's slots (2,020 for the
    simulated championship), stopping at the last free board without ``reasons``.
    """
    plan = event.plan
    if plan is None:
        return Dispatch((), {})
    started = set(begun) | set(on_boards)
    people = _People(event)
    taken = {board: match_id for match_id, board in on_boards.items()}
    busy: dict[str, str] = {}
    for match_id in on_boards:
        for person in people.of(event.match(match_id)):
            busy[person] = match_id
    service = {s.board for s in plan.slots if s.match not in started}
    free = sorted(service - set(taken))
    calls: list[tuple[str, int]] = []
    waiting: dict[str, Waiting] = {}
    for slot in plan.slots:
        if not free and not reasons:
            break
        if slot.match in started or slot.match in event.results:
            continue
        try:
            match = event.match(slot.match)
        except TournamentError:
            continue  # a slot of a match that no longer exists (a pool drawn again)
        if BYE in match.sides or event.forfeited(match):
            continue
        if not match.playable:
            waiting[match.id] = _feed(event, match)
            continue
        mine = people.of(match)
        clash = next((p for p in mine if p in busy), None)
        if clash is not None:
            entry = next(s for s in match.sides if s and clash in people.entry(s))
            waiting[match.id] = Waiting("entrant", match=busy[clash], entry=entry, person=clash)
            continue
        pinned = match.final and event.settings.golden_board is not None
        if slot.board in free:
            board = slot.board
        elif free and not pinned:
            board = free[0]
        else:
            waiting[match.id] = Waiting("board", board=slot.board, match=taken.get(slot.board))
            continue
        free.remove(board)
        taken[board] = match.id
        busy.update(dict.fromkeys(mine, match.id))
        calls.append((match.id, board))
    return Dispatch(tuple(calls), waiting)


class _People:
    """The person keys of entries and matches, each entry's worked out once per pass."""

    def __init__(self, event: Tournament) -> None:
        self.event = event
        self._entries: dict[str, frozenset[str]] = {}

    def entry(self, entry_id: str) -> frozenset[str]:
        found = self._entries.get(entry_id)
        if found is None:
            found = self._entries[entry_id] = _entry_people(self.event.entry(entry_id))
        return found

    def of(self, match: Fixture) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for side in match.sides:
            if side and side != BYE:
                out |= self.entry(side)
        return out


@lru_cache(maxsize=8192)
def _entry_people(entry: Entry) -> frozenset[str]:
    """An entry's person keys, kept from pass to pass (an entry is a value: a correction of its
    members makes a new one)."""
    return entry.people


def _feed(event: Tournament, match: Fixture) -> Waiting:
    """What a match whose entrants are not known waits on: the first pool feeding it that is
    not closed, else the first feeding match without a result."""
    pending: Waiting | None = None
    for dep in match.after:
        fed = event.match(dep)
        if fed.stage == "pool" and fed.pool is not None:
            key = (fed.division, fed.pool)
            if key not in event.closed:
                return Waiting("pool", pool=key, held=key in event.auto.held)
        elif dep not in event.results and pending is None:
            pending = Waiting("match", match=dep)
    return pending or Waiting("entrants")


def describe(waiting: Waiting, event: Tournament) -> dict[str, str]:
    """The reason as the director reads it, in Japanese and English (an online event's
    "boards" are its games, 対局)."""
    w = waiting
    online = event.settings.online
    place_ja = f"対局{w.board}" if online else f"第{w.board}台"
    place_en = f"game {w.board}" if online else f"board {w.board}"
    if w.code == "ready":
        return {"ja": f"{place_ja}に呼び出せます（自動進行は停止中）",
                "en": f"Ready for {place_en} (automatic mode paused)"}  # fmt: skip
    if w.code == "board":
        if w.match is None:
            return {"ja": f"{place_ja}の空き待ち", "en": f"Waiting for {place_en}"}
        return {"ja": f"{place_ja}で試合 {w.match} が行われています",
                "en": f"{place_en.capitalize()} is busy with match {w.match}"}  # fmt: skip
    if w.code == "entrant":
        entry = event.entry(w.entry or "")
        name = next((p.name for p in entry.members if p.key == w.person), entry.name)
        return {"ja": f"{name}さんが試合 {w.match} 中です",
                "en": f"{name} is still in match {w.match}"}  # fmt: skip
    if w.code == "pool" and w.pool is not None:
        division = event.division(w.pool[0])
        label = pool_label(w.pool[1])
        if w.held:
            return {"ja": f"{division.name_ja} {label}リーグの確定が保留されています",
                    "en": f"{division.name_en} pool {label} is held open"}  # fmt: skip
        return {"ja": f"{division.name_ja} {label}リーグの確定待ち",
                "en": f"Waiting for {division.name_en} pool {label} to close"}  # fmt: skip
    if w.code == "match":
        return {"ja": f"試合 {w.match} の結果待ち", "en": f"Waiting for the result of {w.match}"}
    return {"ja": "対戦相手が未定です", "en": "The entrants are not known yet"}
