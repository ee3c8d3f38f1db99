"""Several server processes, one store, one Redis: who owns what, and how processes talk.

What is owned is named by a key, ``kind:id``: ``room:...`` (a game room), ``board:...`` (a
scoring pad's board), ``event:...`` (a tournament). The same mechanism serves them all:

* **Ownership.** One process at a time owns a key: the one holding its lease, the Redis key
  ``hc:owner:{key}`` set with ``SET NX PX`` and renewed every third of ``lease_s``. A lease that
  ran out while nobody else took it is taken again at the next renewal. Taking a key over is safe
  whatever the previous owner still believes: every write of the store is fenced (a room's epoch,
  a board's or a tournament's change number), so a previous owner that did not notice can no
  longer write; it drops its copy and disconnects its clients.
* **Liveness.** Each process listens on the channel ``hc:to:{process}``. When a process stops or
  is killed its connections close at once (the kernel closes a killed process's sockets), Redis
  counts no listener on that channel (:meth:`Cluster.stopped`): its leases are taken over at once
  (:meth:`Cluster.acquire`), without waiting for them to run out, and the owners of the rooms it
  relayed drop its clients from their presence. A machine that vanishes without closing its
  connections loses its leases when they run out (``lease_s``), and counts as stopped once Redis
  drops its connections (Redis's ``tcp-keepalive``). Liveness is not a heartbeat key: Redis
  busy refusing writes for longer than a lease must not make a live process look stopped.
* **Messages.** Requests from other processes (a client's message for a key this process owns)
  and their replies travel on ``hc:to:{process}``; an owner publishes each stored event of a key
  on ``hc:ev:{key}`` (``"{seq} {text}"``), and each unnumbered message (presence, an analysis's
  progress) on the same channel, counted apart (``"u{n} {text}"``), for the processes relaying
  the key to their own clients.
* **Redis unavailable.** Every call raises :class:`ClusterUnavailable`. An owner keeps serving
  what it owns (the store still fences every write), nobody can take anything over (nor for a
  lease's time after Redis is back, while the owners set their leases again), and
  :attr:`Cluster.outage_listeners` are told once so that clients served through another process are
  disconnected (they reconnect, and are served again once Redis is back).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from redis.exceptions import RedisError

from hikone_carrom.server.core import wire

__all__ = ["Cluster", "ClusterUnavailable", "OwnerGone"]

log = logging.getLogger(__name__)

_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not holder then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    lost[#lost + 1] = key
  end
end
return lost
"""
"""Renew this process's leases (taking again one that ran out unclaimed); returns the keys
another process holds now."""

_STEAL = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""
"""Move a lease from a stopped process to this one (only if that process still holds it)."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]

CALL_TIMEOUT_S = 3.0
"""How long (s) one Redis call may take before Redis counts as unavailable."""

CONNECTIONS = 100
"""Redis calls of one process at once, each on its own connection; more wait for their turn
(every call ends within :data:`CALL_TIMEOUT_S`): a busy process is not an unavailable Redis."""


PUBLISH_RETRY_S = 0.5
"""Pause (s) before publishing again a message Redis did not take."""

SEND_BATCH = 200
"""Most messages published in one pipeline."""

KEPT_S = 86400.0
"""How long (s) Redis keeps what an owner last noted for the next owner (:meth:`Cluster.keep`)."""

REPLY_TRIES_S = 30.0
"""How long (s) a reply Redis did not take is tried again (longer than a process waits for
the answer to an action)."""


class OwnerGone(Exception):
    """The process that owned a key did not answer: it stopped, or gave the key up."""


class ClusterUnavailable(Exception):
    """Redis cannot be reached: nothing can be taken over or forwarded now."""


class Cluster:
    """This process among the others: leases, requests to owners, relayed events."""

    def __init__(self, url: str, *, lease_s: float = 4.0, node: str | None = None) -> None:
        import redis.asyncio

        self.url = url
        self.node = node or secrets.token_hex(6)
        self.lease_ms = max(300, round(lease_s * 1000))
        self.redis = redis.asyncio.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=CALL_TIMEOUT_S,
            socket_connect_timeout=CALL_TIMEOUT_S,
            max_connections=CONNECTIONS + 1,  # and the subscription's
        )
        self._slots = asyncio.Semaphore(CONNECTIONS)
        self.owned: set[str] = set()
        self.healthy = True
        """False from a failed call to Redis until the next renewal that succeeds."""
        self._pubsub = self.redis.pubsub()
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._followers: dict[
            str, tuple[Callable[[int, str], None], Callable[[int, str], None]]
        ] = {}
        self._outbox: asyncio.Queue[tuple[str, str, bool]] = asyncio.Queue()
        """(channel, message, False) to publish, (key, value, True) to keep, in order."""
        self._tasks: list[asyncio.Task[None]] = []
        self._handlers: dict[str, Handler] = {}
        self._lost: dict[str, Callable[[str], None]] = {}
        self.watchers: list[Callable[[], Awaitable[None]]] = []
        """Called after every renewal (each checks the owners of what it relays)."""
        self.outage_listeners: list[Callable[[], None]] = []
        """Told once when Redis becomes unavailable."""
        self._answering: set[asyncio.Task[None]] = set()
        self._renew_lua = self.redis.register_script(_RENEW)
        self._steal_lua = self.redis.register_script(_STEAL)
        self._release_lua = self.redis.register_script(_RELEASE)

    # -- life -------------------------------------------------------------------------------

    def serve(self, kind: str, answer: Handler, lost: Callable[[str], None]) -> None:
        """Have ``answer`` serve the requests for keys ``kind:...`` this process owns, and
        ``lost(id)`` told when another process took such a key over."""
        self._handlers[kind] = answer
        self._lost[kind] = lost

    async def start(self) -> None:
        """Listen for requests and keep the leases."""
        await self._call(self._pubsub.subscribe(self._inbox(self.node)))
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._renew()),
            loop.create_task(self._send()),
        ]

    async def close(self) -> None:
        """Give up every lease (other processes take the keys at once) and stop."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            for key in list(self.owned):
                await self.release(key)
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _call(self, call: Awaitable[Any]) -> Any:
        """One Redis call; a failure becomes :class:`ClusterUnavailable` and an outage."""
        try:
            async with self._slots:
                return await call
        except (RedisError, OSError, TimeoutError) as err:
            self._outage(err)
            raise ClusterUnavailable(str(err) or type(err).__name__) from err
        finally:
            if inspect.iscoroutine(call):
                call.close()  # cancelled while waiting for a connection: never started

    def _outage(self, err: BaseException, *, messages_lost: bool = False) -> None:
        """Redis failed a call: the listeners are told once per outage, and again whenever
        the subscription broke (``messages_lost``: what was published to this process
        meanwhile is gone, so clients relayed since the outage began must resync too)."""
        tell = self.healthy or messages_lost
        if self.healthy:
            self.healthy = False
            log.warning("Redis is unavailable (%s): serving only what this process owns", err)
        if tell:
            for listener in list(self.outage_listeners):
                listener()

    # -- leases -----------------------------------------------------------------------------

    @staticmethod
    def _lease(key: str) -> str:
        return f"hc:owner:{key}"

    @staticmethod
    def _inbox(node: str) -> str:
        return f"hc:to:{node}"

    @staticmethod
    def _channel(key: str) -> str:
        return f"hc:ev:{key}"

    async def acquire(self, key: str) -> bool:
        """Take the key's lease if it is free, already ours, or held by a process that stopped.

        Raises:
            ClusterUnavailable: Redis cannot be reached.
        """
        lease = self._lease(key)
        for _ in range(3):
            holder = await self._call(self.redis.get(lease))
            if holder == self.node:
                self.owned.add(key)
                return True
            if holder is not None and not await self.gone(str(holder)):
                return False
            if await self._restarted_recently():
                raise ClusterUnavailable("Redis restarted moments ago; owners renew first")
            if holder is None:
                if await self._call(self.redis.set(lease, self.node, nx=True, px=self.lease_ms)):
                    self.owned.add(key)
                    return True
                continue  # taken between the two calls: look again
            if await self._call(
                self._steal_lua(keys=[lease], args=[holder, self.node, self.lease_ms])
            ):
                log.info("took %s over from stopped process %s", key, holder)
                self.owned.add(key)
                return True
        return False

    async def _restarted_recently(self) -> bool:
        """Whether Redis started less than a lease ago: it forgot every lease (it keeps nothing
        on disk), and the owners set theirs again at their next renewal, so a free lease is
        not taken meanwhile."""
        info = await self._call(self.redis.info("server"))
        return int(info.get("uptime_in_seconds", 0)) <= self.lease_ms / 1000.0

    async def claim_new(self, key: str) -> None:
        """Own a key nobody else can know yet (a new room, board or tournament): its lease is
        set now, or at the next renewal if Redis is unavailable."""
        self.owned.add(key)
        with contextlib.suppress(ClusterUnavailable):
            await self._call(self.redis.set(self._lease(key), self.node, nx=True, px=self.lease_ms))

    async def owner(self, key: str) -> str | None:
        """The process holding the key's lease, or None."""
        holder = await self._call(self.redis.get(self._lease(key)))
        return None if holder is None else str(holder)

    async def owners(self, keys: Iterable[str]) -> dict[str, str | None]:
        """The processes holding the leases of ``keys`` (one call)."""
        keys = list(keys)
        if not keys:
            return {}
        holders = await self._call(self.redis.mget([self._lease(k) for k in keys]))
        return {k: None if h is None else str(h) for k, h in zip(keys, holders, strict=True)}

    async def gone(self, node: str) -> bool:
        """Whether a process stopped: nobody listens on its channel any more."""
        return node in await self.stopped([node])

    async def stopped(self, nodes: Iterable[str]) -> set[str]:
        """Which of ``nodes`` stopped: nobody listens on their channels (one call)."""
        names = sorted(set(nodes))
        if not names:
            return set()
        counts = await self._call(self.redis.pubsub_numsub(*(self._inbox(n) for n in names)))
        listening = {str(channel).removeprefix("hc:to:") for channel, n in counts if int(n) > 0}
        return {n for n in names if n not in listening}

    async def release(self, key: str) -> None:
        """Give the key's lease up (only if it is still ours)."""
        self.owned.discard(key)
        await self._call(self._release_lua(keys=[self._lease(key)], args=[self.node]))

    async def _renew(self) -> None:
        every = self.lease_ms / 3000.0
        while True:
            await asyncio.sleep(every)
            try:
                keys = list(self.owned)
                if keys:
                    leases = [self._lease(k) for k in keys]
                    lost = await self._call(
                        self._renew_lua(keys=leases, args=[self.node, self.lease_ms])
                    )
                    for lease in lost:
                        self._lose(str(lease).removeprefix("hc:owner:"))
                else:
                    await self._call(self.redis.ping())
                if not self.healthy:
                    log.warning("Redis is back")
                    self.healthy = True
                for watcher in list(self.watchers):
                    await watcher()
            except ClusterUnavailable:
                pass
            except Exception:
                log.exception("lease renewal failed")

    def _lose(self, key: str) -> None:
        if key in self.owned:
            self.owned.discard(key)
            log.warning("another process took %s over", key)
            kind, _, ident = key.partition(":")
            lost = self._lost.get(kind)
            if lost is not None:
                lost(ident)

    # -- messages ---------------------------------------------------------------------------

    async def request(self, node: str, body: dict[str, Any], *, timeout_s: float) -> dict[str, Any]:
        """Send a request to another process and wait for its reply.

        Raises:
            OwnerGone: nobody listens for that process, or it did not answer in ``timeout_s``.
            ClusterUnavailable: Redis cannot be reached.
        """
        rid = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[rid] = future
        try:
            message = wire.dumps({"kind": "request", "from": self.node, "rid": rid, **body})
            if not await self._call(self.redis.publish(self._inbox(node), message)):
                raise OwnerGone(f"process {node} is not listening")
            deadline = time.monotonic() + timeout_s
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(future), 1.0)
                except TimeoutError:
                    if await self.gone(node):
                        raise OwnerGone(f"process {node} stopped") from None
                    if time.monotonic() > deadline:
                        raise OwnerGone(f"process {node} did not answer") from None
        finally:
            self._replies.pop(rid, None)

    def publish_event(self, key: str, seq: int, text: str) -> None:
        """Relay a stored event of ``key`` to the other processes (in order, without waiting)."""
        self._outbox.put_nowait((self._channel(key), f"{seq} {text}", False))

    def publish_note(self, key: str, n: int, text: str) -> None:
        """Relay the ``n``-th unnumbered message of ``key`` to the other processes (in order
        with its events, without waiting)."""
        self._outbox.put_nowait((self._channel(key), f"u{n} {text}", False))

    def keep(self, key: str, text: str) -> None:
        """Keep ``text`` for whichever process owns ``key`` next (a room's last presence), for
        :data:`KEPT_S`, in order with what is published, without waiting."""
        self._outbox.put_nowait((f"hc:kept:{key}", text, True))

    async def kept(self, key: str) -> str | None:
        """What the last owner of ``key`` kept for the next one, if anything."""
        value = await self._call(self.redis.get(f"hc:kept:{key}"))
        return None if value is None else str(value)

    async def _send(self) -> None:
        """Publish the stored events (and keep what is kept) in order, all those waiting in one
        pipeline (one round trip); what Redis refused is tried again until it gets through (a
        relaying process skips what it already sent), so that no relayed client waits behind
        an event that was stored but never relayed."""
        while True:
            batch = [await self._outbox.get()]
            while len(batch) < SEND_BATCH and not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            while True:
                pipe = self.redis.pipeline(transaction=False)
                for name, message, kept in batch:
                    if kept:
                        pipe.set(name, message, px=round(KEPT_S * 1000))
                    else:
                        pipe.publish(name, message)
                try:
                    await self._call(pipe.execute())
                    break
                except ClusterUnavailable:
                    await asyncio.sleep(PUBLISH_RETRY_S)

    async def follow(
        self, key: str, deliver: Callable[[int, str], None], note: Callable[[int, str], None]
    ) -> None:
        """Receive what its owner publishes for ``key``: each event (``deliver(seq, text)``)
        and each unnumbered message (``note(n, text)``)."""
        self._followers[key] = (deliver, note)
        await self._call(self._pubsub.subscribe(self._channel(key)))

    async def unfollow(self, key: str) -> None:
        """Stop receiving the key's events."""
        self._followers.pop(key, None)
        with contextlib.suppress(ClusterUnavailable):
            await self._call(self._pubsub.unsubscribe(self._channel(key)))

    async def _listen(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=1.0
                )
            except (RedisError, OSError, TimeoutError) as err:
                self._outage(err, messages_lost=True)
                await asyncio.sleep(0.5)
                continue
            except Exception:
                log.exception("the Redis subscription failed")
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            channel, data = str(message["channel"]), str(message["data"])
            if channel.startswith("hc:ev:"):
                follower = self._followers.get(channel.removeprefix("hc:ev:"))
                number, _, text = data.partition(" ")
                if follower is not None:
                    if number.startswith("u"):
                        follower[1](int(number[1:]), text)
                    else:
                        follower[0](int(number), text)
                continue
            body = wire.loads(data)
            if body.get("kind") == "reply":
                future = self._replies.get(int(body["rid"]))
                if future is not None and not future.done():
                    future.set_result(body)
            elif body.get("kind") == "request":
                task = asyncio.get_running_loop().create_task(self._answer(body))
                self._answering.add(task)
                task.add_done_callback(self._answering.discard)

    async def _answer(self, body: dict[str, Any]) -> None:
        kind = str(body.get("key", "")).partition(":")[0]
        handler = self._handlers.get(kind)
        try:
            if handler is None:
                raise ValueError(f"no handler for {body.get('key')!r}")
            reply = await handler(body)
        except Exception as err:
            log.exception("request failed")
            reply = {"error": {"code": "internal", "en": str(err), "ja": str(err), "status": 500}}
        message = wire.dumps({"kind": "reply", "rid": body["rid"], **reply})
        deadline = time.monotonic() + REPLY_TRIES_S
        while True:  # a reply lost would leave the asking process waiting for nothing
            try:
                await self._call(self.redis.publish(self._inbox(str(body["from"])), message))
                return
            except ClusterUnavailable:
                if time.monotonic() > deadline:
                    return
                await asyncio.sleep(PUBLISH_RETRY_S)
