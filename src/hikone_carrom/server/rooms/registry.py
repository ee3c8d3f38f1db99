"""All rooms of one server process: created on request, restored from the store on first use, and
evicted from memory when nobody has used them for a while (they are stored: the next use
rebuilds them).

With a :class:`~hikone_carrom.server.cluster.cluster.Cluster` (several processes,
``--redis``), a room is served here only while this process holds its lease; a room another
process owns is reached through a :class:`~hikone_carrom.server.cluster.relay.RemoteRoom`, and
this process answers the requests other processes forward for the rooms it owns, counting their
clients in the rooms' presence
until they leave or their process stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from hikone_carrom.board import BoardSpec
from hikone_carrom.server.cluster.cluster import Cluster, ClusterUnavailable
from hikone_carrom.server.cluster.relay import Farewells, RemoteRoom
from hikone_carrom.server.core import wire
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.errors import (
    CloseCode,
    DuplicateAction,
    RoomError,
    cluster_unavailable,
    room_moved,
)
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.rooms.analysis_jobs import AnalysisJobs
from hikone_carrom.server.rooms.presence import Relayed
from hikone_carrom.server.rooms.room import Room, RoomConfig, RoomServices
from hikone_carrom.server.rooms.schemas import CLIENT_MESSAGE, CreateRoom
from hikone_carrom.server.storage import GameStore, StoreError
from hikone_carrom.server.thinking.players import available_levels
from hikone_carrom.server.thinking.pool import ThinkingPool

__all__ = ["DEFAULT_LEVEL", "RoomRegistry", "ServedRoom"]

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "2"
"""The computer player a room gets when none is named."""

ServedRoom = Room | RemoteRoom
"""A room as this process serves it: owned here, or owned by another process."""


class RoomRegistry:
    """Finds a room by id: in memory, else rebuilt from the store (so a restart loses nothing);
    with a cluster, the room's owner is whoever holds its lease."""

    def __init__(
        self,
        store: GameStore,
        runner: Runner,
        thinker: ThinkingPool,
        settings: ServerSettings,
        board: BoardSpec,
        cluster: Cluster | None = None,
    ) -> None:
        self.store = store
        self.runner = runner
        self.settings = settings
        self.board = board
        self.cluster = cluster
        publish = tell = keep = None
        if cluster is not None:
            publish = lambda room, seq, text: cluster.publish_event(f"room:{room}", seq, text)  # noqa: E731
            tell = lambda room, n, text: cluster.publish_note(f"room:{room}", n, text)  # noqa: E731
            keep = lambda room, text: cluster.keep(f"room:{room}", text)  # noqa: E731
        self.services = RoomServices(
            store,
            runner,
            thinker,
            board,
            settings.ai_delay_s,
            publish=publish,
            tell=tell,
            keep=keep,
        )
        self.rooms: dict[str, Room] = {}
        """Rooms this process owns, in memory."""
        self.remote: dict[str, RemoteRoom] = {}
        """Rooms other processes own that this process has clients in."""
        self._loading: dict[str, asyncio.Lock] = {}
        self.farewells = None if cluster is None else Farewells(cluster)
        self.analyses = AnalysisJobs(store, runner, thinker)
        """Post-game analyses of this process (one at a time)."""
        if cluster is not None:
            cluster.serve("room", self.answer, self._lost)
            cluster.watchers.append(self._check_processes)
            cluster.outage_listeners.append(self._outage)

    async def create(self, request: CreateRoom, reserved: str | None = None) -> tuple[Room, str]:
        """A new room as asked; returns it with the creator's seat token (``reserved``: the
        secret its open seats are kept for, see :meth:`Room.create`)."""
        level = request.level
        if request.mode == "computer":
            levels = available_levels()
            if level is None:
                level = DEFAULT_LEVEL
            if level not in levels:
                raise RoomError(
                    "no_such_level",
                    f"No computer player {level!r}; choose one of {', '.join(levels)}",
                    f"コンピュータ {level!r} はありません。{'、'.join(levels)} から選んでください",
                    status=422,
                )
        else:
            level = None
        if request.names is not None:
            if request.mode != "hotseat":
                raise RoomError(
                    "names_hotseat",
                    "Player names are given on one device only; online players name themselves",
                    "名前の一覧は1台で対戦するときだけです。オンラインでは各自が名前を入れます",
                    status=422,
                )
            if len(request.names) != request.players:
                raise RoomError(
                    "names_count",
                    f"Give one name per player: {request.players} names",
                    f"名前はプレイヤーごとに1つ、{request.players}人分を入れてください",
                    status=422,
                )
        config = RoomConfig(
            id=secrets.token_urlsafe(6),
            mode=request.mode,
            players=request.players,
            ai_level=level,
            minutes=request.minutes,
            seed=secrets.randbelow(1 << 31),
            hints=request.hints_on(),
        )
        if self.cluster is not None:
            await self.cluster.claim_new(f"room:{config.id}")
        try:
            names = [n.strip() for n in request.names] if request.names else None
            room, token = await Room.create(config, request.name, self.services, names, reserved)
        except BaseException:
            if self.cluster is not None:
                with contextlib.suppress(ClusterUnavailable):
                    await self.cluster.release(f"room:{config.id}")
            raise
        self.rooms[config.id] = room
        return room, token

    async def get(self, room_id: str) -> ServedRoom:
        """The room with this id: owned here (restored from the store if needed), or, with a
        cluster, reached through the process that owns it."""
        room = self.rooms.get(room_id)
        if room is not None and not room.stale:
            return room
        async with self._loading.setdefault(room_id, asyncio.Lock()):
            return await self._find(room_id)

    async def local(self, room_id: str) -> Room:
        """The room, owned by this process (a room another process owns is refused with
        ``room_moved``)."""
        room = await self.get(room_id)
        if isinstance(room, RemoteRoom):
            raise room_moved()
        return room

    async def _find(self, room_id: str) -> ServedRoom:
        room = self.rooms.get(room_id)
        if room is not None and not room.stale:
            return room
        if room is not None:
            del self.rooms[room_id]
            await room.close()
        if self.cluster is None:
            return await self._restore(room_id)
        try:
            return await self._owned_or_remote(room_id, self.cluster)
        except ClusterUnavailable as err:
            log.warning("room %s: cannot find its owner: %s", room_id, err)
            raise cluster_unavailable() from err

    async def _owned_or_remote(self, room_id: str, cluster: Cluster) -> ServedRoom:
        """Take the room if nobody (alive) owns it, else reach it through its owner."""
        key = f"room:{room_id}"
        deadline = time.monotonic() + 2.5 * cluster.lease_ms / 1000.0
        while True:
            if await cluster.acquire(key):
                try:
                    return await self._restore(room_id)
                except BaseException:
                    with contextlib.suppress(ClusterUnavailable):
                        await cluster.release(key)
                    raise
            owner = await cluster.owner(key)
            if owner is not None and owner != cluster.node and not await cluster.gone(owner):
                remote = self.remote.get(room_id)
                if remote is None or remote.stale or remote.owner != owner:
                    if remote is not None:
                        await remote.close()
                    assert self.farewells is not None
                    remote = RemoteRoom(
                        room_id, owner, cluster, self.store, self.runner, self.farewells
                    )
                    self.remote[room_id] = remote
                return remote
            if time.monotonic() > deadline:
                raise cluster_unavailable()
            await asyncio.sleep(0.1)  # the lease changed hands meanwhile: look again

    async def _restore(self, room_id: str) -> Room:
        try:
            room = await Room.restore(room_id, self.services)
        except StoreError as err:
            raise RoomError(
                "no_room", "This room does not exist", "この部屋はありません", status=404
            ) from err
        if self.cluster is not None:
            with contextlib.suppress(ClusterUnavailable):
                kept = await self.cluster.kept(f"room:{room_id}")
                if kept is not None:
                    room.presence.resume(wire.loads(kept))
        self.rooms[room_id] = room
        return room

    @asynccontextmanager
    async def use(self, room_id: str) -> AsyncIterator[ServedRoom]:
        """The room, kept in memory while the caller uses it."""
        room = await self.get(room_id)
        room.holders += 1
        try:
            yield room
        finally:
            room.holders -= 1
            room.last_active = time.monotonic()

    async def evict_idle(self) -> list[str]:
        """Drop from memory every room unused for ``room_idle_s``; returns their ids."""
        now = time.monotonic()
        idle = self.settings.room_idle_s
        gone = [rid for rid, room in self.rooms.items() if room.idle_for(now) >= idle]
        for rid in gone:
            room = self.rooms.pop(rid)
            await room.close()
            if self.cluster is not None:
                with contextlib.suppress(ClusterUnavailable):
                    await self.cluster.release(f"room:{rid}")
        for rid in [rid for rid, r in self.remote.items() if r.idle_for(now) >= idle]:
            await self.remote.pop(rid).close()
        for rid in list(self._loading):
            if rid not in self.rooms and rid not in self.remote and not self._loading[rid].locked():
                del self._loading[rid]
        if gone:
            log.info("evicted %d idle rooms, %d left in memory", len(gone), len(self.rooms))
        return gone

    async def sweep(self) -> None:
        """Evict idle rooms for as long as the server runs."""
        every = min(30.0, max(0.05, self.settings.room_idle_s / 4))
        while True:
            await asyncio.sleep(every)
            await self.evict_idle()

    # -- several processes -----------------------------------------------------------------

    def _lost(self, room_id: str) -> None:
        """This process lost a room's lease: its copy must not serve anyone any more."""
        room = self.rooms.get(room_id)
        if room is not None:
            room.stale = True
            room.drop_everyone()

    async def _check_processes(self) -> None:
        """After every lease renewal: disconnect the clients of rooms whose owner stopped or
        gave them up (they reconnect, and the room is taken over); in the rooms owned here, the
        seats held only by clients of processes that stopped go offline; farewells that could
        not be told are told again."""
        assert self.cluster is not None and self.farewells is not None
        self.farewells.retry()
        watched = [r for r in self.remote.values() if r.subscribers and not r.stale]
        relaying = {r.id: {c.node for c in r.presence.relayed()} for r in self.rooms.values()}
        nodes = {r.owner for r in watched}.union(*relaying.values())
        if not nodes:
            return
        owners = await self.cluster.owners(f"room:{r.id}" for r in watched)
        stopped = await self.cluster.stopped(nodes)
        for remote in watched:
            if owners[f"room:{remote.id}"] != remote.owner or remote.owner in stopped:
                remote.go_stale()
        for room_id, relays in relaying.items():
            room = self.rooms.get(room_id)
            if room is not None and relays & stopped:
                room.forget_nodes(relays & stopped)

    def _outage(self) -> None:
        """Redis is unavailable: clients of rooms other processes own cannot be served (they
        reconnect and are served again once it is back); rooms owned here go on."""
        for remote in list(self.remote.values()):
            remote.go_stale(CloseCode.UNAVAILABLE)

    async def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        """Serve a request another process forwarded for a room this process owns."""
        room_id = str(body["key"]).removeprefix("room:")
        room = self.rooms.get(room_id)
        cluster = self.cluster
        if room is None and cluster is not None and f"room:{room_id}" in cluster.owned:
            room = await self._restore(room_id)
        if room is None or room.stale:
            return {"error": {**room_moved().detail(), "status": 409}}
        room.holders += 1
        try:
            op = body["op"]
            client = Relayed(str(body["from"]), int(body.get("client", 0)))
            if op == "hello":
                seats, told = room.join_relayed(client, body.get("token"))
                return {"seats": sorted(seats), "snapshot": room.snapshot(seats), "told": told}
            if op == "leave":
                room.leave_relayed(client)
                return {}
            if op == "view":
                seats = frozenset(int(s) for s in body["seats"])
                return {"snapshot": room.snapshot(seats), "told": room.told}
            if op == "analyse":
                return {"answer": await self.analyse(room, str(body["game_id"]))}
            if op == "take_seat":
                held = body.get("reservation")
                token = await room.take_seat(
                    int(body["seat"]), str(body["name"]), None if held is None else str(held)
                )
                return {"token": token}
            if op == "act":
                msg = CLIENT_MESSAGE.validate_python(body["message"])
                seats = frozenset(int(s) for s in body["seats"])
                return {"answer": await room.act(seats, msg)}
            raise ValueError(f"unknown request {op!r}")
        except DuplicateAction as dup:
            return {"duplicate": {"id": dup.action_id, "seq": dup.seq}}
        except RoomError as err:
            return {"error": {**err.detail(), "status": err.status}}
        finally:
            room.holders -= 1
            room.last_active = time.monotonic()

    async def analyse(self, room: ServedRoom, game_id: str) -> dict[str, Any]:
        """Start the analysis of one of the room's finished games at the room's owner; its
        progress goes to every client of the room, whichever process serves it. Returns the
        analysis's status now."""
        if isinstance(room, RemoteRoom):
            return await room.analyse(game_id)
        room_id = room.id

        def tell(message: dict[str, Any]) -> None:
            owned = self.rooms.get(room_id)
            if owned is not None and not owned.stale:
                owned.broadcast(message)

        return await self.analyses.request(game_id, key=room_id, listener=tell)

    async def close(self) -> None:
        """Stop every room's tasks and every analysis."""
        await self.analyses.close()
        if self.farewells is not None:
            await self.farewells.close()
        for room in list(self.rooms.values()):
            await room.close()
        for remote in list(self.remote.values()):
            await remote.close()
        self.rooms.clear()
        self.remote.clear()
