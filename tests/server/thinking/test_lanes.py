"""Post-game analyses never hold up a computer's move or a hint: they run in a lane of their own
(their own worker process, at the idle CPU priority), or without one after everything else
waiting, one analysed shot at a time; the thinking workers follow the cores."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, event, hello, send, straight_shot

from hikone_carrom.ai.analysis import Analysis, analyse
from hikone_carrom.match import Match
from hikone_carrom.server.core import config
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.thinking.pool import (
    AnalysisJob,
    ProcessBackend,
    ThinkingPool,
    ThinkJob,
    Thought,
    position_of,
)


class _Gate:
    """A backend whose jobs (thoughts and analysed shots) finish when the test opens them."""

    def __init__(self, workers: int = 1, *, open_: bool = False) -> None:
        self.workers = workers
        self.started: list[str] = []
        self.release = asyncio.Event()
        if open_:
            self.release.set()

    async def submit(self, job: ThinkJob) -> Thought:
        self.started.append(job.kind)
        await self.release.wait()
        return Thought(None)

    async def analyse(self, job: AnalysisJob) -> Analysis:
        self.started.append(f"analyse {job.n}")
        await self.release.wait()
        return Analysis(2, ())

    async def start(self) -> None:
        pass

    def close(self) -> None:
        pass


def _job(kind: str = "decide") -> ThinkJob:
    return ThinkJob(position_of(Match(2), "g"), "decide" if kind == "decide" else "hint", 0, "6")


def _shot(n: int) -> AnalysisJob:
    return AnalysisJob("other-1", {}, n)


def test_a_computer_move_is_answered_while_an_analysis_runs() -> None:
    async def scenario() -> None:
        thinking, analysing = _Gate(open_=True), _Gate()
        pool = ThinkingPool(thinking, analysis=analysing)
        shots = [asyncio.create_task(pool.analyse(_shot(n))) for n in (1, 2)]
        await asyncio.sleep(0)
        assert analysing.started == ["analyse 1"]  # one analysed shot at a time
        thought = await asyncio.wait_for(pool.run("room-a", _job(), urgent=True), 5)
        hinted = await asyncio.wait_for(pool.run("room-b", _job("hint")), 5)
        assert thought == hinted == Thought(None)
        assert thinking.started == ["decide", "hint"]
        assert not any(s.done() for s in shots)  # the analysis still runs meanwhile
        analysing.release.set()
        await asyncio.gather(*shots)
        assert analysing.started == ["analyse 1", "analyse 2"]

    asyncio.run(scenario())


def test_without_a_lane_of_their_own_analysed_shots_go_after_every_turn_and_hint() -> None:
    async def scenario() -> None:
        gate = _Gate()
        pool = ThinkingPool(gate)
        first = asyncio.create_task(pool.run("a", _job("hint")))
        await asyncio.sleep(0)
        shots = [asyncio.create_task(pool.analyse(_shot(n))) for n in (1, 2)]
        hint = asyncio.create_task(pool.run("b", _job("hint")))
        turn = asyncio.create_task(pool.run("c", _job(), urgent=True))
        await asyncio.sleep(0)
        assert pool.running == 1 and pool.waiting == 2  # analysed shots do not count
        gate.release.set()
        await asyncio.gather(first, hint, turn, *shots)
        assert gate.started == ["hint", "decide", "hint", "analyse 1", "analyse 2"]

    asyncio.run(scenario())


def test_a_turn_asked_for_during_an_analysed_shot_goes_before_the_next_one() -> None:
    """Preemption between shots: an analysis gives the worker up after every shot."""

    async def scenario() -> None:
        gate = _Gate()
        pool = ThinkingPool(gate)
        shots = [asyncio.create_task(pool.analyse(_shot(n))) for n in (1, 2)]
        await asyncio.sleep(0)
        turn = asyncio.create_task(pool.run("c", _job(), urgent=True))
        await asyncio.sleep(0)
        assert gate.started == ["analyse 1"]
        gate.release.set()
        await asyncio.gather(turn, *shots)
        assert gate.started == ["analyse 1", "decide", "analyse 2"]

    asyncio.run(scenario())


def test_analysis_workers_run_at_the_idle_cpu_priority() -> None:
    """An analysis takes only the time that people's shots, computers and hints leave."""
    if not hasattr(os, "SCHED_IDLE"):
        pytest.skip("no SCHED_IDLE on this system")
    backend = ProcessBackend(1, idle=True)
    try:
        policy = backend._executor().submit(os.sched_getscheduler, 0).result(timeout=120)
    finally:
        backend.close()
    assert policy == os.SCHED_IDLE


@pytest.mark.parametrize(("cores", "workers"), [(1, 1), (2, 1), (8, 7), (96, 32)])
def test_thinking_workers_follow_the_cores_this_process_may_use(
    monkeypatch: pytest.MonkeyPatch, cores: int, workers: int
) -> None:
    monkeypatch.setattr(config, "available_cores", lambda: cores)
    assert config.default_think_workers() == workers


def test_the_cores_are_those_the_process_may_run_on(monkeypatch: pytest.MonkeyPatch) -> None:
    fake: Any = lambda: 3  # noqa: E731
    monkeypatch.setattr(os, "process_cpu_count", fake, raising=False)
    assert config.available_cores() == 3
    monkeypatch.delattr(os, "process_cpu_count")
    if hasattr(os, "sched_getaffinity"):
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 5, 6, 7})
        assert config.available_cores() == 5


def test_the_server_analyses_in_its_analysis_worker_as_the_library_does(tmp_path: Path) -> None:
    settings = config.ServerSettings(
        db_url=f"sqlite:///{tmp_path / 'games.sqlite3'}", ai_delay_s=0.0, think_workers=1
    )
    with TestClient(create_app(settings)) as client:
        pool = client.app.state.registry.services.thinker  # type: ignore[attr-defined]
        assert isinstance(pool.analysis, ProcessBackend) and pool.analysis.idle
        made = create_room(client, mode="hotseat", players=2)
        with client.websocket_connect(f"/ws/rooms/{made['room_id']}") as ws:
            state = hello(ws, made["token"])["state"]
            for speed in (2.0, 2.5):
                send(ws, **straight_shot(state, speed=speed))
                state = event(ws)["event"]["state"]
            send(ws, type="resign", seat=state["shooter"])
            event(ws)
        game = f"{made['room_id']}-1"
        assert client.post(f"/api/games/{game}/analysis").status_code == 202
        deadline = time.monotonic() + 120
        while (now := client.get(f"/api/games/{game}/analysis").json())["status"] != "done":
            assert now["status"] in ("queued", "running") and time.monotonic() < deadline
            time.sleep(0.1)
        record = client.get(f"/api/games/{game}/record").json()
    assert Analysis.from_dict(now["result"]) == analyse(record)
