"""Work that must not run on the event loop: people's shots (simulations, records) and store
calls. Thinking (computer players, hints) runs in :mod:`hikone_carrom.server.thinking.pool`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, ParamSpec, TypeVar

__all__ = ["GroupCall", "Runner"]

P = ParamSpec("P")
T = TypeVar("T")
R = TypeVar("R")

Many = Callable[[Sequence[Any]], Sequence[Any]]
"""A store call's group form: items in, one result or exception per item out."""


class Runner:
    """Two executors: ``sim_workers`` threads for physics (the engine releases the GIL), and
    ``store_workers`` threads for the store. A room never has two store calls in flight (each
    waits under the room's lock), so its writes keep their order with any number of threads;
    SQLite takes one writer at a time, so one thread serves it best."""

    def __init__(self, sim_workers: int = 2, store_workers: int = 1) -> None:
        self.store_workers = store_workers
        self._sim = ThreadPoolExecutor(max_workers=sim_workers, thread_name_prefix="hikone-sim")
        self._db = ThreadPoolExecutor(max_workers=store_workers, thread_name_prefix="hikone-db")
        self._groups: dict[Many, GroupCall[Any, Any]] = {}

    async def simulate(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a simulation (a shot, a room's rebuild, a record) off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._sim, lambda: fn(*args, **kwargs))

    async def store(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a store call off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, lambda: fn(*args, **kwargs))

    async def store_grouped(
        self, many: Callable[[Sequence[T]], Sequence[R | Exception]], item: T
    ) -> R:
        """Run one item of a store call made in groups: the items asked for while a group is
        being stored go together in the next call of ``many`` (one transaction, one commit for
        many rooms), at most ``store_workers`` groups at a time. Returns this item's result
        once its group is stored, or raises its exception."""
        group = self._groups.get(many)
        if group is None:
            group = self._groups[many] = GroupCall(self, many)
        result: R = await group(item)
        return result

    def close(self) -> None:
        """Finish queued work and stop the threads."""
        self._sim.shutdown(wait=True, cancel_futures=False)
        self._db.shutdown(wait=True, cancel_futures=False)


class GroupCall(Generic[T, R]):
    """Calls of one store function gathered into groups (group commit): a call waits for the
    group it joined to be stored, so nothing is acknowledged before it is stored."""

    def __init__(
        self, runner: Runner, many: Callable[[Sequence[T]], Sequence[R | Exception]]
    ) -> None:
        self.runner = runner
        self.many = many
        self.waiting: list[tuple[T, asyncio.Future[R]]] = []
        self.running = 0
        self._tasks: set[asyncio.Task[None]] = set()

    async def __call__(self, item: T) -> R:
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self.waiting.append((item, future))
        if self.running < self.runner.store_workers:
            self._start()
        return await future

    def _start(self) -> None:
        group, self.waiting = self.waiting, []
        self.running += 1
        task = asyncio.get_running_loop().create_task(self._run(group))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, group: list[tuple[T, asyncio.Future[R]]]) -> None:
        try:
            try:
                results: Sequence[R | BaseException] = await self.runner.store(
                    self.many, [item for item, _ in group]
                )
            except Exception as err:  # the whole group failed: nothing of it was stored
                results = [err] * len(group)
            except asyncio.CancelledError:
                for _, future in group:
                    future.cancel()
                raise
            for (_, future), result in zip(group, results, strict=True):
                if future.done():
                    continue
                if isinstance(result, BaseException):
                    future.set_exception(result)
                else:
                    future.set_result(result)
        finally:
            self.running -= 1
            if self.waiting and self.running < self.runner.store_workers:
                self._start()
