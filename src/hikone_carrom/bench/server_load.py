"""Load for ``hikone-carrom bench server --rooms N``: many online rooms played by WebSocket clients.

Each room has 2 or 4 clients (one per seat, half the rooms of each size); the shooter shoots
about 1 s after it received the previous result. The figure is the time from sending a shot to
the moment the room's last client holds its event (s, ``time.monotonic``, which all processes of
one machine share). Rooms may ask for the expert's hint before every shot. Rooms against the
computer (level 6) have one client, whose person shoots about 1 s after the computer's shot
arrived; there the figure is the computer's answer time (:func:`computer_answer`). The clients
run in their own processes, so that they do not share the server's interpreter.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hikone_carrom.server.core import wire
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.warmup import quiet_collector

__all__ = [
    "LoadResult",
    "RoomCheck",
    "RoomPlan",
    "aim",
    "check_against_store",
    "computer_answer",
    "make_rooms",
    "run_load",
    "run_soak",
]

PAUSE_S = 1.0
"""Time between a shooter receiving a result and its next shot, s."""

ANSWER_TIMEOUT_S = 30.0
"""A shot whose event has not reached every client this long after it was sent counts as
lost, s."""

START_SPREAD_S = 2.0
"""The rooms start one after another over this long, s; the shooters shoot for the load's
seconds after that."""

RETRIED = ("store_unavailable", "cluster_unavailable")
"""Refusals after which a shooter sends the same shot again (nothing changed)."""

COMPUTER_LEVEL = "6"
"""The computer player of the load's rooms against the computer (the expert)."""

AI_DELAY_S = ServerSettings(db_url="").ai_delay_s
"""The pause (s) a server started by ``hikone-carrom serve`` makes before a computer shoots."""

RETRY_FIRST_S = 0.5
RETRY_MAX_S = 15.0


def retry_delay(attempt: int) -> float:
    """The browser's pause before reconnect attempt ``attempt`` (0, 1, ...), s: 0.5 s doubling
    up to 15 s, ±20 % (``web/js/net.js``)."""
    return float(min(RETRY_MAX_S, RETRY_FIRST_S * 2**attempt) * random.uniform(0.8, 1.2))


@dataclass(frozen=True)
class RoomPlan:
    """One room of the load: its id, a token per seat, its clients' server URLs (one per seat)
    and whether its shooters ask for a hint before each shot."""

    room_id: str
    tokens: tuple[str, ...]
    urls: tuple[str, ...]
    hints: bool = False
    servers: tuple[str, ...] = ()
    """Every server's WebSocket base: a client whose server stops reconnects to the next."""
    computer: bool = False
    """A room against the computer: one client (seat 0), the computer at seat 1."""


@dataclass
class LoadResult:
    """What the clients saw: shot latencies (s) of rooms without hints, of rooms with hints,
    hint answers (s), busy refusals, shots lost or seen twice, reconnects, rooms."""

    latencies: list[float] = field(default_factory=list)
    hint_room_latencies: list[float] = field(default_factory=list)
    hint_times: list[float] = field(default_factory=list)
    computer_times: list[float] = field(default_factory=list)
    """The computer's answers in the rooms against it (s, :func:`computer_answer`)."""
    computer_games_over: int = 0
    """Rooms against the computer whose game ended during the load (they stop playing)."""
    computer_unanswered: int = 0
    """Rooms against the computer still waiting for its move 30 s after the load's end."""
    busy: int = 0
    lost: int = 0
    doubled: int = 0
    gaps: int = 0
    reconnects: int = 0
    sent_at: list[float] = field(default_factory=list)
    """When each shot of the latencies was sent (``time.monotonic``)."""
    window: tuple[float, float] = (0.0, 0.0)
    """From every room playing to the shooters stopping (``time.monotonic``)."""
    closes: dict[int, int] = field(default_factory=dict)
    """Reconnects by the close code that ended the connection (1006: closed without one)."""
    resumed: list[float] = field(default_factory=list)
    """Per room, s from the kill to its first shot completed after it (``kill_at``)."""
    finals: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Per room, the last event number and the state its clients ended with: the state's JSON,
    "differ" (same event, different states) or "behind" (a client did not reach that event)."""
    errors: list[str] = field(default_factory=list)
    client_cpu_s: float = 0.0
    """CPU time the clients' processes used (s): the load generator's own share of the cores."""
    rooms_played: int = 0
    """Rooms whose clients played (a soak makes new ones all along)."""
    rooms_finished: int = 0
    """Of those, rooms whose game ended by a resignation before their clients left."""

    def shots_per_s(self) -> float:
        """Shots sent while every room played and seen by all their clients, per second."""
        begin, end = self.window
        if end <= begin:
            return 0.0
        return sum(1 for t in self.sent_at if begin <= t < end) / (end - begin)

    def merge(self, other: LoadResult) -> None:
        """Add another client process's results."""
        self.latencies += other.latencies
        self.hint_room_latencies += other.hint_room_latencies
        self.hint_times += other.hint_times
        self.computer_times += other.computer_times
        self.computer_games_over += other.computer_games_over
        self.computer_unanswered += other.computer_unanswered
        self.busy += other.busy
        self.lost += other.lost
        self.doubled += other.doubled
        self.gaps += other.gaps
        self.reconnects += other.reconnects
        for code, n in other.closes.items():
            self.closes[code] = self.closes.get(code, 0) + n
        self.resumed += other.resumed
        self.sent_at += other.sent_at
        self.finals.update(other.finals)
        self.errors += other.errors
        self.client_cpu_s += other.client_cpu_s
        self.rooms_played += other.rooms_played
        self.rooms_finished += other.rooms_finished


def make_rooms(
    servers: Sequence[str],
    rooms: int,
    *,
    hint_rooms: int = 0,
    seed: int = 1,
    computer_rooms: int = 0,
) -> list[RoomPlan]:
    """Create ``rooms`` online rooms (half of 2 seats, half of 4; ``hint_rooms`` more of 2 seats
    whose players ask for hints) over REST, seats taken; each client is given a server at
    random. ``computer_rooms`` more rooms are against the computer (level 6)."""
    plans = asyncio.run(_make_rooms(servers, rooms, hint_rooms, seed))
    if computer_rooms:
        plans += asyncio.run(_make_computer_rooms(servers, computer_rooms))
    return plans


async def _make_computer_rooms(servers: Sequence[str], rooms: int) -> list[RoomPlan]:
    import httpx

    bases = tuple(b.replace("http://", "ws://") for b in servers)
    plans: list[RoomPlan] = []
    async with httpx.AsyncClient(timeout=30) as http:
        for k in range(rooms):
            made = await http.post(
                f"{servers[k % len(servers)]}/api/rooms",
                json={"mode": "computer", "players": 2, "level": COMPUTER_LEVEL, "hints": False},
            )
            made.raise_for_status()
            url = bases[k % len(bases)]
            room, token = str(made.json()["room_id"]), str(made.json()["token"])
            plans.append(RoomPlan(room, (token,), (url,), servers=bases, computer=True))
    return plans


async def _make_rooms(
    servers: Sequence[str], rooms: int, hint_rooms: int, seed: int
) -> list[RoomPlan]:
    import httpx

    pick = random.Random(seed)
    plans: list[RoomPlan] = []
    bases = tuple(b.replace("http://", "ws://") for b in servers)
    async with httpx.AsyncClient(timeout=30) as http:
        for k in range(rooms + hint_rooms):
            players = 4 if k < rooms and k % 2 else 2
            asking = k >= rooms  # online rooms have hints off unless asked (32.1.6)
            room, tokens = await _open_room(http, servers[k % len(servers)], players, asking)
            urls = tuple(pick.choice(bases) for _ in range(players))
            plans.append(RoomPlan(room, tokens, urls, hints=asking, servers=bases))
    return plans


async def _open_room(
    http: Any, base: str, players: int, hints: bool = False
) -> tuple[str, tuple[str, ...]]:
    """Create an online room over REST and take every seat: (room id, a token per seat)."""
    made = await http.post(
        f"{base}/api/rooms", json={"mode": "online", "players": players, "hints": hints}
    )
    made.raise_for_status()
    room = str(made.json()["room_id"])
    tokens = [str(made.json()["token"])]
    for seat in range(1, players):
        taken = await http.post(f"{base}/api/rooms/{room}/seats/{seat}", json={})
        taken.raise_for_status()
        tokens.append(str(taken.json()["token"]))
    return room, tuple(tokens)


def placement_point(placement: dict[str, Any]) -> tuple[float, float]:
    """A legal striker position (m) from a state's ``placement``: its point, or the middle of
    the longest free stretch of the area line (R2a, R2b)."""
    if placement["kind"] == "point":
        x, y = placement["point"]
        return float(x), float(y)
    (x0, y0), (x1, y1) = placement["line"]
    lo, hi = max(placement["free"], key=lambda iv: iv[1] - iv[0])
    s = (lo + hi) / 2
    return x0 + (x1 - x0) * s, y0 + (y1 - y0) * s


def aim(state: dict[str, Any], k: int) -> dict[str, Any]:
    """A legal shot for the shooter, towards the centre with a small varying angle and speed."""
    x, y = placement_point(state["placement"])
    angle = math.atan2(-y, -x) + 0.15 * math.sin(k)
    return {
        "type": "shot",
        "seat": state["shooter"],
        "x": x,
        "y": y,
        "angle": angle,
        "speed": 2.0 + (k % 5) * 0.5,
    }


class _Client:
    """One seat's WebSocket: a reader that numbers what arrives, reconnecting when dropped."""

    def __init__(self, bases: list[str], room: str, token: str, result: LoadResult) -> None:
        self.bases = bases
        self.room = room
        self.token = token
        self.result = result
        self.ws: Any = None
        self.seq = 0
        self.state: dict[str, Any] = {}
        self.seen: dict[int, float] = {}
        self.events: dict[int, tuple[str, int | None, float]] = {}
        """Each event's kind, seat and duration (s, how long its shot rolls)."""
        self.changed = asyncio.Event()
        self.answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None
        self.closing = False
        self.generation = 0
        """How many times it connected (a shot sent before a reconnect is sent again)."""
        self.refused: dict[str, str] = {}
        """Error codes of refused actions by id."""
        self.failures = 0
        """Connections in a row that got no snapshot (the browser's back-off counter)."""

    async def connect(self) -> None:
        """Connect and say hello, as the browser does through a load balancer: one attempt
        goes to the client's server, or to the next one that accepts the connection (as a load
        balancer passes a refused connection on); a failed attempt is tried again after 0.5 s,
        doubling up to 15 s (each ±20 %)."""
        import websockets

        while True:
            for base in self.bases:
                url = f"{base}/ws/rooms/{self.room}"
                try:
                    self.ws = await websockets.connect(url, max_size=None, open_timeout=10)
                except ConnectionRefusedError:
                    continue  # a server that stopped: the balancer tries the next one
                except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as err:
                    if self.closing:
                        raise
                    self.result.errors.append(f"connect: {err}")
                    break
                try:
                    await self.ws.send(
                        json.dumps({"type": "hello", "token": self.token, "last_seq": self.seq})
                    )
                except websockets.exceptions.WebSocketException as err:
                    self.result.errors.append(f"connect: {err}")
                    break
                self.reader = asyncio.create_task(self._read(self.ws))
                self.generation += 1
                return
            else:
                if self.closing:
                    raise ConnectionRefusedError("no server accepts the connection")
                self.result.errors.append("connect: no server accepts the connection")
            await self._pause()

    async def _pause(self) -> None:
        """Wait before the next attempt; failures in a row (no snapshot between) wait longer."""
        await asyncio.sleep(retry_delay(self.failures))
        self.failures += 1

    async def _read(self, ws: Any) -> None:
        import websockets

        try:
            async for text in ws:
                now = time.monotonic()
                msg = wire.loads(text)
                kind = msg.get("type")
                if kind == "snapshot":
                    if msg["seq"] < self.seq:
                        self.result.errors.append("a snapshot went back in time")
                    else:
                        self.seq = msg["seq"]
                        self.state = msg["state"]
                    self.failures = 0
                elif kind == "event":
                    seq = msg["seq"]
                    if seq <= self.seq:
                        self.result.doubled += 1
                        continue
                    if seq != self.seq + 1:
                        self.result.gaps += 1
                        await ws.send(json.dumps({"type": "resync", "last_seq": self.seq}))
                        continue
                    self.seen[seq] = now
                    self.seq = seq
                    ev = msg["event"]
                    seat = ev.get("seat")
                    duration = float(ev.get("duration") or 0.0)
                    self.events[seq] = (str(ev.get("kind")), seat, duration)
                    self.state = msg["event"].get("state", self.state)  # a hint used has none
                elif kind in ("hint", "error", "duplicate"):
                    if kind == "error" and msg.get("id"):
                        self.refused[str(msg["id"])] = str(msg.get("code"))
                    await self.answers.put(msg)
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        if not self.closing:
            self.result.reconnects += 1
            code = ws.close_code if ws.close_code is not None else 1006
            self.result.closes[code] = self.result.closes.get(code, 0) + 1
            await self._pause()
            await self.connect()

    async def send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send(json.dumps(message))

    async def wait_for(
        self, seq: int, timeout: float, generation: int | None = None
    ) -> float | None:
        """When this client got event ``seq`` (or a snapshot past it), None after ``timeout``
        or, given the connection's ``generation``, as soon as it has reconnected since."""
        deadline = time.monotonic() + timeout
        while self.seq < seq:
            if generation is not None and self.generation != generation:
                return None
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return self.seen.get(seq, time.monotonic())

    async def close(self) -> None:
        self.closing = True
        if self.reader is not None:
            self.reader.cancel()
        with contextlib.suppress(Exception):
            await self.ws.close()


async def _play_room(
    plan: RoomPlan,
    until: float,
    result: LoadResult,
    start: float,
    kill_at: float | None,
    *,
    shots: int | None = None,
    resign: bool = False,
) -> None:
    """Play one room until ``until`` (``time.monotonic``) or for ``shots`` shots; with
    ``resign`` the last shooter then resigns (the game ends) before the clients leave."""
    clients = []
    for url, token in zip(plan.urls, plan.tokens, strict=True):
        bases = [url, *(b for b in plan.servers if b != url)]
        clients.append(_Client(bases, plan.room_id, token, result))
    await asyncio.sleep(start)
    for c in clients:
        await c.connect()
    for c in clients:
        await c.wait_for(0, ANSWER_TIMEOUT_S)
    while not clients[0].state:
        await asyncio.sleep(0.05)
    k = 0
    result.rooms_played += 1
    try:
        while time.monotonic() < until and (shots is None or k < shots):
            state = max(clients, key=lambda c: c.seq).state
            seq = max(c.seq for c in clients)
            if state.get("over"):
                await clients[0].send({"type": "rematch", "id": f"r{seq}"})
                await clients[0].wait_for(seq + 1, ANSWER_TIMEOUT_S)
                continue
            shooter = clients[state["shooter"]]
            if plan.hints:
                asked = time.monotonic()
                await shooter.send({"type": "hint", "id": f"h{seq}"})
                answer = await asyncio.wait_for(shooter.answers.get(), ANSWER_TIMEOUT_S)
                if answer.get("code") == "busy":
                    result.busy += 1
                elif answer.get("type") == "hint":
                    result.hint_times.append(time.monotonic() - asked)
                    if not answer.get("cached"):  # everyone is shown the hint used (32.1.6)
                        await shooter.wait_for(seq + 1, ANSWER_TIMEOUT_S)
                        seq = shooter.seq
                else:
                    result.errors.append(f"room {plan.room_id}: hint refused: {answer}")
            sent = time.monotonic()
            shot = {**aim(state, k), "id": f"s{seq}"}
            generation = shooter.generation
            await shooter.send(shot)
            k += 1
            while shooter.seq <= seq and time.monotonic() - sent < ANSWER_TIMEOUT_S:
                await shooter.wait_for(seq + 1, 0.5, generation)
                if shooter.seq > seq:
                    break
                if shooter.generation != generation:
                    generation = shooter.generation  # reconnected: the same shot, the same id
                    await shooter.send(shot)
                elif shooter.refused.pop(shot["id"], None) in RETRIED:
                    await asyncio.sleep(retry_delay(0))  # refused for now: the same shot again
                    await shooter.send(shot)
            got = [await c.wait_for(seq + 1, _left(sent + ANSWER_TIMEOUT_S)) for c in clients]
            if any(t is None for t in got):
                result.lost += 1
                continue
            latest = max(t for t in got if t is not None)
            if kill_at is not None and sent > kill_at:
                result.resumed.append(latest - kill_at)
                kill_at = None
            (result.hint_room_latencies if plan.hints else result.latencies).append(latest - sent)
            result.sent_at.append(sent)
            await asyncio.sleep(max(0.0, PAUSE_S - (time.monotonic() - latest)))
        if resign:
            await _resign(clients, result)
        last = max(c.seq for c in clients)
        deadline = time.monotonic() + ANSWER_TIMEOUT_S
        for c in clients:
            await c.wait_for(last, _left(deadline))
        if any(c.seq != last for c in clients):
            result.finals[plan.room_id] = (last, "behind")
            seqs = ", ".join(str(c.seq) for c in clients)
            result.errors.append(f"room {plan.room_id}: clients behind event {last}: {seqs}")
        else:
            states = {json.dumps(c.state, sort_keys=True) for c in clients}
            result.finals[plan.room_id] = (last, states.pop() if len(states) == 1 else "differ")
    except Exception as err:
        result.errors.append(f"room {plan.room_id}: {type(err).__name__}: {err}")
    finally:
        for c in clients:
            await c.close()


def computer_answer(before: tuple[float, float], shot_at: float) -> float:
    """The computer's answer time (s): from the previous event's arrival to its shot's, less
    the pause the server makes on purpose (:data:`AI_DELAY_S`, then the previous shot rolling
    out, ``before`` = (arrival, its duration), as ``room_computer.ComputerTurns.turn`` waits):
    what it spent waiting for a thinking worker, thinking, shooting and sending."""
    arrived, rolling = before
    return shot_at - arrived - AI_DELAY_S - rolling


async def _play_computer_room(
    plan: RoomPlan, until: float, result: LoadResult, start: float
) -> None:
    """Play one room against the computer until ``until``: the person (seat 0) shoots about 1 s
    after the computer's shot arrived; every shot of the computer's is timed."""
    bases = [plan.urls[0], *(b for b in plan.servers if b != plan.urls[0])]
    client = _Client(bases, plan.room_id, plan.tokens[0], result)
    await asyncio.sleep(start)
    await client.connect()
    await client.wait_for(0, ANSWER_TIMEOUT_S)
    while not client.state:
        await asyncio.sleep(0.05)
    result.rooms_played += 1
    k = 0
    try:
        while time.monotonic() < until:
            state, seq = client.state, client.seq
            if state.get("over"):
                result.computer_games_over += 1
                break
            if state["shooter"] == 0:
                await client.send({**aim(state, k), "id": f"s{seq}"})
                k += 1
                if await client.wait_for(seq + 1, ANSWER_TIMEOUT_S) is None:
                    result.lost += 1
                    break
                if client.state.get("shooter") == 0:
                    await asyncio.sleep(PAUSE_S)  # the person's turn goes on (R3a)
                continue
            shot_at = await client.wait_for(seq + 1, _left(until) + ANSWER_TIMEOUT_S)
            if shot_at is None:
                result.computer_unanswered += 1
                break
            kind, seat, _ = client.events.get(seq + 1, ("", None, 0.0))
            if seq in client.seen and kind == "shot" and seat != 0:
                before = (client.seen[seq], client.events[seq][2])
                result.computer_times.append(computer_answer(before, shot_at))
            if client.state.get("shooter") == 0:
                await asyncio.sleep(max(0.0, PAUSE_S - (time.monotonic() - shot_at)))
    except Exception as err:
        result.errors.append(f"room {plan.room_id}: {type(err).__name__}: {err}")
    finally:
        await client.close()


async def _resign(clients: list[_Client], result: LoadResult) -> None:
    """The shooter resigns: the room's game is over."""
    leader = max(clients, key=lambda c: c.seq)
    seq, state = leader.seq, leader.state
    if state.get("over"):
        return
    seat = int(state["shooter"])
    await clients[seat].send({"type": "resign", "seat": seat, "id": f"q{seq}"})
    if await clients[seat].wait_for(seq + 1, ANSWER_TIMEOUT_S) is not None:
        result.rooms_finished += 1


def _left(deadline: float) -> float:
    """Seconds until ``deadline`` (``time.monotonic``), at least 0."""
    return max(0.0, deadline - time.monotonic())


def _client_process(
    plans: list[RoomPlan], until: float, spread: float, kill_at: float | None
) -> LoadResult:
    quiet_collector()

    async def everything() -> LoadResult:
        result = LoadResult()
        await asyncio.gather(
            *(
                _play_computer_room(p, until, result, spread * k / max(1, len(plans)))
                if p.computer
                else _play_room(p, until, result, spread * k / max(1, len(plans)), kill_at)
                for k, p in enumerate(plans)
            )
        )
        return result

    cpu = time.process_time()
    result = asyncio.run(everything())
    result.client_cpu_s = time.process_time() - cpu
    return result


def run_load(
    plans: Sequence[RoomPlan],
    seconds: float,
    *,
    processes: int = 2,
    kill: tuple[float, Callable[[], None]] | None = None,
) -> LoadResult:
    """Play every room for ``seconds`` from ``processes`` client processes; the rooms start
    spread over the first 2 s. ``kill`` = (after s, stop): ``stop()`` is called that long after
    the start (kill -9 of a server), and each room's time to its next shot is measured."""
    start = time.monotonic()
    until = start + seconds + START_SPREAD_S
    kill_at = None if kill is None else start + START_SPREAD_S + kill[0]
    shares = [list(plans[k::processes]) for k in range(processes)]
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes) as pool:
        pending = pool.starmap_async(
            _client_process, [(share, until, START_SPREAD_S, kill_at) for share in shares]
        )
        if kill is not None and kill_at is not None:
            time.sleep(max(0.0, kill_at - time.monotonic()))
            kill[1]()
        parts = pending.get()
    total = LoadResult(window=(start + START_SPREAD_S, until))
    for part in parts:
        total.merge(part)
    return total


@dataclass(frozen=True)
class RoomCheck:
    """The rooms of a load compared with the store: rooms whose clients ended on different
    states of the same event, rooms with a client that did not reach the room's last event,
    rooms whose last event or state is not the stored one, and action ids stored twice."""

    differ: int
    behind: int
    unlike_store: int
    stored_twice: int


def check_against_store(base: str, result: LoadResult) -> RoomCheck:
    """Compare what every room's clients ended with against the store, through the server at
    ``base`` (its snapshot and its replay of the room's current game)."""
    import httpx

    unlike = twice = 0
    with httpx.Client(timeout=120) as http:
        for room, (seq, final) in result.finals.items():
            snap = http.get(f"{base}/api/rooms/{room}").json()
            same_state = final in ("differ", "behind") or (
                json.dumps(snap["state"], sort_keys=True) == final
            )
            if snap["seq"] != seq or not same_state:
                unlike += 1
            replay = http.get(f"{base}/api/games/{snap['room']['game_id']}/replay").json()
            ids = [e["action_id"] for e in replay["events"] if e.get("action_id")]
            twice += len(ids) - len(set(ids))
    finals = [final for _, final in result.finals.values()]
    return RoomCheck(finals.count("differ"), finals.count("behind"), unlike, twice)


SOAK_SHOTS = (4, 20)
"""A soak's room plays between this many shots (inclusive) before it is finished or left."""


def run_soak(
    base: str,
    minutes: float,
    rooms: int,
    *,
    processes: int = 2,
    every_s: float = 60.0,
    sample: Callable[[float], None] | None = None,
    seed: int = 1,
) -> LoadResult:
    """Rooms coming and going for ``minutes`` on the server at ``base``: ``rooms`` at a time,
    each made over REST, played for 4 to 20 shots, then finished (its shooter resigns) or left
    mid-game (its clients just go), half and half at random, and replaced by a new room.
    ``sample(elapsed_s)`` is called every ``every_s`` s while it runs."""
    start = time.monotonic()
    until = start + 60.0 * minutes
    shares = [rooms // processes + (1 if k < rooms % processes else 0) for k in range(processes)]
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes) as pool:
        pending = pool.starmap_async(
            _soak_process,
            [(base, n, until, seed * 1000 + k) for k, n in enumerate(shares) if n],
        )
        next_at = start + every_s
        while not pending.ready():
            pending.wait(max(0.0, next_at - time.monotonic()))
            if time.monotonic() >= next_at:
                if sample is not None:
                    sample(time.monotonic() - start)
                next_at += every_s
        parts = pending.get()
    total = LoadResult(window=(start, until))
    for part in parts:
        total.merge(part)
    return total


def _soak_process(base: str, rooms: int, until: float, seed: int) -> LoadResult:
    import httpx

    quiet_collector()

    ws_base = base.replace("http://", "ws://")

    async def room_after_room(k: int, result: LoadResult) -> None:
        pick = random.Random(seed * 1000 + k)
        await asyncio.sleep(START_SPREAD_S * k / max(1, rooms))
        async with httpx.AsyncClient(timeout=30) as http:
            while time.monotonic() < until:
                players = pick.choice((2, 4))
                try:
                    room, tokens = await _open_room(http, base, players)
                except httpx.HTTPError as err:
                    result.errors.append(f"making a room: {err!r}")
                    await asyncio.sleep(PAUSE_S)
                    continue
                plan = RoomPlan(room, tokens, (ws_base,) * players, servers=(ws_base,))
                shots = pick.randint(*SOAK_SHOTS)
                await _play_room(
                    plan, until, result, 0.0, None, shots=shots, resign=pick.random() < 0.5
                )

    async def everything() -> LoadResult:
        result = LoadResult()
        await asyncio.gather(*(room_after_room(k, result) for k in range(rooms)))
        return result

    cpu = time.process_time()
    result = asyncio.run(everything())
    result.client_cpu_s = time.process_time() - cpu
    return result
