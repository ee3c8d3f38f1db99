"""``hikone-carrom bench server --first-move``: the computer's first move after a server start.

A thinking pool of one worker is started as the server starts it, cold (no warm-up: the worker
loads the compiled engine and the pot table on its first job) and warm
(:func:`~hikone_carrom.server.thinking.pool.warm_worker` before it takes a job, as
``hikone-carrom serve`` does before it listens); in each, level 6 decides the opening, then the
following positions of a game. The first decision's time is compared with the median of the
others (s, wall clock, from submitting the job to holding the answer).
"""

from __future__ import annotations

import asyncio
import statistics
import time

from hikone_carrom.board import BoardSpec
from hikone_carrom.match import Match
from hikone_carrom.server.thinking.pool import ProcessBackend, ThinkJob, position_of

__all__ = ["first_move_figures", "first_moves"]


async def _decisions(warm: bool, moves: int) -> tuple[float, list[float]]:
    backend = ProcessBackend(1, warm=BoardSpec() if warm else None)
    try:
        started = time.perf_counter()
        await backend.start()
        start_s = time.perf_counter() - started
        match = Match(2, seed=3)
        times: list[float] = []
        for k in range(moves):
            job = ThinkJob(position_of(match, "bench-1"), "decide", 11 + k, "6")
            asked = time.perf_counter()
            thought = await backend.submit(job)
            times.append(time.perf_counter() - asked)
            if thought.shot is None or match.is_over:
                break
            match.play(thought.shot, thought.noise)
        return start_s, times
    finally:
        backend.close()


def first_moves(warm: bool, moves: int = 6) -> tuple[float, list[float]]:
    """(s to start the worker, s of each of level 6's first ``moves`` decisions) for a pool of
    one worker started ``warm`` or cold."""
    return asyncio.run(_decisions(warm, moves))


def first_move_figures(moves: int = 6) -> dict[str, float]:
    """Print and return the cold and warm figures (s)."""
    out: dict[str, float] = {}
    print(f"the computer's first move after a start (level 6, one worker, {moves} moves):")
    for warm in (False, True):
        start_s, times = first_moves(warm, moves)
        label = "warm" if warm else "cold"
        later = statistics.median(times[1:]) if len(times) > 1 else float("nan")
        out[f"{label}_start_s"], out[f"{label}_first_s"], out[f"{label}_later_s"] = (
            start_s,
            times[0],
            later,
        )
        print(
            f"  {label}: worker ready in {start_s:.2f} s, first move {times[0]:.2f} s,"
            f" later moves median {later:.2f} s (first/later {times[0] / later:.2f})"
        )
    return out
