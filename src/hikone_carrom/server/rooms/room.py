"""A room: one table, its seats, the match being played there, and everyone watching it.

One owner serializes each room: every change happens under the room's asyncio lock, the
simulation runs off the event loop, and every change becomes one numbered event that is stored
before it is broadcast. A change is kept only if its event is stored: on a store failure the room
returns exactly to where it was (the match is undone) and the client is told
``store_unavailable``. A client acts only for the seats its token holds; an action with an id
that was already played is not played again.

The :class:`Room` is that owner and the interface its clients use; each concern it carries is
a collaborator it owns, whose changes are the room's own (made under its lock through
:meth:`Room._act` and stored by :meth:`Room._commit`): its clients and presence
(:mod:`.room_audience`), shots (:mod:`.room_shots`), the match clock (:mod:`.room_clock`), the
computer's turns (:mod:`.room_computer`), hints (:mod:`.room_hints`), resignations, draws and
rematches (:mod:`.room_agreements`), chat (:mod:`.room_chat`), the checkpoint that undoes a
failed change (:mod:`.room_checkpoint`), the store (:mod:`.room_storage`) and what clients see
(:mod:`.room_views`). What a room is made of is in :mod:`.room_config`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import Any

from hikone_carrom.match import IllegalShotError, Match, Shot
from hikone_carrom.records import HintUse
from hikone_carrom.rules import RulesError
from hikone_carrom.server.core import wire
from hikone_carrom.server.core.errors import (
    DuplicateAction,
    RoomError,
    room_moved,
    store_unavailable,
)
from hikone_carrom.server.rooms.chat import ChatLog
from hikone_carrom.server.rooms.hints import HintBook
from hikone_carrom.server.rooms.presence import Presence, Relayed
from hikone_carrom.server.rooms.room_agreements import RoomAgreements
from hikone_carrom.server.rooms.room_audience import RoomAudience
from hikone_carrom.server.rooms.room_chat import say
from hikone_carrom.server.rooms.room_checkpoint import Checkpoint
from hikone_carrom.server.rooms.room_clock import ResumableTime, RoomClock
from hikone_carrom.server.rooms.room_computer import ComputerTurns
from hikone_carrom.server.rooms.room_config import (
    ACTION_KINDS,
    ACTION_MEMORY,
    LOG_KINDS,
    LOG_SHOWN,
    RoomConfig,
    RoomServices,
    RoomSubscriber,
    Seat,
    first_seats,
    game_options,
    log_entry,
)
from hikone_carrom.server.rooms.room_hints import RoomHints
from hikone_carrom.server.rooms.room_shots import RoomShots
from hikone_carrom.server.rooms.room_storage import (
    claim,
    game_record,
    resume,
    store_event,
    store_new,
)
from hikone_carrom.server.rooms.room_views import players_info, room_view, snapshot
from hikone_carrom.server.rooms.room_withdrawn import check_not_withdrawn
from hikone_carrom.server.rooms.schemas import (
    ChatMessage,
    ClientMessage,
    DrawMessage,
    HintRequest,
    Rematch,
    Resign,
    ShotMessage,
)
from hikone_carrom.server.rooms.views import state_view
from hikone_carrom.server.rooms.votes import Votes
from hikone_carrom.server.storage import (
    StoredGame,
    StoreFenced,
    StoreUnavailable,
    hash_token,
)

__all__ = [
    "ACTION_KINDS",
    "LOG_KINDS",
    "Room",
    "RoomConfig",
    "RoomServices",
    "RoomSubscriber",
    "Seat",
    "game_options",
]

log = logging.getLogger(__name__)

_NO_STATE = ("chat", "hint")
"""Event kinds that change nothing of the game: they carry no state."""


class Room:
    """The owner of one room. Create with :meth:`create` or :meth:`restore`."""

    def __init__(self, config: RoomConfig, seats: list[Seat], services: RoomServices) -> None:
        self.config = config
        self.seats = seats
        self.services = services
        self.store = services.store
        self.runner = services.runner
        self.board = services.board
        self.lock = asyncio.Lock()
        self.seq = 0
        self.match = Match(config.players, config.options(), self.board, seed=config.seed)
        self.game_id = ""
        self.game_number = 0
        self.log: deque[dict[str, Any]] = deque(maxlen=LOG_SHOWN)
        """The last rulings of the room (a snapshot shows them)."""
        self.timer = RoomClock(self)
        self.computer = ComputerTurns(self)
        self.expert = RoomHints(self)
        self.agreements = RoomAgreements(self)
        self.shots = RoomShots(self)
        self.audience = RoomAudience(self)
        self._state: dict[str, Any] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.chat = ChatLog()
        self.action_ids: OrderedDict[str, int] = OrderedDict()
        self.epoch = 0
        self.closed = False
        self.stale = False
        self.withdrawn: dict[str, str] | None = None
        """Who withdrew the championship call this room served (ja, en), or None
        (:mod:`.room_withdrawn`)."""
        self.holders = 0
        """Requests and connections using the room now (it is not evicted while used)."""
        self.last_active = time.monotonic()

    @property
    def id(self) -> str:
        """The room's id."""
        return self.config.id

    @property
    def subscribers(self) -> set[RoomSubscriber]:
        """The clients this process serves for the room."""
        return self.audience.subscribers

    @property
    def presence(self) -> Presence:
        """Which seats are online."""
        return self.audience.presence

    @property
    def told(self) -> int:
        """Unnumbered messages sent so far (see :class:`~.room_audience.RoomAudience`)."""
        return self.audience.told

    @property
    def _time(self) -> ResumableTime:
        """The clock's time source (tests move time with its ``shift``)."""
        return self.timer.time

    @property
    def _turn_ready_at(self) -> float | None:
        """When the shooter's time starts (monotonic s), while the last shot still rolls."""
        return self.timer.turn_ready_at

    @property
    def hint_book(self) -> HintBook:
        """The hints computed in this room."""
        return self.expert.book

    @property
    def hints_used(self) -> list[HintUse]:
        """The hints used in the current game (for its record)."""
        return self.expert.used

    # -- creation ---------------------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        config: RoomConfig,
        creator_name: str,
        services: RoomServices,
        names: list[str] | None = None,
        reserved: str | None = None,
    ) -> tuple[Room, str]:
        """A new room with its first match; returns the room and the creator's seat token.
        ``names`` name the players of a hot-seat room, seat by seat; with ``reserved`` (a
        secret) every open seat is kept for whoever holds it (a championship's players)."""
        token = secrets.token_urlsafe(18)
        seats = first_seats(config, creator_name, hash_token(token), names)
        if reserved is not None:
            held = hash_token(reserved)
            seats = [Seat(s.seat, s.kind, s.name, held) if s.kind == "open" else s for s in seats]
        room = cls(config, seats, services)
        await store_new(room, room._start_game(0))
        room._refresh_state()
        room._after_change()
        return room, token

    @classmethod
    async def restore(cls, room_id: str, services: RoomServices) -> Room:
        """Rebuild a stored room exactly: its seats, and its current match by replaying every
        stored action of it (the same seed and inputs give the same rulings)."""
        stored = await claim(services, room_id)
        seats = [Seat(s.seat, s.kind, s.name, s.token_hash) for s in stored.seats]
        room = cls(RoomConfig.of_stored(stored), seats, services)
        await resume(room, stored)
        room._refresh_state()
        room._after_change()
        return room

    # -- state ------------------------------------------------------------------------------

    @property
    def waiting(self) -> bool:
        """True while an online room still has open seats: no shot may be played."""
        return any(s.kind == "open" for s in self.seats)

    def _refresh_state(self) -> None:
        self._state = state_view(self.match, waiting=self.waiting, clock=self.timer.view())
        self._state["votes"] = self.agreements.votes.view()

    def snapshot(self, seats: frozenset[int]) -> dict[str, Any]:
        """Everything a client needs to draw the room now (also the answer to a resync).

        It reads the state cached at the last event, so it is consistent even while a
        simulation for the next event is running; only the clock is read afresh."""
        if not self._state:
            self._refresh_state()
        return snapshot(self, seats)

    # -- what clients ask, as one interface with a room another process owns ------------------

    async def join(self, sub: RoomSubscriber, token: str | None) -> None:
        """Say hello for ``sub``: its seats, a snapshot, then every event of the room; the
        others learn that its seats are online (a second hello of a client moves its seats)."""
        if self.stale:
            raise room_moved()
        self.audience.join(sub, self.seats_of_token(token))

    def join_relayed(self, client: Relayed, token: str | None) -> tuple[frozenset[int], int]:
        """Say hello for a client another process serves: its seats, and the number of
        unnumbered messages sent so far (the snapshot to send it is taken after this call)."""
        if self.stale:
            raise room_moved()
        seats = self.seats_of_token(token)
        self.audience.connect(client, seats)
        return seats, self.told

    def leave_relayed(self, client: Relayed) -> None:
        """A client another process serves left."""
        self.audience.disconnect(client)

    def forget_nodes(self, nodes: set[str]) -> None:
        """These processes stopped: the seats only their clients held go offline now."""
        self.audience.forget_nodes(nodes)

    async def resync(self, sub: RoomSubscriber) -> None:
        """Send ``sub`` a fresh snapshot (it saw a gap)."""
        if self.stale:
            raise room_moved()
        sub.send(wire.dumps(self.snapshot(sub.seats)))

    async def view(self, seats: frozenset[int]) -> dict[str, Any]:
        """The room as a client holding ``seats`` sees it now."""
        if self.stale:
            raise room_moved()
        return self.snapshot(seats)

    async def act(self, seats: frozenset[int], msg: ClientMessage) -> dict[str, Any] | None:
        """One client action (a shot, a hint request, a rematch) for a client holding ``seats``;
        returns the answer for that client alone, if any.

        Raises:
            RoomError: refused, nothing changed. DuplicateAction: its id was already played.
        """
        if self.stale:
            raise room_moved()
        if isinstance(msg, ShotMessage):
            try:
                shot = Shot(msg.x, msg.y, msg.angle, msg.speed)
            except IllegalShotError as err:
                raise RoomError("illegal_shot", err.reason("en"), err.reason("ja")) from err
            await self.play(seats, msg.seat, shot, msg.id)
        elif isinstance(msg, HintRequest):
            answer = await self.hint(seats, msg.seat)
            return answer if msg.id is None else {**answer, "id": msg.id}
        elif isinstance(msg, Rematch):
            await self.rematch(seats, msg.id, msg.answer == "yes")
        elif isinstance(msg, DrawMessage):
            await self.draw(seats, msg.seat, msg.answer == "yes", msg.id)
        elif isinstance(msg, Resign):
            await self.resign(seats, msg.seat, msg.id)
        elif isinstance(msg, ChatMessage):
            await self.say(seats, msg.preset, msg.text, msg.id)
        return None

    def drop_everyone(self) -> None:
        """Disconnect every client (another process serves the room now): they reconnect."""
        self.audience.drop_everyone()

    def attach(self, sub: RoomSubscriber) -> None:
        """From now on ``sub`` gets every event of the room."""
        self.audience.attach(sub)

    def detach(self, sub: RoomSubscriber) -> None:
        """``sub`` gets no more events; if it was the last client holding a seat, everyone is
        told."""
        self.audience.detach(sub)

    def broadcast(self, message: dict[str, Any]) -> None:
        """Send one unnumbered message (presence, an analysis's progress) to every client, here
        and through the other processes relaying the room."""
        self.audience.broadcast(message)

    def idle_for(self, now: float) -> float:
        """How long (s) nobody has used the room; 0 while anyone watches (here or through
        another process), asks or a computer player is about to shoot (a room idle long enough
        may leave memory: it is stored)."""
        if self.audience.watched() or self.holders or self.lock.locked() or self.computer.busy():
            return 0.0
        return max(0.0, now - self.last_active)

    def seats_of_token(self, token: str | None) -> frozenset[int]:
        """The seats a token holds (empty for spectators and unknown tokens)."""
        if not token:
            return frozenset()
        hashed = hash_token(token)
        return frozenset(s.seat for s in self.seats if s.kind != "open" and s.token_hash == hashed)

    # -- events -----------------------------------------------------------------------------

    async def _commit(
        self,
        kind: str,
        payload: dict[str, Any],
        *,
        action_id: str | None = None,
        seat: Seat | None = None,
        new_game: StoredGame | None = None,
    ) -> None:
        """Number, store, then broadcast one event (the caller holds the lock and has changed
        the room; if the store refuses, the caller's checkpoint undoes the change)."""
        self.timer.settle()
        self._refresh_state()
        body = {"kind": kind, "game_id": self.game_id, **payload}
        if kind not in _NO_STATE:
            body["state"] = self._state
        if action_id is not None:
            body["action_id"] = action_id
        elapsed = self.timer.elapsed()
        if elapsed is not None:
            body["clock_elapsed"] = elapsed
        seq = self.seq + 1
        encoded = await store_event(self, seq, kind, body, seat=seat, new_game=new_game)
        self.seq = seq
        self.last_active = time.monotonic()
        if action_id is not None:
            self.action_ids[action_id] = seq
            while len(self.action_ids) > ACTION_MEMORY:
                self.action_ids.popitem(last=False)
        if kind in LOG_KINDS:
            self.log.append(log_entry(body))
        elif kind == "chat":
            self.chat.add(body)
        text = f'{{"type":"event","seq":{seq},"event":{encoded}}}'
        self.audience.send(text)
        if self.services.publish is not None:
            self.services.publish(self.config.id, seq, text)

    async def _guarded(self, action_id: str | None, change: Callable[[], Awaitable[None]]) -> None:
        """Run one change (the caller holds the lock): refuse an action id already played, and
        keep the change only if its event was stored; otherwise return to where the room was."""
        if action_id is not None and action_id in self.action_ids:
            raise DuplicateAction(action_id, self.action_ids[action_id])
        saved = Checkpoint.take(self)
        try:
            await change()
        except BaseException as err:
            saved.put_back(self)
            if isinstance(err, StoreUnavailable):
                log.warning("room %s: store unavailable, change undone: %s", self.config.id, err)
                raise store_unavailable() from err
            if isinstance(err, StoreFenced):
                log.warning("room %s: taken over elsewhere: %s", self.config.id, err)
                self.stale = True
                self.drop_everyone()
                raise room_moved() from err
            raise

    async def _act(self, action_id: str | None, change: Callable[[], Awaitable[None]]) -> None:
        """:meth:`_guarded` under the room's lock, then start what must run by itself."""
        if self.stale:
            raise room_moved()
        async with self.lock:
            await self._guarded(action_id, change)
        self._after_change()

    async def commit_event(self, kind: str, payload: dict[str, Any]) -> None:
        """:meth:`_commit` for a change made outside this class (the caller holds the lock)."""
        await self._commit(kind, payload)

    async def run_change(self, change: Callable[[], Awaitable[None]]) -> None:
        """:meth:`_act` for a change made outside this class (no action id)."""
        await self._act(None, change)

    def _players_info(self) -> list[dict[str, Any]]:
        return players_info(self)

    # -- games ------------------------------------------------------------------------------

    def _start_game(self, number: int) -> StoredGame:
        """Set up game ``number`` of this room in memory; returns it for the store."""
        self.game_number = number
        self.game_id = f"{self.config.id}-{number + 1}"
        seed = (self.config.seed + number) % (1 << 62)
        options = self.config.options(number)
        self.match = Match(self.config.players, options, self.board, seed=seed)
        self.expert.used = []
        self.agreements.votes = Votes()
        self.computer.seat_up(self.seats)
        self.timer.new_game(options, timed=self.config.minutes is not None, seated=not self.waiting)
        return game_record(self, number, seed)

    # -- what clients ask -------------------------------------------------------------------

    async def take_seat(self, seat: int, name: str, reservation: str | None = None) -> str:
        """Give an open seat of an online room to a new token (returned); a reserved seat only
        to the holder of its ``reservation``."""
        token = secrets.token_urlsafe(18)

        async def change() -> None:
            if not 0 <= seat < self.config.players:
                raise RoomError(
                    "no_such_seat", "There is no such seat", "その席はありません", status=404
                )
            if self.seats[seat].kind != "open":
                raise RoomError("seat_taken", "This seat is taken", "この席はすでに埋まっています")
            held = self.seats[seat].token_hash
            if held is not None and not (
                reservation is not None and hmac.compare_digest(hash_token(reservation), held)
            ):
                raise RoomError(
                    "seat_reserved",
                    "This seat is kept for a player of the championship: their personal link "
                    "seats them",
                    "この席は大会の選手の席です。選手用リンクから着席してください",
                    status=403,
                )
            new = Seat(seat, "human", name, hash_token(token))
            self.seats[seat] = new
            self.presence.seat_taken(seat)
            started = self.timer.start_when_seated(not self.waiting)
            await self._commit(
                "seat", {"seat": seat, "room": room_view(self), "started": started}, seat=new
            )

        await self._act(None, change)
        return token

    async def play(
        self, seats: frozenset[int], seat: int, shot: Shot, action_id: str | None = None
    ) -> None:
        """Play a human's shot for ``seat``; the client must hold that seat. A shot whose
        ``action_id`` was already played is not played again (:class:`DuplicateAction`)."""
        check_not_withdrawn(self)
        self.shots.check_person_at(seats, seat)
        await self._act(action_id, lambda: self.shots.play(seat, shot, None, action_id))

    async def hint(self, seats: frozenset[int], seat: int | None) -> dict[str, Any]:
        """The expert's suggested shot for ``seat`` (default: the shooter), for this client only.

        Only a client holding the seat whose turn it is may ask, in a room with hints on. The
        hint is computed off the event loop on a copy of the match, at most once per position;
        nothing of the game, its events or its record changes.
        """
        return await self.expert.ask(seats, seat)

    async def rematch(
        self, seats: frozenset[int], action_id: str | None = None, yes: bool = True
    ) -> None:
        """Offer, accept or decline the next match in this room (only seated people, only after
        the end). It starts once every person seated has said yes; colours and the first shot
        alternate (:func:`game_options`)."""
        check_not_withdrawn(self)
        await self.agreements.rematch(seats, action_id, yes)

    async def resign(self, seats: frozenset[int], seat: int, action_id: str | None = None) -> None:
        """``seat`` (held by the client, a person) resigns for its colour: the game ends now."""
        check_not_withdrawn(self)
        await self.agreements.resign(seats, seat, action_id)

    async def draw(
        self, seats: frozenset[int], seat: int, yes: bool, action_id: str | None = None
    ) -> None:
        """``seat`` offers or accepts (``yes``), or declines or withdraws, a draw. The game ends
        in a draw once every person of the other side has accepted."""
        check_not_withdrawn(self)
        await self.agreements.draw(seats, seat, yes, action_id)

    async def say(
        self,
        seats: frozenset[int],
        preset: str | None,
        text: str | None,
        action_id: str | None = None,
    ) -> None:
        """A chat line from a client: a set phrase (anyone in the room) or free text (players
        only). Stored with the events; every client gets it (once per ``action_id``)."""
        await say(self, seats, preset, text, action_id)

    # -- what runs by itself ----------------------------------------------------------------

    def _after_change(self) -> None:
        """Start whatever must now run by itself: a computer's turn, the match clock."""
        if self.closed or self.stale or self.withdrawn is not None:
            return
        if self.computer.due():
            self.computer.task = self._spawn(self.computer.turn())
        if self.timer.due():
            self.timer.task = self._spawn(self.timer.run())

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_report_crash)
        return task

    async def close(self) -> None:
        """Stop this room's tasks (the server is shutting down)."""
        self.closed = True
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _report_crash(task: asyncio.Task[None]) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None and not isinstance(exc, RulesError | RoomError):
        log.error("room task failed", exc_info=exc)
