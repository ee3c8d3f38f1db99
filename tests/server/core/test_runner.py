"""Store calls made in groups (group commit): calls made while a group is being stored go
together in the next one; each caller gets its own result only once its group is stored."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

import pytest

from hikone_carrom.server.core.runner import Runner


class Refused(Exception):
    pass


class Gate:
    """A group call that records its groups and can be held until released."""

    def __init__(self) -> None:
        self.groups: list[list[int]] = []
        self.open = threading.Event()
        self.stored: list[int] = []

    def many(self, items: Sequence[int]) -> list[int | Exception]:
        self.groups.append(list(items))
        self.open.wait(10)
        if -1 in items:
            raise OSError("the store went away")
        self.stored += [i for i in items if i % 7]
        return [10 * i if i % 7 else Refused(i) for i in items]


def test_calls_made_while_a_group_is_stored_go_in_the_next_group() -> None:
    gate = Gate()

    async def main() -> list[int | BaseException]:
        runner = Runner(1, 1)
        first = asyncio.create_task(runner.store_grouped(gate.many, 1))
        await asyncio.sleep(0.05)  # the first group is being stored
        rest = [asyncio.create_task(runner.store_grouped(gate.many, i)) for i in range(2, 9)]
        await asyncio.sleep(0.05)
        assert not any(t.done() for t in [first, *rest])  # nothing answered before it is stored
        gate.open.set()
        got = await asyncio.gather(first, *rest, return_exceptions=True)
        runner.close()
        return got

    got = asyncio.run(main())
    assert gate.groups == [[1], [2, 3, 4, 5, 6, 7, 8]]
    assert got[:6] == [10, 20, 30, 40, 50, 60]
    assert isinstance(got[6], Refused) and got[7] == 80  # a refusal is its caller's alone
    assert gate.stored == [1, 2, 3, 4, 5, 6, 8]


def test_a_group_that_fails_as_a_whole_fails_every_caller_of_it() -> None:
    gate = Gate()

    async def main() -> None:
        runner = Runner(1, 1)
        first = asyncio.create_task(runner.store_grouped(gate.many, 1))
        await asyncio.sleep(0.05)
        calls = [asyncio.create_task(runner.store_grouped(gate.many, i)) for i in (3, -1, 4)]
        await asyncio.sleep(0.05)
        gate.open.set()
        assert await first == 10
        for call in calls:
            with pytest.raises(OSError, match="went away"):
                await call
        assert await runner.store_grouped(gate.many, 5) == 50  # the next group is stored
        runner.close()

    asyncio.run(main())
    assert gate.groups == [[1], [3, -1, 4], [5]]
    assert gate.stored == [1, 5]


def test_with_several_store_threads_several_groups_are_stored_at_once() -> None:
    gate = Gate()

    async def main() -> list[int]:
        runner = Runner(1, 2)
        calls = [asyncio.create_task(runner.store_grouped(gate.many, i)) for i in (1, 2, 3)]
        await asyncio.sleep(0.05)
        assert len(gate.groups) == 2  # two groups in flight, the third call waits
        gate.open.set()
        got = list(await asyncio.gather(*calls))
        runner.close()
        return got

    assert asyncio.run(main()) == [10, 20, 30]
    assert sorted(map(len, gate.groups)) == [1, 1, 1]
