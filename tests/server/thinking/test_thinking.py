"""Thinking runs off the server's process: computer players and hints go
to a bounded pool of worker processes, a person's shot never waits behind them, and a hint over
the pool's limits is refused with ``busy`` in both languages."""

from __future__ import annotations

import asyncio
import json
import math
import os
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, hello, receive, send, straight_shot

from hikone_carrom.ai import hint, make_player
from hikone_carrom.board import BoardSpec
from hikone_carrom.match import Match, Shot
from hikone_carrom.match.placement import PlacementKind
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.thinking.pool import (
    WORKER_NICE,
    ProcessBackend,
    ThinkingPool,
    ThinkJob,
    Thought,
    position_of,
    replica,
    think,
)


def _aimed(match: Match, k: int) -> Shot:
    placement = match.legal_placement()
    if placement.kind is PlacementKind.POINT:
        x, y = placement.point
    else:
        (x0, y0), (x1, y1) = placement.line
        x, y = placement.nearest((x0 + x1) / 2, (y0 + y1) / 2)
    return Shot(x, y, math.atan2(-y, -x) + 0.1 * math.sin(k), 2.0 + 0.3 * (k % 4))


def _played(shots: int, seed: int = 7) -> Match:
    match = Match(2, seed=seed)
    for k in range(shots):
        match.play(_aimed(match, k))
    return match


def test_a_worker_replica_follows_the_match_through_undo_and_new_shots() -> None:
    match = _played(4)
    first = replica(position_of(match, "g-1"))
    assert first.layout == match.layout and len(first.actions) == 4
    match.undo()
    match.undo()
    match.play(_aimed(match, 9))  # a different third shot: the replica must undo two and replay
    again = replica(position_of(match, "g-1"))
    assert again is first  # the same replica, brought up to date
    assert again.layout == match.layout and len(again.actions) == 3
    tampered = replace(position_of(match, "g-1"), layout=())
    with pytest.raises(RuntimeError, match="does not reach"):
        replica(tampered)


def test_a_worker_thinks_exactly_as_the_library_on_the_match() -> None:
    match = _played(3)
    position = position_of(match, "g-2")
    expert = think(ThinkJob(position, "hint", seed=11))
    assert expert.shot == hint(match, 11).shot
    decided = think(ThinkJob(position, "decide", seed=5, level="2"))
    library = make_player(2, 5).decide(match)
    assert (decided.shot, decided.noise) == (library.shot, library.noise)


class _Gate:
    """A backend whose jobs finish when the test opens them, in order (for admission tests)."""

    workers = 1

    def __init__(self) -> None:
        self.started: list[ThinkJob] = []
        self.release = asyncio.Event()

    async def submit(self, job: ThinkJob) -> Thought:
        self.started.append(job)
        await self.release.wait()
        return Thought(None)

    def close(self) -> None:
        pass


def test_admission_is_bounded_per_room_and_per_server_and_computers_go_first() -> None:
    async def scenario() -> None:
        gate = _Gate()
        pool = ThinkingPool(gate, queue_limit=2, per_room=1)
        job = ThinkJob(position_of(Match(2), "g"), "hint", 0)
        first = asyncio.create_task(pool.run("a", job))  # runs
        await asyncio.sleep(0)
        hints = [asyncio.create_task(pool.run(room, job)) for room in ("b", "c")]  # wait
        await asyncio.sleep(0)
        assert pool.running == 1 and pool.waiting == 2
        for room in ("a", "d"):  # room a already has a job; the server queue is full
            with pytest.raises(RoomError) as refused:
                await pool.run(room, job)
            assert refused.value.code == "busy" and refused.value.status == 503
            assert "もう一度" in refused.value.ja
        computer = replace(job, kind="decide", level="2")
        turn = asyncio.create_task(pool.run("e", computer, urgent=True))  # never refused
        await asyncio.sleep(0)
        assert pool.waiting == 3
        gate.release.set()
        await asyncio.gather(first, turn, *hints)
        assert [j.kind for j in gate.started] == ["hint", "decide", "hint", "hint"]
        assert pool.running == 0 and pool.waiting == 0

    asyncio.run(scenario())


@pytest.fixture
def one_thinker(tmp_path: Path) -> Iterator[TestClient]:
    """A server with one thinking process and room for one waiting job."""
    settings = ServerSettings(
        db_url=f"sqlite:///{tmp_path / 'games.sqlite3'}",
        ai_delay_s=0.0,
        think_workers=1,
        think_queue=1,
        think_per_room=1,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def _pool(client: TestClient) -> ThinkingPool:
    pool: ThinkingPool = client.app.state.registry.services.thinker  # type: ignore[attr-defined]
    return pool


def _wait_for(condition: Any, what: str) -> None:
    deadline = time.monotonic() + 60.0
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def _hint_answered(ws: Any) -> None:
    """The asker gets its hint, and the room tells everyone that a hint was used, in
    either order."""
    got = sorted(
        (m["type"], m.get("event", {}).get("kind")) for m in (ws.receive_json(), ws.receive_json())
    )
    assert got == [("event", "hint"), ("hint", None)], got


def test_a_persons_shot_completes_while_thinking_fills_the_pool(one_thinker: TestClient) -> None:
    client = one_thinker
    rooms = [create_room(client, mode="hotseat", players=2) for _ in range(3)]
    sockets = [client.websocket_connect(f"/ws/rooms/{r['room_id']}") for r in rooms]
    a, b, d = (s.__enter__() for s in sockets)
    try:
        hello(a, rooms[0]["token"])
        hello(b, rooms[1]["token"])
        state = hello(d, rooms[2]["token"])["state"]
        send(a, type="hint")
        send(b, type="hint")
        pool = _pool(client)
        _wait_for(lambda: pool.running == 1 and pool.waiting == 1, "the pool fills up")
        send(d, **straight_shot(state))
        event = d.receive_json()
        assert event["type"] == "event" and event["event"]["kind"] == "shot"
        # the shot was simulated and broadcast while both hints were still being thought about
        assert pool.running == 1 and pool.waiting == 1
        _hint_answered(a)
        _hint_answered(b)
    finally:
        for s in sockets:
            s.__exit__(None, None, None)


def test_a_hint_over_the_limit_is_busy_and_can_be_asked_again(one_thinker: TestClient) -> None:
    client = one_thinker
    rooms = [create_room(client, mode="hotseat", players=2) for _ in range(3)]
    sockets = [client.websocket_connect(f"/ws/rooms/{r['room_id']}") for r in rooms]
    a, b, c = (s.__enter__() for s in sockets)
    try:
        for ws, made in zip((a, b, c), rooms, strict=True):
            hello(ws, made["token"])
        send(a, type="hint")
        send(b, type="hint")
        pool = _pool(client)
        _wait_for(lambda: pool.running == 1 and pool.waiting == 1, "the pool fills up")
        c.send_text(json.dumps({"type": "hint", "id": "h-1"}))
        refused = c.receive_json()
        assert refused["type"] == "error" and refused["code"] == "busy", refused
        assert refused["id"] == "h-1"
        assert "again" in refused["message"]["en"] and "もう一度" in refused["message"]["ja"]
        _hint_answered(a)
        _hint_answered(b)
        c.send_text(json.dumps({"type": "hint", "id": "h-1"}))
        answer = receive(c, "event")  # the answer, after or before the event of its use
        assert answer["type"] == "hint" and answer["id"] == "h-1"
        assert answer["cached"] is False  # the refusal was not kept as the position's answer
    finally:
        for s in sockets:
            s.__exit__(None, None, None)


def test_thinking_workers_run_at_the_lowest_cpu_priority() -> None:
    """The serving process takes a core before a thinking worker (people's shots first)."""
    backend = ProcessBackend(1)
    try:
        worker_nice = backend._executor().submit(os.nice, 0).result(timeout=120)
    finally:
        backend.close()
    assert worker_nice == min(19, os.nice(0) + WORKER_NICE)


def test_starting_a_worker_never_holds_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new worker is started (and waited for) off the event loop, so that every room's shots
    go on while the pool starts or replaces a worker."""
    backend = ProcessBackend(1)
    submitted_on: list[bool] = []
    executor = backend._executor()
    real_submit = executor.submit

    def submit(fn: Any, *args: Any) -> Any:
        submitted_on.append(_on_loop())
        return real_submit(fn, *args)

    def _on_loop() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    monkeypatch.setattr(executor, "submit", submit)
    job = ThinkJob(position_of(_played(2), "g-1"), "hint", 5)
    try:
        thought = asyncio.run(backend.submit(job))
    finally:
        backend.close()
    assert thought == think(job)
    assert submitted_on == [False]


def _readiness() -> tuple[int, int, int]:
    """In a worker: (process id, pot tables loaded, compiled engine functions loaded)."""
    from hikone_carrom.ai.pot_table import _stored
    from hikone_carrom.physics import _engine

    loaded = sum(
        1 for f in vars(_engine).values() if hasattr(f, "signatures") and len(f.signatures) > 0
    )
    return os.getpid(), _stored.cache_info().currsize, loaded


@pytest.mark.parametrize("warm", [False, True])
def test_a_warm_pool_starts_its_workers_with_the_expert_loaded(warm: bool) -> None:
    """``start`` brings every worker up before the first job; a warm worker has the pot table
    and the compiled engine loaded before its first job (the first computer move after a
    server start waits for no loading), a cold one loads them on the way."""
    backend = ProcessBackend(2, warm=BoardSpec() if warm else None)
    try:
        asyncio.run(backend.start())
        pool = backend._executor()
        workers = set(pool._processes)  # started by ``start``, not by a job
        pid, tables, compiled = pool.submit(_readiness).result(timeout=300)
    finally:
        backend.close()
    assert len(workers) == 2 and pid in workers
    if warm:
        assert tables >= 1 and compiled > 0
    else:
        assert (tables, compiled) == (0, 0)
