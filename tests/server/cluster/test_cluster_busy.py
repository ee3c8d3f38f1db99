"""Server processes talking through a busy real Redis: more calls at once
than a process has connections, and Redis refusing writes for a few seconds (``CLIENT PAUSE
WRITE``, as when it or the process is too busy to answer within a call's timeout). Neither may
look like Redis gone, and nothing published may be lost: a stored event that never reaches the
processes relaying the room leaves their clients behind it for good."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import redis

from hikone_carrom.bench.throwaway import RedisServer
from hikone_carrom.server.cluster.cluster import CALL_TIMEOUT_S, CONNECTIONS, SEND_BATCH, Cluster

PAUSE_S = CALL_TIMEOUT_S + 1.5
"""How long Redis refuses writes: longer than one call may take."""


def _pause_writes(url: str) -> None:
    """Have Redis hold every write (and every PUBLISH) for :data:`PAUSE_S`."""
    with redis.Redis.from_url(url) as admin:
        admin.execute_command("CLIENT", "PAUSE", str(round(PAUSE_S * 1000)), "WRITE")


def test_more_calls_at_once_than_connections_wait_for_one_and_are_no_outage(
    redis_server: RedisServer,
) -> None:
    async def main() -> tuple[list[str | None], int, bool]:
        cluster = Cluster(redis_server.url)
        told: list[None] = []
        cluster.outage_listeners.append(lambda: told.append(None))
        try:
            calls = (cluster.owner(f"room:busy{k}") for k in range(3 * CONNECTIONS))
            owners = await asyncio.gather(*calls)
        finally:
            await cluster.close()
        return owners, len(told), cluster.healthy

    owners, outages, healthy = asyncio.run(main())
    assert owners == [None] * (3 * CONNECTIONS)
    assert outages == 0 and healthy


def test_an_event_redis_did_not_take_reaches_the_relaying_process_later(
    redis_server: RedisServer,
) -> None:
    async def main() -> list[tuple[str, int, str]]:
        owner, relay = Cluster(redis_server.url), Cluster(redis_server.url)
        got: list[tuple[str, int, str]] = []
        await owner.start()
        await relay.start()
        try:
            await relay.follow(
                "room:paused",
                lambda seq, text: got.append(("event", seq, text)),
                lambda n, text: got.append(("note", n, text)),
            )
            _pause_writes(redis_server.url)
            owner.publish_event("room:paused", 7, '{"type":"event","seq":7}')
            owner.publish_note("room:paused", 3, '{"type":"presence"}')
            deadline = time.monotonic() + 4 * PAUSE_S
            while len(got) < 2 and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            return got
        finally:
            await owner.close()
            await relay.close()

    assert asyncio.run(main()) == [
        ("event", 7, '{"type":"event","seq":7}'),
        ("note", 3, '{"type":"presence"}'),  # unnumbered, in order after it
    ]


def test_a_reply_redis_did_not_take_is_sent_again(redis_server: RedisServer) -> None:
    async def main() -> dict[str, Any]:
        owner, asking = Cluster(redis_server.url), Cluster(redis_server.url)

        async def answer(body: dict[str, Any]) -> dict[str, Any]:
            _pause_writes(redis_server.url)  # the reply finds Redis refusing writes
            return {"echo": body["n"]}

        owner.serve("room", answer, lambda _: None)
        await owner.start()
        await asking.start()
        try:
            return await asking.request(
                owner.node, {"key": "room:asked", "n": 5}, timeout_s=3 * PAUSE_S
            )
        finally:
            await owner.close()
            await asking.close()

    reply = asyncio.run(main())
    assert reply["echo"] == 5


def test_a_broken_subscription_is_told_even_during_an_outage_already_known(
    redis_server: RedisServer,
) -> None:
    """Messages published to a process while its subscription is broken are lost: the clients
    it relays must be told (disconnected, they resync) every time, not only at the first failed
    call of an outage."""

    async def main() -> int:
        cluster = Cluster(redis_server.url, lease_s=60.0)  # no renewal during the test
        told: list[None] = []
        cluster.outage_listeners.append(lambda: told.append(None))
        await cluster.start()
        try:
            cluster.healthy = False  # a call failed a moment ago: the outage is known
            with redis.Redis.from_url(redis_server.url) as admin:
                admin.execute_command("CLIENT", "KILL", "TYPE", "pubsub")
            deadline = time.monotonic() + 10.0
            while not told and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            return len(told)
        finally:
            await cluster.close()

    assert asyncio.run(main()) >= 1


def test_a_burst_of_events_reaches_the_relaying_process_in_order(
    redis_server: RedisServer,
) -> None:
    burst = 3 * SEND_BATCH + 7

    async def main() -> tuple[list[tuple[int, str]], str | None]:
        owner, relay = Cluster(redis_server.url), Cluster(redis_server.url)
        got: list[tuple[int, str]] = []
        await owner.start()
        await relay.start()
        try:
            await relay.follow(
                "room:burst",
                lambda seq, text: got.append((seq, text)),
                lambda n, text: got.append((-n, text)),
            )
            for seq in range(1, burst + 1):
                owner.publish_event("room:burst", seq, f'{{"seq":{seq}}}')
                if seq % 100 == 0:
                    owner.keep("room:burst", f"presence {seq}")
            deadline = time.monotonic() + 20.0
            while len(got) < burst and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            return got, await relay.kept("room:burst")
        finally:
            await owner.close()
            await relay.close()

    got, kept = asyncio.run(main())
    assert got == [(seq, f'{{"seq":{seq}}}') for seq in range(1, burst + 1)]
    assert kept == f"presence {burst - burst % 100}"
