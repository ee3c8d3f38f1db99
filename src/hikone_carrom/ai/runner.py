"""Running evaluation tasks: in this process, on local worker processes (the default), or on a
Ray cluster (optional extra ``ray``, imported only when asked for).

Local workers are started with the "spawn" method and limit numba to one thread each, so that a
decision's time is that of one core.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_context
from typing import Any

from hikone_carrom.ai.errors import EvaluationError
from hikone_carrom.ai.evaluation import SoloTask, Task, run_task

__all__ = ["run_inline", "run_local", "run_ray", "warm_up"]


def warm_up() -> None:
    """Load the compiled physics once (numba's cache) so no decision's time includes it."""
    run_task(SoloTask("greedy", "0x", 0, cap=1))


def _one_thread() -> None:
    """Worker initializer: one numba thread per worker (decision time on one core), warmed up."""
    os.environ["NUMBA_NUM_THREADS"] = "1"
    import numba

    numba.set_num_threads(1)
    warm_up()


def run_inline(tasks: Sequence[Task]) -> Iterator[dict[str, Any]]:
    """Run the tasks one after another in this process, yielding each result line."""
    if tasks:
        warm_up()
    for task in tasks:
        yield run_task(task)


def run_local(tasks: Sequence[Task], jobs: int) -> Iterator[dict[str, Any]]:
    """Run the tasks on ``jobs`` local worker processes, yielding result lines as they finish."""
    if jobs < 1:
        raise EvaluationError("jobs must be >= 1", "jobs は1以上です")
    if jobs == 1:
        yield from run_inline(tasks)
        return
    ctx = get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_one_thread) as pool:
        pending: set[Future[dict[str, Any]]] = set()
        queue = list(tasks)
        queue.reverse()
        while queue or pending:
            while queue and len(pending) < 2 * jobs:
                pending.add(pool.submit(run_task, queue.pop()))
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in sorted(done, key=lambda f: id(f)):
                yield fut.result()


def run_ray(
    tasks: Sequence[Task], address: str, importer: Callable[[str], Any] | None = None
) -> Iterator[dict[str, Any]]:
    """Run the tasks on the Ray cluster at ``address`` ("local" starts a local Ray instance),
    yielding result lines as they finish.

    Raises:
        EvaluationError: Ray is not installed (``pip install 'hikone-carrom[ray]'``).
    """
    if importer is None:
        import importlib

        importer = importlib.import_module
    try:
        ray = importer("ray")
    except ImportError as err:
        raise EvaluationError(
            "Ray is not installed: pip install 'hikone-carrom[ray]'",
            "Ray が入っていません: pip install 'hikone-carrom[ray]'",
        ) from err
    if not ray.is_initialized():
        ray.init(
            address=None if address == "local" else address,
            runtime_env={"env_vars": {"NUMBA_NUM_THREADS": "1"}},
        )
    remote = ray.remote(num_cpus=1)(run_task)
    pending = [remote.remote(task) for task in tasks]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)
