"""Thinking off the server's process: computer players' decisions and the expert's hints.

They run on a bounded pool of worker processes (``concurrent.futures`` with a ``forkserver``
context, at a lower CPU priority), never in the threads that simulate people's shots, so a
person's shot never waits behind thinking. A job carries the match as its inputs (settings and
every action's shot and hand noise); a worker keeps a replica of each match it thinks about and
replays only the actions it has not seen (the same inputs give the same match, bit for bit).

Admission is bounded: at most ``per_room`` jobs of one room and ``queue_limit`` waiting jobs on
the server; a hint over either limit is refused with ``busy`` (try again). A computer's turn is
never refused: it waits, and is served before waiting hints.

Post-game analyses run in a lane of their own, one analysed shot per job: their own worker
process(es), at the idle CPU priority (``SCHED_IDLE``: only the time nothing else wants), so a
computer's move or a hint never waits behind another room's analysis; without analysis workers
(a Ray cluster, or none asked for) they take the thinking workers at the lowest priority, after
every computer turn and hint waiting, one shot at a time.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import multiprocessing
import os
from collections import Counter, OrderedDict
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from hikone_carrom.ai import NoLegalShotError, hint, make_player
from hikone_carrom.ai.analysis import DRAWS, Analyser, Analysis
from hikone_carrom.ai.pot_table import pot_table
from hikone_carrom.board import BoardSpec
from hikone_carrom.match import ActionKind, Match, Noise, Shot
from hikone_carrom.physics import Disk
from hikone_carrom.rules import RefereeState, RuleOptions
from hikone_carrom.server.core.errors import RoomError

__all__ = [
    "AnalysisJob",
    "Backend",
    "MatchInputs",
    "ProcessBackend",
    "RayBackend",
    "ThinkJob",
    "ThinkingPool",
    "Thought",
    "analyse_shot",
    "busy",
    "position_of",
    "think",
    "warm_worker",
]

log = logging.getLogger(__name__)

WORKER_NICE = 19
"""How much lower than the server a worker process runs (``os.nice``: the lowest priority)."""

REPLICAS = 32
"""Matches a worker keeps replicas of (least recently used first out)."""

ANALYSERS = 4
"""Records an analysis worker keeps replayed up to the shot it analysed last."""

COMPUTER, HINT, ANALYSIS = 0, 1, 2
"""Priorities in a lane of workers: computer turns first, then hints, then analysed shots."""

ActionInput = tuple[str, Shot | None, Noise | None]
"""One action as a worker replays it: ("shot", shot, noise), ("skip", None, None),
("pass", None, None) or ("call_time", None, None)."""


@dataclass(frozen=True)
class MatchInputs:
    """A match as its inputs: the game's settings (and its set start position, if any), every
    action, and the resulting layout (disk id, x m, y m, layer) so that a worker can check its
    replica."""

    game_id: str
    players: int
    options: RuleOptions
    board: BoardSpec
    seed: int
    actions: tuple[ActionInput, ...]
    layout: tuple[tuple[str, float, float, int], ...]
    start: tuple[tuple[Disk, ...], RefereeState] | None = None


def _layout_key(match: Match) -> tuple[tuple[str, float, float, int], ...]:
    return tuple((d.id, d.x, d.y, d.layer) for d in match.layout)


def position_of(match: Match, game_id: str) -> MatchInputs:
    """The inputs that rebuild ``match`` (a game of id ``game_id``) exactly."""
    actions: list[ActionInput] = []
    for action in match.actions:
        if action.kind == ActionKind.SHOT and action.play is not None:
            actions.append(("shot", action.play.shot, action.play.noise))
        elif action.kind in (ActionKind.SKIP, ActionKind.PASS, ActionKind.CALL_TIME):
            actions.append((action.kind.value, None, None))
        else:
            raise ValueError(f"a server match has no {action.kind.value} action")
    return MatchInputs(
        game_id,
        match.players,
        match.options,
        match.board,
        match.seed,
        tuple(actions),
        _layout_key(match),
        match.start,
    )


@dataclass(frozen=True)
class ThinkJob:
    """What to think about: ``kind`` "decide" (the computer player ``level`` with ``seed``: its
    shot and hand noise) or "hint" (the expert's shot, ``seed`` as in :mod:`hints`)."""

    position: MatchInputs
    kind: Literal["decide", "hint"]
    seed: int
    level: str = ""


@dataclass(frozen=True)
class Thought:
    """A worker's answer: the shot (and for "decide" the hand's noise) with the player's info;
    ``shot`` is None when no legal placement exists (R2b)."""

    shot: Shot | None
    noise: Noise | None = None
    info: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AnalysisJob:
    """One shot of a post-game analysis: action ``n`` of ``record`` (the finished game
    ``game_id``), under ``draws`` draws of the 1x hand."""

    game_id: str
    record: dict[str, Any]
    n: int
    draws: int = DRAWS


# -- in the worker ---------------------------------------------------------------------------

_replicas: OrderedDict[str, tuple[tuple[Any, ...], Match, list[ActionInput]]] = OrderedDict()


def _replay(match: Match, action: ActionInput) -> None:
    kind, shot, noise = action
    if kind == "shot" and shot is not None:
        match.play(shot, noise)
    elif kind == "skip":
        match.skip_turn()
    elif kind == "pass":
        match.pass_turn()
    else:
        match.call_time()


def replica(position: MatchInputs) -> Match:
    """This worker's copy of the match at ``position``: kept from earlier jobs and brought up to
    date by undoing what differs and replaying the rest.

    Raises:
        RuntimeError: the replica does not reach the position's layout (a determinism bug).
    """
    settings = (position.players, position.options, position.board, position.seed, position.start)
    entry = _replicas.pop(position.game_id, None)
    if entry is None or entry[0] != settings:
        if position.start is None:
            match = Match(position.players, position.options, position.board, seed=position.seed)
        else:
            layout, referee = position.start
            match = Match.from_position(layout, referee, board=position.board, seed=position.seed)
        done: list[ActionInput] = []
    else:
        _, match, done = entry
    common = 0
    for mine, theirs in zip(done, position.actions, strict=False):
        if mine != theirs:
            break
        common += 1
    while len(done) > common:
        match.undo()
        done.pop()
    for action in position.actions[common:]:
        _replay(match, action)
        done.append(action)
    _replicas[position.game_id] = (settings, match, done)
    while len(_replicas) > REPLICAS:
        _replicas.popitem(last=False)
    if _layout_key(match) != position.layout:
        del _replicas[position.game_id]
        raise RuntimeError(f"the replica of {position.game_id} does not reach its position")
    return match


def think(job: ThinkJob) -> Thought:
    """Run one job (in a worker process): the computer's decision or the expert's hint."""
    match = replica(job.position)
    try:
        if job.kind == "hint":
            plan = hint(match, job.seed)
            return Thought(plan.shot, None, dict(plan.info))
        key: int | str = int(job.level) if job.level.isdigit() else job.level
        decision = make_player(key, job.seed).decide(match)
        return Thought(decision.shot, decision.noise, dict(decision.info))
    except NoLegalShotError:
        return Thought(None)


_analysers: OrderedDict[str, Analyser] = OrderedDict()


def analyse_shot(job: AnalysisJob) -> Analysis:
    """Analyse one shot (in a worker process), going on from the replay of the same record's
    previous shot, so that a game's analysis replays its record once."""
    analyser = _analysers.pop(job.game_id, None)
    if analyser is None or analyser.record != job.record or analyser.draws != job.draws:
        analyser = Analyser(job.record, draws=job.draws)
    _analysers[job.game_id] = analyser
    while len(_analysers) > ANALYSERS:
        _analysers.popitem(last=False)
    return analyser.analysis([job.n])


def _start_worker(warm: BoardSpec | None = None, idle: bool = False) -> None:
    """Worker set-up: one numba thread (the pool is the parallelism) and the lowest CPU
    priority (nice 19), so that the serving processes (people's shots) take a core first while
    a computer player still thinks on a busy machine (``SCHED_IDLE`` could starve it); with
    a board ``warm``, :func:`warm_worker` on it before the worker takes its first job. An
    ``idle`` worker (post-game analyses) then runs at ``SCHED_IDLE`` where the system has it:
    it may wait as long as anything else wants the cores."""
    import numba

    os.nice(WORKER_NICE)
    numba.set_num_threads(1)
    if warm is not None:
        warm_worker(warm)
    if idle and hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def warm_worker(board: BoardSpec) -> int:
    """Ready this worker for its first job: the expert decides once on ``board``'s opening, so the
    compiled engine, the batch physics and the pot table are loaded now, not while a player
    waits for the computer's first move (several seconds). Returns the worker's process id."""
    pot_table(board)
    match = Match(2, RuleOptions(), board, seed=0)
    expert = make_player("expert", 0)
    for _ in range(2):  # the opening from the tee spot (R2a), then a shot from the area line
        decision = expert.decide(match)
        match.play(decision.shot, decision.noise)
    return os.getpid()


def worker_id() -> int:
    """The process id of the worker that runs this (a job that only starts a worker)."""
    return os.getpid()


# -- in the server ---------------------------------------------------------------------------


class Backend(Protocol):
    """Where jobs run: a local process pool or a Ray cluster."""

    workers: int

    def submit(self, job: ThinkJob) -> Awaitable[Thought]:
        """Start one job; the awaitable gives its answer."""

    def analyse(self, job: AnalysisJob) -> Awaitable[Analysis]:
        """Start one analysed shot; the awaitable gives its analysis."""

    def start(self) -> Awaitable[None]:
        """Start the workers now (ready for their first job), not on first use."""

    def close(self) -> None:
        """Stop the workers."""


class ProcessBackend:
    """A local pool of ``workers`` processes (``forkserver``), started on first use or by
    :meth:`start`, and replaced if a worker dies. With a board ``warm`` every worker, a
    replacement too, runs :func:`warm_worker` on it before its first job; ``idle`` workers run
    at the idle CPU priority (post-game analyses, see :func:`_start_worker`)."""

    def __init__(self, workers: int, *, warm: BoardSpec | None = None, idle: bool = False) -> None:
        self.workers = workers
        self.warm = warm
        self.idle = idle
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=_start_worker,
                initargs=(self.warm, self.idle),
            )
        return self._pool

    async def start(self) -> None:
        # One job per worker, submitted together: the pool starts a process for each (none is
        # idle yet), and a job runs only after its worker's set-up, the warm-up included.
        futures = [
            await asyncio.to_thread(self._executor().submit, worker_id) for _ in range(self.workers)
        ]
        await asyncio.gather(*(asyncio.wrap_future(f) for f in futures))

    async def submit(self, job: ThinkJob) -> Thought:
        thought: Thought = await self._call(think, job)
        return thought

    async def analyse(self, job: AnalysisJob) -> Analysis:
        analysis: Analysis = await self._call(analyse_shot, job)
        return analysis

    async def _call(self, fn: Any, job: Any) -> Any:
        try:
            return await self._run(fn, job)
        except BrokenProcessPool:
            log.warning("a thinking worker died; starting a new pool")
            broken, self._pool = self._pool, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            return await self._run(fn, job)

    async def _run(self, fn: Any, job: Any) -> Any:
        # The pool starts a worker inside ``submit`` and waits there for the forkserver to have
        # imported the engine (about a second): that wait must not hold every room's event loop.
        future = await asyncio.to_thread(self._executor().submit, fn, job)
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class RayBackend:
    """Jobs as Ray tasks on the cluster at ``address`` (``ray start --head`` on one machine,
    ``ray start --address`` on the others; hikone-carrom installed on each), at most ``workers``
    at once from this server. Each Ray worker keeps its replicas like a local one."""

    def __init__(self, address: str, workers: int, board: BoardSpec | None = None) -> None:
        import ray

        self.board = BoardSpec() if board is None else board  # what :meth:`start` warms up on
        ray.init(address=address, namespace="hikone-carrom", log_to_driver=False)
        self._think = ray.remote(num_cpus=1, max_retries=1)(think)
        self._analyse = ray.remote(num_cpus=1, max_retries=1)(analyse_shot)
        self.workers = workers

    async def submit(self, job: ThinkJob) -> Thought:
        thought: Thought = await self._think.remote(job)
        return thought

    async def analyse(self, job: AnalysisJob) -> Analysis:
        analysis: Analysis = await self._analyse.remote(job)
        return analysis

    async def start(self) -> None:
        import ray

        warm = ray.remote(num_cpus=1)(warm_worker)
        await asyncio.gather(*(warm.remote(self.board) for _ in range(self.workers)))

    def close(self) -> None:
        import ray

        ray.shutdown()


def busy() -> RoomError:
    """The refusal of a hint while the thinking pool is full (HTTP 503)."""
    return RoomError(
        "busy",
        "The expert is thinking for other tables: ask again in a moment",
        "上級者はほかの台のことを考えています。少し待ってからもう一度どうぞ",
        status=503,
    )


class _Lane:
    """Slots of one backend's ``workers``, given to waiting jobs by priority (lowest first),
    then in order of arrival."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.running = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @property
    def waiting(self) -> int:
        return self.waiting_before(ANALYSIS + 1)

    def waiting_before(self, priority: int) -> int:
        """Jobs waiting whose priority comes before ``priority``."""
        return sum(1 for p, _, f in self._waiting if p < priority and not f.done())

    async def acquire(self, priority: int) -> None:
        if self.running < self.workers and not self.waiting:
            self.running += 1
            return
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), ticket))
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self.release()  # the slot was handed over just as the job was cancelled
            raise

    def release(self) -> None:
        while self._waiting:
            _, _, ticket = heapq.heappop(self._waiting)
            if not ticket.done():
                ticket.set_result(None)  # the slot passes to the next job
                return
        self.running -= 1


class ThinkingPool:
    """Bounded admission to a :class:`Backend`: ``backend.workers`` jobs run at once, computer
    turns before hints; a hint is refused with :func:`busy` when ``queue_limit`` jobs already
    wait or its room has ``per_room`` jobs. Analysed shots go to ``analysis`` (a backend of
    their own) or, without one, to ``backend`` after everything else waiting."""

    def __init__(
        self,
        backend: Backend,
        *,
        analysis: Backend | None = None,
        queue_limit: int = 16,
        per_room: int = 2,
    ) -> None:
        self.backend = backend
        self.analysis = analysis
        self.queue_limit = queue_limit
        self.per_room = per_room
        self._lane = _Lane(backend.workers)
        self._analysis_lane = self._lane if analysis is None else _Lane(analysis.workers)
        self._rooms: Counter[str] = Counter()

    @property
    def running(self) -> int:
        """Jobs running on the thinking workers (analysed shots among them without a lane of
        their own)."""
        return self._lane.running

    @property
    def waiting(self) -> int:
        """Computer turns and hints admitted and waiting for a thinking worker (analysed shots
        do not count: a hint is never refused because of an analysis)."""
        return self._lane.waiting_before(ANALYSIS)

    async def run(self, room_id: str, job: ThinkJob, *, urgent: bool = False) -> Thought:
        """Think about ``job`` for a room; ``urgent`` (a computer's turn) waits instead of being
        refused and goes before hints.

        Raises:
            RoomError: ``busy`` (only when not urgent).
        """
        if not urgent and (
            self._rooms[room_id] >= self.per_room or self.waiting >= self.queue_limit
        ):
            raise busy()
        self._rooms[room_id] += 1
        try:
            await self._lane.acquire(COMPUTER if urgent else HINT)
            try:
                return await self.backend.submit(job)
            finally:
                self._lane.release()
        finally:
            self._rooms[room_id] -= 1
            if self._rooms[room_id] <= 0:
                del self._rooms[room_id]

    async def analyse(self, job: AnalysisJob) -> Analysis:
        """Analyse one shot of a finished game in the analysis lane (never refused: it waits)."""
        lane = self._analysis_lane
        await lane.acquire(ANALYSIS)
        try:
            return await (self.analysis or self.backend).analyse(job)
        finally:
            lane.release()

    async def start(self) -> None:
        """Start the thinking workers now (see :meth:`Backend.start`); the analysis workers
        start on their first shot (a game's analysis waits a moment more for its first one,
        nobody's move for a server start)."""
        await self.backend.start()

    def close(self) -> None:
        """Stop the backends' workers."""
        self.backend.close()
        if self.analysis is not None:
            self.analysis.close()
