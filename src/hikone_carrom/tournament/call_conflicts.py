"""Corrections after a call: which matches already called to a board (or being played) a
proposed correction would change.

A correction (a result recorded again or cleared, a pool reopened, an entry withdrawn) can change
who plays a later match: the winner of a knockout match feeds the next one, a pool's places feed
the knockout, a withdrawn entry forfeits its pool matches. A match already called keeps the
players the hall heard and its pad shows, so the director must see these changes before making
the correction (docs/tournament.md, "Corrections after a call").

Each function tries the correction on a copy of the event and compares the sides of the
``called`` matches before and after; the event itself is never changed. A correction the event
refuses raises its :class:`~.errors.TournamentError`, as the change itself would.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from hikone_carrom.tournament.results import Result

if TYPE_CHECKING:
    from hikone_carrom.tournament.event import Tournament

__all__ = [
    "SideChange",
    "clear_conflicts",
    "record_conflicts",
    "reopen_conflicts",
    "status_conflicts",
]

Sides = tuple[str | None, str | None]


@dataclass(frozen=True)
class SideChange:
    """A called match the correction changes: its sides (entry ids, None while unknown) before
    and after, and whether it is still to be played after (False: an entrant unknown, a bye or
    a forfeit)."""

    match: str
    before: Sides
    after: Sides
    playable: bool


def record_conflicts(
    event: Tournament, called: Collection[str], match_id: str, result: Result
) -> list[SideChange]:
    """The called matches whose sides change if ``result`` is recorded for ``match_id``. Only
    a knockout result that changes its winner moves anyone (a pool's results reach the
    knockout when the pool closes, and a closed pool's results are locked)."""
    match = event.match(match_id)
    old = event.results.get(match_id)
    if match.stage != "knockout" or old is None or old.winner == result.winner:
        return []
    return _tried(event, called, match.division, lambda e: e.record(match_id, result))


def clear_conflicts(event: Tournament, called: Collection[str], match_id: str) -> list[SideChange]:
    """The called matches whose sides change if the result of ``match_id`` is removed (the
    knockout match its winner went on to loses that entrant)."""
    match = event.match(match_id)
    if match.stage != "knockout" or match_id not in event.results:
        return []
    return _tried(event, called, match.division, lambda e: e.clear_result(match_id))


def reopen_conflicts(
    event: Tournament, called: Collection[str], division: str, number: int
) -> list[SideChange]:
    """The called matches whose sides change if pool ``number`` of ``division`` is reopened
    (its places leave the knockout until it closes again)."""
    return _tried(event, called, division, lambda e: e.reopen_pool(division, number))


def status_conflicts(
    event: Tournament,
    called: Collection[str],
    entry_id: str,
    status: Literal["entered", "checked_in", "withdrawn"],
) -> list[SideChange]:
    """The called matches the status change of ``entry_id`` changes: withdrawing an entry
    makes its pool matches not played forfeits (the other side wins by the event's
    forfeit score)."""
    entry = event.entry(entry_id)
    if "withdrawn" not in (status, entry.status) or status == entry.status:
        return []
    return _tried(event, called, entry.division, lambda e: e.set_status(entry_id, status))


def _tried(
    event: Tournament,
    called: Collection[str],
    division: str,
    correction: Callable[[Tournament], object],
) -> list[SideChange]:
    """Apply ``correction`` to a copy of ``event`` and list the called matches of ``division``
    that changed (the copy is made only when such a match exists)."""
    watched = [m for m in event.matches(division) if m.id in called]
    if not watched:
        return []
    trial = type(event).from_dict(event.to_dict())
    correction(trial)
    changes = []
    for before in watched:
        after = trial.match(before.id)
        playable = after.playable and not trial.forfeited(after)
        if after.sides != before.sides or not playable:
            changes.append(SideChange(before.id, before.sides, after.sides, playable))
    return changes
