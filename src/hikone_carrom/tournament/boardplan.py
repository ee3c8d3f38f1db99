"""The board plan (台割り): which match is played on which board and when, for the whole day.

A list-scheduling simulation over time: whenever a board is free, it takes the first match by
priority whose players are all free (and whose feeding matches are over); so no player is in two
matches at once, no board holds two matches at once, and no board stands idle while a match
could start on it. Pool matches are prioritised pool by pool and round by round, which keeps each
player's matches close together; a pool stays on the boards it started on where it can. A match
may be pinned to a board (the golden board of a final) or held until a time (the finals); no
match is planned across a break (the ceremony, lunch: :mod:`~.breaks`). Times are seconds from
midnight (s).

Re-planning (:func:`replan`) keeps finished and running matches where they are (a running match
that overran is given more time), takes broken boards out of service, and plans everything else
from "now" with the same rules. Re-slotting (:func:`reslot`) moves only some matches (a late
entry's pool, a knockout whose players became known) into the free time of a plan and leaves
every other slot where it is.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise

from hikone_carrom.tournament.breaks import Break, clear_of
from hikone_carrom.tournament.errors import TournamentError

__all__ = ["BoardPlan", "Job", "PlanStats", "Slot", "clashes", "plan_boards", "replan", "reslot"]


@dataclass(frozen=True)
class Job:
    """A match to place.

    Attributes:
        id: the match id.
        people: person keys of everyone who plays in it (empty while unknown: a knockout match
            whose entrants are not decided yet).
        duration_s: time reserved for it, s.
        after: ids of matches that must be over before it starts (knockout feeds).
        board: the board it must be played on, or None.
        priority: lower goes first among matches that could start.
        group: matches of one group (a pool) prefer the boards the group already used.
        not_before_s: it starts no earlier than this, s from midnight (the finals' start).
    """

    id: str
    people: frozenset[str]
    duration_s: int
    after: tuple[str, ...] = ()
    board: int | None = None
    priority: tuple[int, ...] = ()
    group: str = ""
    not_before_s: int = 0


@dataclass(frozen=True, order=True)
class Slot:
    """Where and when a match is played: board from 1, start and end in s from midnight."""

    start_s: int
    board: int
    match: str = field(compare=True)
    end_s: int = field(compare=False)


@dataclass(frozen=True)
class PlanStats:
    """How good a plan is: the day's end (s), board use (busy time over boards x day), and the
    longest and mean wait between one player's consecutive matches (s)."""

    end_s: int
    utilisation: float
    max_wait_s: int
    mean_wait_s: float


@dataclass(frozen=True)
class BoardPlan:
    """A plan: every match's :class:`Slot`, in order of start time then board, and the breaks
    it keeps free."""

    boards: int
    start_s: int
    changeover_s: int
    slots: tuple[Slot, ...]
    breaks: tuple[Break, ...] = ()

    def slot(self, match: str) -> Slot | None:
        """The slot of ``match``, or None when it is not planned."""
        return self._index.get(match)

    def by_match(self) -> dict[str, Slot]:
        """Slots by match id (a new dict)."""
        return dict(self._index)

    @cached_property
    def _index(self) -> dict[str, Slot]:
        return {s.match: s for s in self.slots}

    def stats(self, jobs: Iterable[Job]) -> PlanStats:
        """Figures of this plan for ``jobs`` (their people give the waits)."""
        if not self.slots:
            return PlanStats(self.start_s, 0.0, 0, 0.0)
        end = max(s.end_s for s in self.slots)
        busy = sum(s.end_s - s.start_s for s in self.slots)
        used = len({s.board for s in self.slots})
        span = max(1, end - self.start_s)
        at = self.by_match()
        per_person: dict[str, list[Slot]] = {}
        for job in jobs:
            slot = at.get(job.id)
            if slot is not None:
                for person in job.people:
                    per_person.setdefault(person, []).append(slot)
        waits = []
        for slots in per_person.values():
            slots.sort()
            waits += [b.start_s - a.end_s for a, b in pairwise(slots)]
        return PlanStats(
            end_s=end,
            utilisation=busy / (used * span),
            max_wait_s=max(waits, default=0),
            mean_wait_s=sum(waits) / len(waits) if waits else 0.0,
        )


def plan_boards(
    jobs: Sequence[Job],
    boards: int,
    start_s: int,
    *,
    changeover_s: int = 60,
    fixed: Mapping[str, Slot] | None = None,
    now_s: int | None = None,
    out_of_service: frozenset[int] = frozenset(),
    breaks: Sequence[Break] = (),
) -> BoardPlan:
    """Plan ``jobs`` on boards 1..``boards`` from ``start_s`` (or ``now_s``) on.

    ``fixed`` slots (finished or running matches) are kept as they are and occupy their boards
    and players; ``changeover_s`` separates two matches on a board and a player's two matches;
    no new match is planned across one of ``breaks``.
    Boards in ``out_of_service`` get no new match; a match pinned to such a board may go to any.
    Raises :class:`TournamentError` when a match waits on one that is never planned.
    """
    fixed = dict(fixed or {})
    if boards < 1:
        raise TournamentError("no_boards", "An event needs at least one board", "台が1台も要ります")
    usable = [b for b in range(1, boards + 1) if b not in out_of_service]
    if not usable:
        raise TournamentError("no_boards", "Every board is out of service", "使える台がありません")
    t0 = start_s if now_s is None else max(start_s, now_s)
    by_id = {j.id: j for j in jobs}
    pending = [j for j in jobs if j.id not in fixed]
    for j in pending:
        for dep in j.after:
            if dep not in by_id and dep not in fixed:
                raise TournamentError(
                    "unknown_feed",
                    f"Match {j.id} waits on {dep}, which is not planned",
                    f"試合 {j.id} の前の試合 {dep} が予定にありません",
                )
    kept = tuple(sorted(breaks))
    planner = _Planner(by_id, usable, t0, changeover_s, fixed, pending, kept)
    while planner.left:
        planner.start_ready()
        if not planner.left:
            break
        planner.advance()
    slots = sorted(planner.slots)
    return BoardPlan(boards, start_s, changeover_s, tuple(slots), kept)


_Key = tuple[tuple[int, ...], str]
"""A job's place in the queue: its priority, then its id."""


class _Planner:
    """The simulation of :func:`plan_boards` as time goes on: when each board and each person
    is free, the matches done, those waiting (until a time) and those ready (by priority)."""

    def __init__(
        self,
        by_id: Mapping[str, Job],
        usable: Sequence[int],
        t0: int,
        changeover_s: int,
        fixed: Mapping[str, Slot],
        pending: Sequence[Job],
        breaks: Sequence[Break],
    ) -> None:
        self.by_id = by_id
        self.t0 = t0
        self.gap = changeover_s
        self.breaks = breaks
        board_free = {b: t0 for b in usable}
        self.person_free: dict[str, int] = {}
        self.done: dict[str, int] = {}
        for match, slot in fixed.items():
            self.done[match] = slot.end_s
            if slot.board in board_free:
                board_free[slot.board] = max(board_free[slot.board], slot.end_s + changeover_s)
            job = by_id.get(match)
            for person in job.people if job else ():
                free = max(self.person_free.get(person, 0), slot.end_s + changeover_s)
                self.person_free[person] = free
        self.order = {j.id: (j.priority, j.id) for j in pending}
        self.missing: dict[str, int] = {}
        self.dependents: dict[str, list[Job]] = {}
        self.waiting: list[tuple[int, _Key, str]] = []
        for j in pending:
            open_deps = [d for d in j.after if d not in self.done]
            self.missing[j.id] = len(open_deps)
            for d in open_deps:
                self.dependents.setdefault(d, []).append(j)
            if not open_deps:
                heapq.heappush(self.waiting, (self.ready_at(j), self.order[j.id], j.id))
        self.free_heap = [b for b in usable if board_free[b] <= t0]
        heapq.heapify(self.free_heap)
        self.is_free = {b: board_free[b] <= t0 for b in usable}
        self.busy_heap = [(board_free[b], b) for b in usable if board_free[b] > t0]
        heapq.heapify(self.busy_heap)
        self.ready: list[tuple[_Key, str]] = []
        self.group_boards: dict[str, list[int]] = {}
        self.slots = list(fixed.values())
        self.left = len(pending)
        self.now = t0

    def ready_at(self, job: Job, at: int | None = None) -> int:
        """When, from ``at`` (the plan's start) on, all of ``job``'s players are free, the
        matches it waits on are over and it can be played without crossing a break."""
        t = max(self.t0 if at is None else at, job.not_before_s)
        for person in job.people:
            t = max(t, self.person_free.get(person, self.t0))
        for dep in job.after:
            t = max(t, self.done[dep] + self.gap)
        return clear_of(self.breaks, t, job.duration_s)

    def take_board(self, job: Job) -> int | None:
        """A free board for ``job`` (its pinned board, one its group already uses, or the
        lowest free), or None."""
        is_free, free_heap = self.is_free, self.free_heap
        pin = job.board if job.board in is_free else None
        if pin is not None:
            return pin if is_free[pin] else None
        for b in self.group_boards.get(job.group, ()):
            if is_free[b]:
                return b
        while free_heap and not is_free[free_heap[0]]:
            heapq.heappop(free_heap)
        return free_heap[0] if free_heap else None

    def start_ready(self) -> None:
        """At ``now``: free the boards whose match is over, then start every ready match, by
        priority, that has a board and its players."""
        now, is_free = self.now, self.is_free
        while self.busy_heap and self.busy_heap[0][0] <= now:
            _, b = heapq.heappop(self.busy_heap)
            is_free[b] = True
            heapq.heappush(self.free_heap, b)
        while self.waiting and self.waiting[0][0] <= now:
            _, key, jid = heapq.heappop(self.waiting)
            heapq.heappush(self.ready, (key, jid))
        deferred: list[tuple[_Key, str]] = []
        while self.ready and any(is_free.values()):
            key, jid = heapq.heappop(self.ready)
            job = self.by_id[jid]
            t = self.ready_at(job, now)
            if t > now:
                heapq.heappush(self.waiting, (t, key, jid))
                continue
            board = self.take_board(job)
            if board is None:
                deferred.append((key, jid))
                continue
            self._start(job, board)
        for item in deferred:
            heapq.heappush(self.ready, item)

    def _start(self, job: Job, board: int) -> None:
        """``job`` starts now on ``board``; the matches waiting on it may become ready."""
        end = self.now + job.duration_s
        self.slots.append(Slot(self.now, board, job.id, end))
        self.left -= 1
        self.is_free[board] = False
        heapq.heappush(self.busy_heap, (end + self.gap, board))
        if job.group:
            boards_of = self.group_boards.setdefault(job.group, [])
            if board not in boards_of:
                boards_of.append(board)
        for person in job.people:
            self.person_free[person] = end + self.gap
        self.done[job.id] = end
        for child in self.dependents.pop(job.id, ()):
            self.missing[child.id] -= 1
            if self.missing[child.id] == 0:
                heapq.heappush(self.waiting, (self.ready_at(child), self.order[child.id], child.id))

    def advance(self) -> None:
        """On to the next time a board is freed or a match can start; raises
        :class:`TournamentError` when there is none (matches that can never start)."""
        upcoming = []
        if self.busy_heap:
            upcoming.append(self.busy_heap[0][0])
        if self.waiting:
            upcoming.append(self.waiting[0][0])
        upcoming = [t for t in upcoming if t > self.now]
        if not upcoming:
            stuck = sorted(jid for jid, n in self.missing.items() if n > 0)[:3]
            raise TournamentError(
                "unplannable",
                f"Some matches can never start (e.g. {', '.join(stuck) or '?'})",
                f"始められない試合があります（例：{'、'.join(stuck) or '?'}）",
            )
        self.now = min(upcoming)


def replan(
    jobs: Sequence[Job],
    previous: BoardPlan,
    now_s: int,
    *,
    finished: Mapping[str, Slot],
    running: Mapping[str, Slot],
    overrun_s: int = 120,
    out_of_service: frozenset[int] = frozenset(),
) -> BoardPlan:
    """A new plan from ``now_s``: ``finished`` slots (as played) and ``running`` slots stay where
    they are; a running match past its planned end is given ``overrun_s`` more from now (a board
    that broke mid-match keeps that match: end it or move it first). Everything else is planned
    again with :func:`plan_boards` on the boards still in service, around the plan's breaks."""
    fixed: dict[str, Slot] = dict(finished)
    for match, slot in running.items():
        end = slot.end_s if slot.end_s > now_s else now_s + overrun_s
        fixed[match] = Slot(slot.start_s, slot.board, match, end)
    return plan_boards(
        jobs,
        previous.boards,
        previous.start_s,
        changeover_s=previous.changeover_s,
        fixed=fixed,
        now_s=now_s,
        out_of_service=out_of_service,
        breaks=previous.breaks,
    )


class _Busy:
    """Busy intervals [start, end) of one board or one person, kept sorted."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def add(self, start: int, end: int) -> None:
        i = bisect.bisect_left(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)

    def free_from(self, t: int, length: int, gap: int) -> int:
        """The earliest time >= ``t`` when [time, time + length) is free, ``gap`` s away from
        every busy interval (a linear scan: a board or a person has a few dozen at most)."""
        for start, end in zip(self.starts, self.ends, strict=True):
            if end + gap <= t:
                continue
            if t + length + gap <= start:
                return t
            t = max(t, end + gap)
        return t


def reslot(
    jobs: Sequence[Job],
    plan: BoardPlan,
    moving: Collection[str],
    now_s: int,
    *,
    fixed: Collection[str] = (),
    out_of_service: frozenset[int] = frozenset(),
) -> BoardPlan:
    """``plan`` with the matches of ``moving`` placed again, every other slot kept as it is.

    Each moving match (in priority order, a match's feeds first) goes to the earliest
    time from ``now_s`` (and the plan's start) when all its players are free, the matches it
    waits on are over, and a board is free for its whole length, ``changeover_s`` apart from
    everything else; a pinned board (the golden board) is kept, a pool prefers the boards it
    already uses; no match is placed across one of the plan's breaks, nor before its
    ``not_before_s``. Matches that wait on a moving match are moved too. So nobody is on two
    boards at once and no board holds two matches at once, provided the kept slots keep that
    already.
    """
    by_id = {j.id: j for j in jobs}
    moved = _moved_with(jobs, {m for m in moving if m in by_id and m not in fixed}, set(fixed))
    usable = [b for b in range(1, plan.boards + 1) if b not in out_of_service]
    if not usable:
        raise TournamentError("no_boards", "Every board is out of service", "使える台がありません")
    kept = [s for s in plan.slots if s.match not in moved]
    calendar = _Calendar(plan, usable, kept, by_id)
    placed: list[Slot] = []
    todo = sorted((by_id[m] for m in moved), key=lambda j: (j.priority, j.id))
    while todo:
        # the first by priority whose feeds are all placed (a feed is never placed after it)
        ends = calendar.ends
        job = next((j for j in todo if all(a in ends or a not in moved for a in j.after)), None)
        if job is None:
            raise TournamentError(
                "unplannable",
                f"Some matches wait on each other (e.g. {todo[0].id})",
                f"互いに待ち合う試合があります（例：{todo[0].id}）",
            )
        todo.remove(job)
        placed.append(calendar.place(job, max(now_s, plan.start_s)))
    return BoardPlan(
        plan.boards, plan.start_s, plan.changeover_s, tuple(sorted(kept + placed)), plan.breaks
    )


def _moved_with(jobs: Sequence[Job], moved: set[str], keep: set[str]) -> set[str]:
    """``moved`` with everything that waits on a moved match (but those in ``keep``)."""
    grew = True
    while grew:
        grew = False
        for job in jobs:
            if job.id not in moved and job.id not in keep and any(a in moved for a in job.after):
                moved.add(job.id)
                grew = True
    return moved


class _Calendar:
    """The busy times of every board and person of a plan, and the ends of its matches, for
    :func:`reslot` to place matches into the free time."""

    def __init__(
        self, plan: BoardPlan, usable: Sequence[int], kept: Iterable[Slot], by_id: Mapping[str, Job]
    ) -> None:
        self.gap = plan.changeover_s
        self.breaks = plan.breaks
        self.usable = usable
        self.by_id = by_id
        self.boards = {b: _Busy() for b in range(1, plan.boards + 1)}
        self.people: dict[str, _Busy] = {}
        self.ends: dict[str, int] = {}
        self.group_boards: dict[str, list[int]] = {}
        for slot in kept:
            self.boards[slot.board].add(slot.start_s, slot.end_s)
            self.ends[slot.match] = slot.end_s
            held = by_id.get(slot.match)
            for person in held.people if held else ():
                self.people.setdefault(person, _Busy()).add(slot.start_s, slot.end_s)
            if held and held.group:
                self.group_boards.setdefault(held.group, []).append(slot.board)

    def place(self, job: Job, t: int) -> Slot:
        """Book ``job`` at the earliest time from ``t`` after its feeds, on the best board."""
        gap, ends, people, boards = self.gap, self.ends, self.people, self.boards
        for dep in job.after:
            if dep not in ends and dep in self.by_id:
                raise TournamentError(
                    "unknown_feed",
                    f"Match {job.id} waits on {dep}, which is not planned",
                    f"試合 {job.id} の前の試合 {dep} が予定にありません",
                )
            t = max(t, ends.get(dep, t - gap) + gap)
        pin = job.board if job.board in self.usable else None
        candidates = [pin] if pin is not None else self.usable
        preferred = set(self.group_boards.get(job.group, ())) if job.group else set()
        length = job.duration_s

        def free(busy: _Busy, t: int) -> int:
            """The earliest time >= ``t`` free on ``busy`` and clear of the breaks."""
            while True:
                nxt = clear_of(self.breaks, busy.free_from(t, length, gap), length)
                if nxt == t:
                    return t
                t = nxt

        t = clear_of(self.breaks, max(t, job.not_before_s), length)
        while True:
            for person in job.people:
                t = free(people[person], t) if person in people else t
            best = min(candidates, key=lambda b: (free(boards[b], t), b not in preferred, b))
            start = free(boards[best], t)
            if all(p not in people or free(people[p], start) == start for p in job.people):
                break
            t = start
        end = start + length
        boards[best].add(start, end)
        for person in job.people:
            people.setdefault(person, _Busy()).add(start, end)
        ends[job.id] = end
        if job.group:
            self.group_boards.setdefault(job.group, []).append(best)
        return Slot(start, best, job.id, end)


def clashes(plan: BoardPlan, jobs: Iterable[Job]) -> set[str]:
    """Planned matches that break the plan's rules with the players known now: a player in
    another match less than ``changeover_s`` away, or a start before a match it waits on is
    over (a knockout match planned before its players were known)."""
    at = plan.by_match()
    gap = plan.changeover_s
    out: set[str] = set()
    per_person: dict[str, list[Slot]] = {}
    for job in jobs:
        slot = at.get(job.id)
        if slot is None:
            continue
        for person in job.people:
            per_person.setdefault(person, []).append(slot)
        for dep in job.after:
            if dep in at and at[dep].end_s + gap > slot.start_s:
                out.add(job.id)
    for slots in per_person.values():
        slots.sort()
        for i, a in enumerate(slots):
            for b in slots[i + 1 :]:
                if b.start_s >= a.end_s + gap:
                    break
                out |= {a.match, b.match}
    return out
