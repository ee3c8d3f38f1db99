"""Several server processes, one store, one Redis: who owns each room, and how processes talk.

* **Ownership.** A room is owned by one process at a time: the one holding its lease, the Redis
  key ``hc:owner:{room}`` set with ``SET NX PX`` and renewed every third of ``lease_s`` by its
  owner. A process that takes a room over raises the room's epoch in the store
  (:meth:`GameStore.claim_room`), and every write names that epoch, so a process that lost its
  lease (paused, cut off) can never write to the room again: the store fences it off.
* **Liveness.** Each process keeps ``hc:node:{id}`` alive (same lease); when it is gone, the
  process is dead and its leases are taken over as they expire.
* **Messages.** Each process listens on the channel ``hc:to:{id}``: requests from other processes
  (a client's message for a room it owns) and replies to its own requests. An owner publishes each
  stored event on ``hc:room:{room}``; processes with clients of that room relay it to them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["Cluster", "OwnerGone"]

log = logging.getLogger(__name__)

_RENEW = """
local n = 0
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    n = n + 1
    KEYS[n] = key
  end
end
local lost = {}
for i = 1, n do lost[i] = KEYS[i] end
return lost
"""
"""Renew the leases this process still holds; returns the keys it no longer holds."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class OwnerGone(Exception):
    """The process that owned a room did not answer: it stopped, or gave the room up."""


class Cluster:
    """This process among the others: leases, requests to owners, relayed events."""

    def __init__(self, url: str, *, lease_s: float = 4.0, node: str | None = None) -> None:
        import redis.asyncio

        self.url = url
        self.node = node or secrets.token_hex(6)
        self.lease_ms = max(300, round(lease_s * 1000))
        self.redis = redis.asyncio.Redis.from_url(url, decode_responses=True)
        self.owned: set[str] = set()
        self._pubsub = self.redis.pubsub()
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._room_handlers: dict[str, Callable[[int, str], None]] = {}
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._handler: Handler | None = None
        self.on_lost: Callable[[str], None] = lambda _room: None
        self.on_dead_owner: Callable[[], Awaitable[None]] | None = None
        self._renew_lua = self.redis.register_script(_RENEW)
        self._release_lua = self.redis.register_script(_RELEASE)

    # -- life -------------------------------------------------------------------------------

    async def start(self, handler: Handler) -> None:
        """Announce this process, listen for requests and keep the leases."""
        self._handler = handler
        await self.redis.set(self._node_key(self.node), "1", px=self.lease_ms)
        await self._pubsub.subscribe(self._inbox(self.node))
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._renew()),
            loop.create_task(self._send()),
        ]

    async def close(self) -> None:
        """Give up every lease (another process takes the rooms at once) and stop."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            for room in list(self.owned):
                await self.release(room)
            await self.redis.delete(self._node_key(self.node))
            await self._pubsub.aclose()
        await self.redis.aclose()

    # -- leases -----------------------------------------------------------------------------

    @staticmethod
    def _owner_key(room: str) -> str:
        return f"hc:owner:{room}"

    @staticmethod
    def _node_key(node: str) -> str:
        return f"hc:node:{node}"

    @staticmethod
    def _inbox(node: str) -> str:
        return f"hc:to:{node}"

    @staticmethod
    def _room_channel(room: str) -> str:
        return f"hc:room:{room}"

    async def acquire(self, room: str) -> bool:
        """Take the room's lease if it is free (or already ours)."""
        key = self._owner_key(room)
        if await self.redis.set(key, self.node, nx=True, px=self.lease_ms):
            self.owned.add(room)
            return True
        if await self.redis.get(key) == self.node:
            self.owned.add(room)
            return True
        return False

    async def owner(self, room: str) -> str | None:
        """The process holding the room's lease, or None."""
        owner = await self.redis.get(self._owner_key(room))
        return None if owner is None else str(owner)

    async def alive(self, node: str) -> bool:
        """Whether a process is running (it renewed its presence within the lease)."""
        return bool(await self.redis.exists(self._node_key(node)))

    async def release(self, room: str) -> None:
        """Give the room's lease up (only if it is still ours)."""
        self.owned.discard(room)
        await self._release_lua(keys=[self._owner_key(room)], args=[self.node])

    async def _renew(self) -> None:
        every = self.lease_ms / 3000.0
        while True:
            await asyncio.sleep(every)
            try:
                await self.redis.set(self._node_key(self.node), "1", px=self.lease_ms)
                rooms = list(self.owned)
                if rooms:
                    keys = [self._owner_key(r) for r in rooms]
                    lost = await self._renew_lua(keys=keys, args=[self.node, self.lease_ms])
                    for key in lost:
                        room = str(key).removeprefix("hc:owner:")
                        if room in self.owned:
                            self.owned.discard(room)
                            log.warning("lost the lease of room %s", room)
                            self.on_lost(room)
                if self.on_dead_owner is not None:
                    await self.on_dead_owner()
            except Exception:
                log.exception("lease renewal failed")

    # -- messages ---------------------------------------------------------------------------

    async def request(self, node: str, body: dict[str, Any], *, timeout_s: float) -> dict[str, Any]:
        """Send a request to another process and wait for its reply.

        Raises:
            OwnerGone: nobody listens for that process, or it did not answer in ``timeout_s``
                while its presence expired.
        """
        rid = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[rid] = future
        try:
            message = json.dumps({"kind": "request", "from": self.node, "rid": rid, **body})
            if not await self.redis.publish(self._inbox(node), message):
                raise OwnerGone(f"process {node} is not listening")
            deadline = time.monotonic() + timeout_s
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(future), 1.0)
                except TimeoutError:
                    if not await self.alive(node):
                        raise OwnerGone(f"process {node} stopped") from None
                    if time.monotonic() > deadline:
                        raise OwnerGone(f"process {node} did not answer") from None
        finally:
            self._replies.pop(rid, None)

    def publish_event(self, room: str, seq: int, text: str) -> None:
        """Relay a stored event to the other processes (in order, without waiting)."""
        self._outbox.put_nowait((self._room_channel(room), f"{seq} {text}"))

    async def _send(self) -> None:
        while True:
            channel, message = await self._outbox.get()
            try:
                await self.redis.publish(channel, message)
            except Exception:
                log.exception("could not publish an event")

    async def follow(self, room: str, deliver: Callable[[int, str], None]) -> None:
        """Receive the room's events (seq, event message text) from its owner."""
        self._room_handlers[room] = deliver
        await self._pubsub.subscribe(self._room_channel(room))

    async def unfollow(self, room: str) -> None:
        """Stop receiving the room's events."""
        self._room_handlers.pop(room, None)
        with contextlib.suppress(Exception):
            await self._pubsub.unsubscribe(self._room_channel(room))

    async def _listen(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=1.0
                )
            except Exception:
                log.exception("Redis subscription failed")
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            channel, data = str(message["channel"]), str(message["data"])
            if channel.startswith("hc:room:"):
                deliver = self._room_handlers.get(channel.removeprefix("hc:room:"))
                seq, _, text = data.partition(" ")
                if deliver is not None:
                    deliver(int(seq), text)
                continue
            body = json.loads(data)
            if body.get("kind") == "reply":
                future = self._replies.get(int(body["rid"]))
                if future is not None and not future.done():
                    future.set_result(body)
            elif body.get("kind") == "request":
                asyncio.get_running_loop().create_task(self._answer(body))

    async def _answer(self, body: dict[str, Any]) -> None:
        assert self._handler is not None
        try:
            reply = await self._handler(body)
        except Exception as err:
            log.exception("request failed")
            reply = {"error": {"code": "internal", "en": str(err), "ja": str(err)}}
        message = json.dumps({"kind": "reply", "rid": body["rid"], **reply})
        with contextlib.suppress(Exception):
            await self.redis.publish(self._inbox(str(body["from"])), message)
