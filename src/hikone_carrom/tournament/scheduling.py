"""An event's matches as jobs for the board planner (:mod:`~.boardplan`).

Byes and forfeits are not played, so they get no job and nothing waits on them. Pools come
before the knockout of their division, divisions in the event's order; a final is played on
the golden board, from the finals' start of the settings, or else after the day's last pool
match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hikone_carrom.tournament.boardplan import Job
from hikone_carrom.tournament.knockout import BYE

if TYPE_CHECKING:
    from hikone_carrom.tournament.event import Tournament

__all__ = ["match_jobs"]


def match_jobs(event: Tournament) -> list[Job]:
    """Every match of ``event`` that is to be played, as a planner :class:`Job`."""
    order = {d: i for i, d in enumerate(event.divisions)}
    matches = event.fixtures.by_id()
    skipped = {m.id for m in matches.values() if BYE in m.sides or event.forfeited(m)}
    finals_s = event.settings.finals_start_s
    pools_done: tuple[str, ...] = ()
    if finals_s is None:
        pools_done = tuple(
            m.id for m in matches.values() if m.stage == "pool" and m.id not in skipped
        )
    jobs = []
    for m in matches.values():
        if m.id in skipped:
            continue
        division = event.divisions[m.division]
        people: set[str] = set()
        for side in m.sides:
            if side:
                people |= event.entries[side].people
        if m.stage == "pool":
            assert m.pool is not None
            priority = (order[m.division], 0, m.pool, m.round)
            group = f"{m.division}-{m.pool}"
        else:
            priority = (order[m.division], 1, m.round, 0)
            group = ""
        after = tuple(a for a in m.after if a not in skipped)
        if m.final:
            after = tuple(dict.fromkeys(after + pools_done))
        jobs.append(
            Job(
                m.id,
                frozenset(people),
                int(division.duration_s(final=m.final)),
                after=after,
                board=event.settings.golden_board if m.final else None,
                priority=priority,
                group=group,
                not_before_s=finals_s if m.final and finals_s is not None else 0,
            )
        )
    return jobs
