"""A room another server process owns, as this process serves it to its own clients.

Every client message is forwarded to the owner (:meth:`Cluster.request`); its events come back on
the room's channel and are relayed to each client in order, exactly once: an event already sent
is skipped, and a gap (a message lost by Redis, or events stored while a client was joining) is
filled from the store, where every event is written before it is published. The owner's
unnumbered messages (presence, an analysis's progress) come on the same channel, counted apart:
each goes once to every client whose snapshot is older than it. When the owner stops answering,
the clients are disconnected with :attr:`CloseCode.ROOM_MOVED`; they reconnect and the room is
taken over.

The owner counts the clients relayed here in the room's presence: each is registered by its hello
(with a number this process gives it) and removed when it leaves (:class:`Farewells`), or all at
once when this process stops.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from typing import Any

from hikone_carrom.server.cluster.cluster import Cluster, ClusterUnavailable, OwnerGone
from hikone_carrom.server.core import wire
from hikone_carrom.server.core.errors import (
    CloseCode,
    DuplicateAction,
    RoomError,
    cluster_unavailable,
    room_moved,
)
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.rooms.room import RoomSubscriber
from hikone_carrom.server.rooms.schemas import ClientMessage, HintRequest
from hikone_carrom.server.storage import GameStore

__all__ = ["ACT_TIMEOUT_S", "HINT_TIMEOUT_S", "Farewells", "RemoteRoom", "event_text"]

log = logging.getLogger(__name__)

ACT_TIMEOUT_S = 20.0
"""How long (s) a forwarded action may take before its owner counts as gone."""

HINT_TIMEOUT_S = 180.0
"""How long (s) a forwarded hint request may take (thinking may queue)."""


_client_numbers = itertools.count(1)
"""This process's numbers for the clients it relays (unique for the process's life)."""

_Relayed = tuple[bool, int, str]
"""What came on a room's channel: (numbered, its number, message text)."""


def event_text(seq: int, payload: dict[str, Any]) -> str:
    """The ``event`` message of a stored event."""
    return wire.dumps({"type": "event", "seq": seq, "event": payload})


class Farewells:
    """Tells owners that clients relayed by this process left, so that their seats go offline.
    A farewell Redis did not take is tried again at the next :meth:`retry`; one whose owner
    stopped is dropped (that owner's presence went with it)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.pending: set[tuple[str, str, int]] = set()
        """(room key, owner, client number) not told yet."""
        self._flying: dict[tuple[str, str, int], asyncio.Task[None]] = {}

    def add(self, key: str, owner: str, client: int) -> None:
        """Client ``client`` of ``key`` left: tell ``owner`` (now, and again until told)."""
        self.pending.add((key, owner, client))
        self._send((key, owner, client))

    def retry(self) -> None:
        """Tell again what could not be told."""
        for item in list(self.pending):
            self._send(item)

    def _send(self, item: tuple[str, str, int]) -> None:
        if item not in self._flying:
            task = asyncio.get_running_loop().create_task(self._tell(item))
            self._flying[item] = task
            task.add_done_callback(lambda _: self._flying.pop(item, None))

    async def _tell(self, item: tuple[str, str, int]) -> None:
        key, owner, client = item
        body = {"key": key, "op": "leave", "client": client}
        try:
            await self.cluster.request(owner, body, timeout_s=ACT_TIMEOUT_S)
        except ClusterUnavailable:
            return  # told again at the next retry
        except OwnerGone:
            pass
        self.pending.discard(item)

    async def close(self) -> None:
        """Stop telling (this process stops: the owners drop all its clients)."""
        for task in list(self._flying.values()):
            task.cancel()
        self.pending.clear()


class RemoteRoom:
    """Clients of this process in a room owned by process ``owner``."""

    def __init__(
        self,
        room_id: str,
        owner: str,
        cluster: Cluster,
        store: GameStore,
        runner: Runner,
        farewells: Farewells,
    ) -> None:
        self.id = room_id
        self.key = f"room:{room_id}"
        self.owner = owner
        self.cluster = cluster
        self.store = store
        self.runner = runner
        self.subscribers: set[RoomSubscriber] = set()
        self.seq = 0
        self.stale = False
        self.holders = 0
        self.last_active = time.monotonic()
        self.farewells = farewells
        self._sent: dict[RoomSubscriber, int] = {}
        self._told: dict[RoomSubscriber, int] = {}
        self._numbers: dict[RoomSubscriber, int] = {}
        self._joining: dict[RoomSubscriber, list[_Relayed]] = {}
        self._filling: dict[RoomSubscriber, list[tuple[int, str]]] = {}
        self._following = False
        self._tasks: set[asyncio.Task[None]] = set()

    # -- forwarding ---------------------------------------------------------------------------

    async def _ask(self, body: dict[str, Any], timeout_s: float = ACT_TIMEOUT_S) -> dict[str, Any]:
        if self.stale:
            raise room_moved()
        try:
            reply = await self.cluster.request(
                self.owner, {"key": self.key, **body}, timeout_s=timeout_s
            )
        except OwnerGone as err:
            log.info("room %s: owner %s gone: %s", self.id, self.owner, err)
            self.go_stale()
            raise room_moved() from err
        except ClusterUnavailable as err:
            self.go_stale(CloseCode.UNAVAILABLE)
            raise cluster_unavailable() from err
        if "duplicate" in reply:
            dup = reply["duplicate"]
            raise DuplicateAction(str(dup["id"]), int(dup["seq"]))
        if "error" in reply:
            e = reply["error"]
            if e.get("code") == "room_moved":
                self.go_stale()
            raise RoomError(
                str(e.get("code")),
                str(e.get("en")),
                str(e.get("ja")),
                rule=e.get("rule"),
                status=int(e.get("status", 409)),
            )
        return reply

    async def join(self, sub: RoomSubscriber, token: str | None) -> None:
        """Say hello for ``sub`` (the owner counts its seats as online): its seats and a
        snapshot from the owner, then every event and every later unnumbered message."""
        await self._follow()
        number = self._numbers.setdefault(sub, next(_client_numbers))
        self._joining[sub] = []
        try:
            reply = await self._ask({"op": "hello", "token": token, "client": number})
        except BaseException:
            self._joining.pop(sub, None)
            if sub not in self.subscribers:  # the owner may have counted it all the same
                self._numbers.pop(sub, None)
                self.farewells.add(self.key, self.owner, number)
            raise
        if sub not in self._joining:  # it left meanwhile
            self.farewells.add(self.key, self.owner, number)
            return
        snapshot = reply["snapshot"]
        sub.seats = frozenset(int(s) for s in reply["seats"])
        sub.send(wire.dumps(snapshot))
        self._sent[sub] = int(snapshot["seq"])
        self._told[sub] = max(self._told.get(sub, 0), int(reply["told"]))
        self.seq = max(self.seq, int(snapshot["seq"]))
        waiting = self._joining.pop(sub, [])
        self.subscribers.add(sub)
        self.last_active = time.monotonic()
        for item in waiting:
            self._pass(sub, item)

    async def resync(self, sub: RoomSubscriber) -> None:
        """Send ``sub`` a fresh snapshot (it saw a gap)."""
        reply = await self._ask({"op": "view", "seats": sorted(sub.seats)})
        snapshot = reply["snapshot"]
        sub.send(wire.dumps(snapshot))
        self._sent[sub] = max(self._sent.get(sub, 0), int(snapshot["seq"]))
        self._told[sub] = max(self._told.get(sub, 0), int(reply["told"]))

    async def view(self, seats: frozenset[int]) -> dict[str, Any]:
        """The room as a client holding ``seats`` sees it now (from the owner)."""
        snapshot: dict[str, Any] = (await self._ask({"op": "view", "seats": sorted(seats)}))[
            "snapshot"
        ]
        return snapshot

    async def analyse(self, game_id: str) -> dict[str, Any]:
        """Have the owner analyse one of the room's finished games (its progress comes back as
        unnumbered messages); returns the analysis's status now."""
        answer: dict[str, Any] = (await self._ask({"op": "analyse", "game_id": game_id}))["answer"]
        return answer

    async def act(self, seats: frozenset[int], msg: ClientMessage) -> dict[str, Any] | None:
        """Forward one client action to the owner; returns the answer for that client."""
        timeout = HINT_TIMEOUT_S if isinstance(msg, HintRequest) else ACT_TIMEOUT_S
        body = {"op": "act", "seats": sorted(seats), "message": msg.model_dump(mode="json")}
        answer: dict[str, Any] | None = (await self._ask(body, timeout))["answer"]
        return answer

    async def take_seat(self, seat: int, name: str, reservation: str | None = None) -> str:
        """Take an open seat (at the owner); returns the seat token."""
        body = {"op": "take_seat", "seat": seat, "name": name, "reservation": reservation}
        reply = await self._ask(body)
        return str(reply["token"])

    # -- relaying -----------------------------------------------------------------------------

    async def _follow(self) -> None:
        if not self._following:
            self._following = True
            try:
                await self.cluster.follow(self.key, self.deliver, self.note)
            except ClusterUnavailable as err:
                self._following = False
                self.go_stale(CloseCode.UNAVAILABLE)
                raise cluster_unavailable() from err

    def deliver(self, seq: int, text: str) -> None:
        """An event from the owner: to every client, in order, once."""
        self.seq = max(self.seq, seq)
        for waiting in self._joining.values():
            waiting.append((True, seq, text))
        for sub in list(self.subscribers):
            self._offer(sub, seq, text)

    def note(self, n: int, text: str) -> None:
        """The owner's ``n``-th unnumbered message: to every client that has not seen it."""
        for waiting in self._joining.values():
            waiting.append((False, n, text))
        for sub in list(self.subscribers):
            self._note(sub, n, text)

    def _note(self, sub: RoomSubscriber, n: int, text: str) -> None:
        if n > self._told.get(sub, 0):
            sub.send(text)
            self._told[sub] = n

    def _pass(self, sub: RoomSubscriber, item: _Relayed) -> None:
        numbered, number, text = item
        if numbered:
            self._offer(sub, number, text)
        else:
            self._note(sub, number, text)

    def _offer(self, sub: RoomSubscriber, seq: int, text: str) -> None:
        if sub in self._filling:
            self._filling[sub].append((seq, text))
            return
        last = self._sent.get(sub, 0)
        if seq <= last:
            return
        if seq == last + 1:
            sub.send(text)
            self._sent[sub] = seq
            return
        self._filling[sub] = [(seq, text)]
        task = asyncio.get_running_loop().create_task(self._fill(sub))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fill(self, sub: RoomSubscriber) -> None:
        """Send ``sub`` the events it missed, from the store, then what came meanwhile."""
        last = self._sent.get(sub)
        if last is None:
            return  # it left meanwhile
        try:
            events = await self.runner.store(self.store.events_after, self.id, last)
        except Exception:
            log.exception("room %s: cannot fill a gap from the store", self.id)
            self._filling.pop(sub, None)
            sub.drop(CloseCode.UNAVAILABLE)
            return
        if sub not in self._filling:
            return  # it left meanwhile
        for ev in events:
            if ev.seq == self._sent[sub] + 1:
                sub.send(event_text(ev.seq, ev.payload))
                self._sent[sub] = ev.seq
        later = self._filling.pop(sub, [])
        for seq, text in later:
            self._offer(sub, seq, text)

    def attach(self, sub: RoomSubscriber) -> None:
        """Clients are attached by :meth:`join`."""
        self.subscribers.add(sub)

    def detach(self, sub: RoomSubscriber) -> None:
        """``sub`` left (the owner is told, once it has counted it)."""
        number = self._numbers.pop(sub, None)
        if number is not None and sub in self.subscribers:
            self.farewells.add(self.key, self.owner, number)
        self.subscribers.discard(sub)
        self._sent.pop(sub, None)
        self._told.pop(sub, None)
        self._joining.pop(sub, None)
        self._filling.pop(sub, None)
        self.last_active = time.monotonic()

    def go_stale(self, code: int = CloseCode.ROOM_MOVED) -> None:
        """The owner is gone (or cannot be reached): disconnect this process's clients with
        ``code`` (they reconnect, and the room is taken over or reached again)."""
        if self.stale:
            return
        self.stale = True
        for sub in list(self.subscribers) + list(self._joining):
            sub.drop(code)

    def idle_for(self, now: float) -> float:
        """How long (s) no client of this process has been in the room."""
        if self.subscribers or self.holders or self._joining:
            return 0.0
        return max(0.0, now - self.last_active)

    async def close(self) -> None:
        """Stop relaying."""
        self.stale = True
        for task in list(self._tasks):
            task.cancel()
        if self._following:
            self._following = False
            await self.cluster.unfollow(self.key)
