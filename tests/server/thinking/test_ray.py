"""Thinking on Ray (``--ray ADDRESS``): a job gives the same answer as in a local worker."""

from __future__ import annotations

import asyncio
import os

from hikone_carrom.match import Match
from hikone_carrom.server.thinking.pool import (
    RayBackend,
    ThinkingPool,
    ThinkJob,
    position_of,
    think,
)


def test_a_ray_task_thinks_exactly_as_a_local_worker() -> None:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    os.environ.setdefault("RAY_raylet_start_wait_time_s", "240")  # a busy shared machine
    match = Match(2, seed=3)
    job = ThinkJob(position_of(match, "g-ray"), "decide", seed=9, level="2")
    backend = RayBackend("local", 1)  # a Ray cluster of this process alone
    try:
        pool = ThinkingPool(backend)
        thought = asyncio.run(pool.run("room", job, urgent=True))
    finally:
        pool.close()
    assert thought == think(job)
