"""Work that must not run on the event loop: people's shots (simulations, records) and store
calls. Thinking (computer players, hints) runs in :mod:`hikone_carrom.server.thinking`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

__all__ = ["Runner"]

P = ParamSpec("P")
T = TypeVar("T")


class Runner:
    """Two executors: ``sim_workers`` threads for physics (the engine releases the GIL), and
    ``store_workers`` threads for the store. A room never has two store calls in flight (each
    waits under the room's lock), so its writes keep their order with any number of threads;
    SQLite takes one writer at a time, so one thread serves it best."""

    def __init__(self, sim_workers: int = 2, store_workers: int = 1) -> None:
        self._sim = ThreadPoolExecutor(max_workers=sim_workers, thread_name_prefix="hikone-sim")
        self._db = ThreadPoolExecutor(max_workers=store_workers, thread_name_prefix="hikone-db")

    async def simulate(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a simulation (a shot, a room's rebuild, a record) off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._sim, lambda: fn(*args, **kwargs))

    async def store(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a store call off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, lambda: fn(*args, **kwargs))

    def close(self) -> None:
        """Finish queued work and stop the threads."""
        self._sim.shutdown(wait=True, cancel_futures=False)
        self._db.shutdown(wait=True, cancel_futures=False)
