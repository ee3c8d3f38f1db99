"""A room: one table, its seats, the match being played there, and everyone watching it.

One owner serializes each room: every change happens under the room's asyncio lock, the
simulation runs off the event loop, and every change becomes one numbered event that is stored
before it is broadcast. A change is kept only if its event is stored: on a store failure the room
returns exactly to where it was (the match is undone) and the client is told
``store_unavailable``. A client acts only for the seats its token holds; an action with an id
that was already played is not played again.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Protocol

from hikone_carrom.ai import Plan
from hikone_carrom.board import BoardSpec
from hikone_carrom.match import IllegalShotError, Match, Noise, Shot
from hikone_carrom.records import HintUse, to_record
from hikone_carrom.rules import MatchClock, RuleOptions, RulesError, explain_outcome, seat_label
from hikone_carrom.server.core import wire
from hikone_carrom.server.core.errors import (
    CloseCode,
    DuplicateAction,
    RoomError,
    room_moved,
    store_unavailable,
)
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.rooms.chat import ChatLog, check_text, phrase, presets_view
from hikone_carrom.server.rooms.hints import HintBook, HintKey, hint_message, hint_seed
from hikone_carrom.server.rooms.presence import Presence, Relayed
from hikone_carrom.server.rooms.schemas import (
    ChatMessage,
    ClientMessage,
    DrawMessage,
    HintRequest,
    Rematch,
    Resign,
    ShotMessage,
)
from hikone_carrom.server.rooms.views import (
    LANGS,
    board_view,
    clock_view,
    ruling_text,
    shot_view,
    state_view,
)
from hikone_carrom.server.rooms.votes import Votes
from hikone_carrom.server.storage import (
    EventWrite,
    GameStore,
    StoredEvent,
    StoredGame,
    StoredSeat,
    StoreError,
    StoreFenced,
    StoreUnavailable,
    hash_token,
)
from hikone_carrom.server.thinking.pool import ThinkingPool, ThinkJob, position_of

__all__ = [
    "ACTION_KINDS",
    "LOG_KINDS",
    "Room",
    "RoomConfig",
    "RoomServices",
    "Seat",
    "Subscriber",
    "game_options",
]

log = logging.getLogger(__name__)

ACTION_KINDS = ("shot", "skip", "time_called", "resign", "draw")
"""Event kinds that are actions of the match (what a replay steps through)."""

LOG_KINDS = (*ACTION_KINDS, "rematch", "hint", "vote")
"""Event kinds that appear in the rulings log of a snapshot."""

_NO_STATE = ("chat", "hint")
"""Event kinds that change nothing of the game: they carry no state."""


def game_options(minutes: float | None, number: int) -> RuleOptions:
    """Rule options of game ``number`` (0-based) of a room (digital play: no refereed fouls,
    R5k): red and the first shot alternate between the games (R1b), seat 0 then seat 1, so in
    doubles the partners keep their pairs and the first team alternates."""
    match_time = None if minutes is None else minutes * 60.0
    return RuleOptions(match_time_s=match_time, refereed_fouls=False, first_seat=number % 2)


LOG_SHOWN = 60
"""How many of the last rulings a snapshot shows."""

ACTION_MEMORY = 512
"""How many played action ids a room remembers to refuse a repeat."""

STORE_RETRY_S = 1.0
"""Pause (s) before a computer's turn or the clock tries again after a store failure."""


class Subscriber(Protocol):
    """A connected client: it receives JSON text and holds zero or more seats."""

    seats: frozenset[int]
    """The seats its token holds (set when it says hello)."""

    def send(self, text: str) -> None:
        """Queue one message for the client (never blocks)."""

    def drop(self, code: int) -> None:
        """Disconnect the client with a WebSocket close ``code`` (it reconnects and resyncs)."""


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: ``kind`` is "human", "computer" or "open"."""

    seat: int
    kind: str
    name: str
    token_hash: str | None = None


@dataclass(frozen=True)
class RoomConfig:
    """What a room was created with. ``minutes`` makes timed matches (R7b, R8a); ``hints`` lets
    its players ask for the expert's suggested shot."""

    id: str
    mode: str
    players: int
    ai_level: str | None
    minutes: float | None
    seed: int
    hints: bool = True

    def options(self, number: int = 0) -> RuleOptions:
        """Rule options of this room's game ``number`` (see :func:`game_options`)."""
        return game_options(self.minutes, number)


@dataclass(frozen=True)
class RoomServices:
    """What every room of a server shares: the store, the threads for simulations and store
    calls, the thinking pool, the board, the pause (s) before a computer shoots, and where else
    each stored event goes (``publish(room, seq, text)``: other server processes), each
    unnumbered message (``tell(room, n, text)``, ``n`` counting the room's unnumbered
    messages), and the room's presence for a next owner (``keep(room, text)``)."""

    store: GameStore
    runner: Runner
    thinker: ThinkingPool
    board: BoardSpec
    ai_delay_s: float
    publish: Callable[[str, int, str], None] | None = None
    tell: Callable[[str, int, str], None] | None = None
    keep: Callable[[str, str], None] | None = None


class _ResumableTime:
    """A monotonic time source (s) that lets a clock resume at a stored elapsed time."""

    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.shift


@dataclass(frozen=True)
class _Saved:
    """Everything a change may touch, taken before it so that a failed change leaves nothing."""

    match: Match
    actions: int
    seats: tuple[Seat, ...]
    clock: MatchClock | None
    time: _ResumableTime
    game_id: str
    game_number: int
    computers: dict[int, str]
    turn_ready_at: float | None
    state: dict[str, Any]
    votes: Votes
    hints_used: tuple[HintUse, ...]
    chat: list[dict[str, Any]]


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
        self.subscribers: set[Subscriber] = set()
        self.computers: dict[int, str] = {}
        """The computer players' levels by seat."""
        self.clock: MatchClock | None = None
        self._time = _ResumableTime()
        self._turn_ready_at: float | None = None
        self._state: dict[str, Any] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._computer_task: asyncio.Task[None] | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self.hint_book = HintBook()
        self.hints_used: list[HintUse] = []
        self.votes = Votes()
        self.chat = ChatLog()
        self.presence = Presence()
        self.told = 0
        """Unnumbered messages sent so far (other processes relay each exactly once, and only
        to clients whose snapshot is older)."""
        self.action_ids: OrderedDict[str, int] = OrderedDict()
        self.epoch = 0
        self.closed = False
        self.stale = False
        self.holders = 0
        """Requests and connections using the room now (it is not evicted while used)."""
        self.last_active = time.monotonic()

    @property
    def id(self) -> str:
        """The room's id."""
        return self.config.id

    # -- creation ---------------------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        config: RoomConfig,
        creator_name: str,
        services: RoomServices,
        names: list[str] | None = None,
    ) -> tuple[Room, str]:
        """A new room with its first match; returns the room and the creator's seat token.
        ``names`` name the players of a hot-seat room, seat by seat."""
        token = secrets.token_urlsafe(18)
        hashed = hash_token(token)
        seats: list[Seat] = []
        for s in range(config.players):
            if config.mode == "hotseat":
                seats.append(Seat(s, "human", names[s] if names else "", hashed))
            elif s == 0:
                seats.append(Seat(s, "human", creator_name, hashed))
            elif config.mode == "computer":
                seats.append(Seat(s, "computer", config.ai_level or "", None))
            else:
                seats.append(Seat(s, "open", "", None))
        room = cls(config, seats, services)
        game = room._start_game(0)
        try:
            room.epoch = await services.runner.store(
                services.store.create_room,
                config.id,
                mode=config.mode,
                players=config.players,
                ai_level=config.ai_level,
                minutes=config.minutes,
                seed=config.seed,
                seats=[StoredSeat(s.seat, s.kind, s.name, s.token_hash) for s in seats],
                hints=config.hints,
                game=game,
            )
        except StoreUnavailable as err:
            raise store_unavailable() from err
        room._refresh_state()
        room._after_change()
        return room, token

    @classmethod
    async def restore(cls, room_id: str, services: RoomServices) -> Room:
        """Rebuild a stored room exactly: its seats, and its current match by replaying every
        stored action of it (the same seed and inputs give the same rulings)."""
        try:
            stored = await services.runner.store(services.store.claim_room, room_id)
        except StoreUnavailable as err:
            raise store_unavailable() from err
        config = RoomConfig(
            stored.id,
            stored.mode,
            stored.players,
            stored.ai_level,
            stored.minutes,
            stored.seed,
            stored.hints,
        )
        seats = [Seat(s.seat, s.kind, s.name, s.token_hash) for s in stored.seats]
        room = cls(config, seats, services)
        room.seq = stored.last_seq
        room.epoch = stored.epoch
        room.chat = ChatLog(e.payload for e in stored.events if e.kind == "chat")
        for ev in stored.events[-ACTION_MEMORY:]:
            action_id = ev.payload.get("action_id")
            if isinstance(action_id, str):
                room.action_ids[action_id] = ev.seq
        if not stored.games:
            raise StoreError(f"room {room_id} has no game")
        game = stored.games[-1]
        events = [e for e in stored.events if e.game_id == game.id]
        await services.runner.simulate(room._rebuild, game, events)
        room._refresh_state()
        room._after_change()
        return room

    def _rebuild(self, game: StoredGame, events: list[StoredEvent]) -> None:
        """Replay one stored game's actions into a fresh match (runs in a worker thread)."""
        self.game_id = game.id
        self.game_number = game.number
        self.match = Match(
            self.config.players, self.config.options(game.number), self.board, seed=game.seed
        )
        self._make_computers()
        elapsed = 0.0
        for ev in events:
            p = ev.payload
            if isinstance(p.get("state"), dict):
                self.votes = Votes.from_view(p["state"].get("votes"))
            if ev.kind == "hint":
                self.hints_used.append(
                    HintUse(p["actions"], p["seat"], Shot.from_dict(p["shot"]), p.get("shot_kind"))
                )
            elif ev.kind == "resign":
                self.match.resign(p["seat"])
            elif ev.kind == "draw":
                self.match.agree_draw(p["offered_by"], p["seat"])
            elif ev.kind == "shot":
                play = self.match.play(Shot.from_dict(p["shot"]), Noise.from_dict(p["noise"]))
                if play.ruling.to_dict() != p["ruling"]:
                    log.warning(
                        "room %s: replayed ruling differs at event %d", self.config.id, ev.seq
                    )
            elif ev.kind == "skip":  # a shot lost to R8a, or a turn passed (R3d, R2b reading)
                if "R8a" in p["ruling"]["reasons"]:
                    self.match.skip_turn()
                else:
                    self.match.pass_turn()
            elif ev.kind == "time_called":
                self.match.call_time()
            if ev.kind in LOG_KINDS:
                self.log.append(_log_entry(p))
            if isinstance(p.get("clock_elapsed"), int | float):
                elapsed = float(p["clock_elapsed"])
        if self.config.minutes is not None:
            self.clock = MatchClock.from_options(self.config.options(game.number), self._time)
            if self._all_seated():
                self._time.shift = -elapsed
                self.clock.start()
                self._time.shift = 0.0
                if self.match.is_over:
                    self.clock.pause()  # a finished match shows its final time
                else:
                    self.clock.turn_started()

    # -- state ------------------------------------------------------------------------------

    def _all_seated(self) -> bool:
        return all(s.kind != "open" for s in self.seats)

    @property
    def waiting(self) -> bool:
        """True while an online room still has open seats: no shot may be played."""
        return not self._all_seated()

    def room_view(self) -> dict[str, Any]:
        """The room itself: mode, seats (without tokens), current game."""
        return {
            "id": self.config.id,
            "mode": self.config.mode,
            "players": self.config.players,
            "ai_level": self.config.ai_level,
            "minutes": self.config.minutes,
            "hints": self.config.hints,
            "game_id": self.game_id,
            "game_number": self.game_number,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "color": self.match.color(s.seat).value,
                    "side": self.board.seat_side(s.seat, self.config.players).value,
                    "label": {lang: self.display_name(s.seat, lang) for lang in LANGS},
                }
                for s in self.seats
            ],
        }

    def _clock_running(self) -> bool:
        return (
            self.clock is not None
            and self.clock.started
            and not self.match.is_over
            and not self.waiting
        )

    def _refresh_state(self) -> None:
        self._state = state_view(
            self.match,
            waiting=self.waiting,
            clock=clock_view(self.clock, running=self._clock_running()),
        )
        self._state["votes"] = self.votes.view()

    def snapshot(self, seats: frozenset[int]) -> dict[str, Any]:
        """Everything a client needs to draw the room now (also the answer to a resync).

        It reads the state cached at the last event, so it is consistent even while a
        simulation for the next event is running; only the clock is read afresh."""
        if not self._state:
            self._refresh_state()
        state = {
            **self._state,
            "clock": clock_view(self.clock, running=self._clock_running()),
        }
        return {
            "type": "snapshot",
            "seq": self.seq,
            "room": self.room_view(),
            "board": board_view(self.board),
            "state": state,
            "you": {"seats": sorted(seats)},
            "log": list(self.log),
            "presence": self.presence_view(),
            "chat": {"presets": presets_view(), "recent": self.chat.view()},
        }

    # -- what clients ask, as one interface with a room another process owns ------------------

    async def join(self, sub: Subscriber, token: str | None) -> None:
        """Say hello for ``sub``: its seats, a snapshot, then every event of the room; the
        others learn that its seats are online (a second hello of a client moves its seats)."""
        if self.stale:
            raise room_moved()
        sub.seats = self.seats_of_token(token)
        changed = self.presence.connect(sub, sub.seats)
        sub.send(wire.dumps(self.snapshot(sub.seats)))
        if changed:
            self._tell_presence()
        self.attach(sub)

    def join_relayed(self, client: Relayed, token: str | None) -> tuple[frozenset[int], int]:
        """Say hello for a client another process serves: its seats, and the number of
        unnumbered messages sent so far (the snapshot to send it is taken after this call)."""
        if self.stale:
            raise room_moved()
        seats = self.seats_of_token(token)
        if self.presence.connect(client, seats):
            self._tell_presence()
        return seats, self.told

    def leave_relayed(self, client: Relayed) -> None:
        """A client another process serves left."""
        if self.presence.disconnect(client):
            self._tell_presence()
        self.last_active = time.monotonic()

    def forget_nodes(self, nodes: set[str]) -> None:
        """These processes stopped: the seats only their clients held go offline now."""
        changed = False
        for node in nodes:
            changed |= self.presence.forget_node(node)
        if changed:
            self._tell_presence()

    async def resync(self, sub: Subscriber) -> None:
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
        for sub in list(self.subscribers):
            sub.drop(CloseCode.ROOM_MOVED)

    def attach(self, sub: Subscriber) -> None:
        """From now on ``sub`` gets every event of the room."""
        self.subscribers.add(sub)
        self.last_active = time.monotonic()

    def detach(self, sub: Subscriber) -> None:
        """``sub`` gets no more events; if it was the last client holding a seat, everyone is
        told."""
        if sub in self.subscribers:
            self.subscribers.discard(sub)
            if self.presence.disconnect(sub):
                self._tell_presence()
        self.last_active = time.monotonic()

    def broadcast(self, message: dict[str, Any]) -> None:
        """Send one unnumbered message (presence, an analysis's progress) to every client, here
        and through the other processes relaying the room."""
        text = wire.dumps(message)
        for sub in list(self.subscribers):
            sub.send(text)
        self.told += 1
        if self.services.tell is not None:
            self.services.tell(self.config.id, self.told, text)

    def presence_view(self) -> list[dict[str, Any]]:
        """Per seat: a client holding it is connected (``online``), since when (``since``)."""
        return self.presence.view([s.kind for s in self.seats])

    def _tell_presence(self) -> None:
        """Send the presence of every seat to the clients of an online room, here and through
        the other processes, and keep it for a next owner (on one device and against the
        computer nobody else is at the table)."""
        if self.config.mode == "online":
            seats = self.presence_view()
            if self.services.keep is not None:  # kept before other processes are told
                self.services.keep(self.config.id, wire.dumps(seats))
            self.broadcast({"type": "presence", "seats": seats})

    def idle_for(self, now: float) -> float:
        """How long (s) nobody has used the room; 0 while anyone watches (here or through
        another process), asks or a computer player is about to shoot (a room idle long enough
        may leave memory: it is stored)."""
        if (
            self.subscribers
            or self.presence.relayed()
            or self.holders
            or self.lock.locked()
            or (self._computer_task is not None and not self._computer_task.done())
        ):
            return 0.0
        return max(0.0, now - self.last_active)

    def seats_of_token(self, token: str | None) -> frozenset[int]:
        """The seats a token holds (empty for spectators and unknown tokens)."""
        if not token:
            return frozenset()
        hashed = hash_token(token)
        return frozenset(s.seat for s in self.seats if s.token_hash == hashed)

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
        clock = self.clock
        if self.match.is_over and clock is not None and clock.started and not clock.paused:
            clock.pause()  # the final time stays on show
        self._refresh_state()
        body = {"kind": kind, "game_id": self.game_id, **payload}
        if kind not in _NO_STATE:
            body["state"] = self._state
        if action_id is not None:
            body["action_id"] = action_id
        if self.clock is not None and self.clock.started:
            body["clock_elapsed"] = self.clock.elapsed()
        seq = self.seq + 1
        finished: tuple[dict[str, Any], dict[str, Any]] | None = None
        if kind in ACTION_KINDS and self.match.outcome is not None:
            record = await self.runner.simulate(
                to_record, self.match, self._players_info(), self.hints_used
            )
            finished = (self.match.outcome.to_dict(), record)
        encoded = wire.dumps(body)
        await self.runner.store_grouped(
            self.store.append_many,
            EventWrite(
                room_id=self.config.id,
                epoch=self.epoch,
                seq=seq,
                game_id=self.game_id,
                kind=kind,
                payload=encoded,
                shots=sum(1 for a in self.match.actions if a.kind == "shot")
                if kind in ACTION_KINDS
                else None,
                finished=finished,
                seat=None
                if seat is None
                else StoredSeat(seat.seat, seat.kind, seat.name, seat.token_hash),
                new_game=new_game,
            ),
        )
        self.seq = seq
        self.last_active = time.monotonic()
        if action_id is not None:
            self.action_ids[action_id] = seq
            while len(self.action_ids) > ACTION_MEMORY:
                self.action_ids.popitem(last=False)
        if kind in LOG_KINDS:
            self.log.append(_log_entry(body))
        elif kind == "chat":
            self.chat.add(body)
        text = f'{{"type":"event","seq":{seq},"event":{encoded}}}'
        for sub in list(self.subscribers):
            sub.send(text)
        if self.services.publish is not None:
            self.services.publish(self.config.id, seq, text)

    def _save(self) -> _Saved:
        return _Saved(
            match=self.match,
            actions=len(self.match.actions),
            seats=tuple(self.seats),
            clock=copy.copy(self.clock),
            time=self._time,
            game_id=self.game_id,
            game_number=self.game_number,
            computers=self.computers,
            turn_ready_at=self._turn_ready_at,
            state=self._state,
            votes=copy.deepcopy(self.votes),
            hints_used=tuple(self.hints_used),
            chat=self.chat.view(),
        )

    def _restore(self, saved: _Saved) -> None:
        """Return to the checkpoint: undo the match's new actions and put everything back."""
        self.match = saved.match
        while len(self.match.actions) > saved.actions:
            self.match.undo()
        self.seats[:] = saved.seats
        self.clock = saved.clock
        self._time = saved.time
        self.game_id = saved.game_id
        self.game_number = saved.game_number
        self.computers = saved.computers
        self._turn_ready_at = saved.turn_ready_at
        self._state = saved.state
        self.votes = saved.votes
        self.hints_used = list(saved.hints_used)
        self.chat = ChatLog(saved.chat)

    async def _guarded(self, action_id: str | None, change: Callable[[], Awaitable[None]]) -> None:
        """Run one change (the caller holds the lock): refuse an action id already played, and
        keep the change only if its event was stored; otherwise return to where the room was."""
        if action_id is not None and action_id in self.action_ids:
            raise DuplicateAction(action_id, self.action_ids[action_id])
        saved = self._save()
        try:
            await change()
        except BaseException as err:
            self._restore(saved)
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

    def _players_info(self) -> list[dict[str, Any]]:
        return [
            {"seat": s.seat, "kind": s.kind, "name": self.seat_name(s.seat)} for s in self.seats
        ]

    def seat_name(self, seat: int) -> str:
        """A seat's display name for records and the games list."""
        s = self.seats[seat]
        if s.kind == "computer":
            return f"CPU {s.name}".strip()
        return s.name or self.display_name(seat, "en")

    def display_name(self, seat: int, lang: str) -> str:
        """How rulings and the chat name the person at ``seat``: their name, else colour and
        side ("Red (south)", 「赤（南）」); a computer is "Computer" (R1b, R1c)."""
        s = self.seats[seat]
        ja = lang == "ja"
        if s.kind == "computer":
            return "コンピュータ" if ja else "Computer"
        if s.name:
            return s.name
        return seat_label(
            seat, self.config.players, "ja" if ja else "en", self.match.options.first_seat
        )

    def names(self) -> dict[str, dict[int, str]]:
        """Every seat's display name in each language (for the library's rulings)."""
        return {
            lang: {s.seat: self.display_name(s.seat, lang) for s in self.seats} for lang in LANGS
        }

    # -- games ------------------------------------------------------------------------------

    def _make_computers(self) -> None:
        self.computers = {s.seat: s.name for s in self.seats if s.kind == "computer"}

    def _computer_seed(self, seat: int) -> int:
        """The seed of a computer player's decisions in this game (with the action count, the
        library's player derives each decision's randomness from it)."""
        return (self.config.seed * 131 + self.game_number * 7 + seat) % (1 << 62)

    def _start_game(self, number: int) -> StoredGame:
        """Set up game ``number`` of this room in memory; returns it for the store."""
        self.game_number = number
        self.game_id = f"{self.config.id}-{number + 1}"
        seed = (self.config.seed + number) % (1 << 62)
        options = self.config.options(number)
        self.match = Match(self.config.players, options, self.board, seed=seed)
        self.hints_used = []
        self.votes = Votes()
        self._make_computers()
        self.clock = None
        if self.config.minutes is not None:
            self._time = _ResumableTime()
            self.clock = MatchClock.from_options(options, self._time)
            if self._all_seated():
                self.clock.start()
                self.clock.turn_started()
        return StoredGame(
            id=self.game_id,
            room_id=self.config.id,
            number=number,
            seed=seed,
            players=self.config.players,
            mode=self.config.mode,
            seat_names=tuple(self.seat_name(s.seat) for s in self.seats),
            started_at=datetime.now(UTC),
            finished_at=None,
            shots=0,
            outcome=None,
            record=None,
        )

    # -- what clients ask -------------------------------------------------------------------

    async def take_seat(self, seat: int, name: str) -> str:
        """Give an open seat of an online room to a new token (returned)."""
        token = secrets.token_urlsafe(18)

        async def change() -> None:
            if not 0 <= seat < self.config.players:
                raise RoomError(
                    "no_such_seat", "There is no such seat", "その席はありません", status=404
                )
            if self.seats[seat].kind != "open":
                raise RoomError("seat_taken", "This seat is taken", "この席はすでに埋まっています")
            new = Seat(seat, "human", name, hash_token(token))
            self.seats[seat] = new
            self.presence.seat_taken(seat)
            started = False
            if self._all_seated() and self.clock is not None and not self.clock.started:
                self.clock.start()
                self.clock.turn_started()
                started = True
            await self._commit(
                "seat", {"seat": seat, "room": self.room_view(), "started": started}, seat=new
            )

        await self._act(None, change)
        return token

    def _check_person_at(self, seats: frozenset[int], seat: int) -> None:
        """Raise unless the client holds ``seat`` and a person sits there."""
        if seat not in seats:
            raise RoomError(
                "not_your_seat",
                "You do not hold this seat",
                "この席はあなたの席ではありません",
                status=403,
            )
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            raise RoomError(
                "not_your_seat", "This seat is not a person's", "この席は人の席ではありません"
            )

    def _check_turn_of(self, seat: int) -> None:
        """Raise unless every seat is taken and it is ``seat``'s turn (R1c)."""
        if self.waiting:
            raise RoomError(
                "waiting", "Waiting for every seat to be taken", "全員が席に着くのを待っています"
            )
        if self.match.shooter != seat:
            raise RoomError(
                "not_your_turn",
                "It is not this seat's turn (R1c)",
                "この席の番ではありません（R1c）",
                rule="R1c",
            )

    async def play(
        self, seats: frozenset[int], seat: int, shot: Shot, action_id: str | None = None
    ) -> None:
        """Play a human's shot for ``seat``; the client must hold that seat. A shot whose
        ``action_id`` was already played is not played again (:class:`DuplicateAction`)."""
        self._check_person_at(seats, seat)
        await self._act(action_id, lambda: self._play(seat, shot, None, action_id))

    async def _play(
        self, seat: int, shot: Shot, noise: Noise | None, action_id: str | None = None
    ) -> None:
        """Check turn and state, simulate off the loop, then emit (the caller holds the lock)."""
        if self.match.is_over:
            raise RoomError("game_over", "The game is over", "試合は終わっています")
        self._check_turn_of(seat)
        try:
            payload = await self.runner.simulate(self._shoot, shot, noise)
        except IllegalShotError as err:
            raise RoomError(
                "illegal_shot", err.reason("en"), err.reason("ja"), rule=err.rule
            ) from err
        self._turn_ready_at = time.monotonic() + float(payload["duration"])
        self._lapse_draw(seat, payload)
        await self._commit("shot", payload, action_id=action_id)

    def _shoot(self, shot: Shot, noise: Noise | None) -> dict[str, Any]:
        """Play a shot and describe it for the clients, in one trip to a simulation thread."""
        play = self.match.play(shot, noise)
        payload = shot_view(play, self.board, self.names())
        play.result.forget_views()  # the match keeps the shot, not its views (fewer objects)
        payload["sim_end_at"] = time.time()
        return payload

    async def hint(self, seats: frozenset[int], seat: int | None) -> dict[str, Any]:
        """The expert's suggested shot for ``seat`` (default: the shooter), for this client only.

        Only a client holding the seat whose turn it is may ask, in a room with hints on. The
        hint is computed off the event loop on a copy of the match, at most once per position;
        nothing of the game, its events or its record changes.
        """
        if not self.config.hints:
            raise RoomError(
                "hints_off", "Hints are off in this room", "この部屋ではヒントは使えません"
            )
        async with self.lock:
            if self.match.is_over:
                raise RoomError("game_over", "The game is over", "試合は終わっています")
            if seat is None:
                seat = self.match.shooter
            self._check_person_at(seats, seat)
            self._check_turn_of(seat)
            key = HintKey(
                self.game_id,
                len(self.match.actions),
                seat,
                first_shot=self.match.referee.is_first_shot(seat),
            )
            position = position_of(self.match, self.game_id)
        seed = hint_seed(self.config.seed, self.game_number, key.actions)
        job = ThinkJob(position, "hint", seed)
        answer = await self.hint_book.get(key, lambda: self._compute_hint(key, job))
        if not answer["cached"]:
            await self._announce_hint(key, answer)
        return answer

    async def _announce_hint(self, key: HintKey, answer: dict[str, Any]) -> None:
        """Show everyone that ``key.seat`` used a hint, with the shot suggested, and keep it
        for the match record (once per position)."""

        async def change() -> None:
            if self.game_id != key.game_id or len(self.match.actions) != key.actions:
                return  # the position changed meanwhile
            shot = Shot.from_dict(answer["shot"])
            kind = answer.get("kind") if isinstance(answer.get("kind"), str) else None
            self.hints_used.append(HintUse(key.actions, key.seat, shot, kind))
            await self._commit(
                "hint",
                {
                    "seat": key.seat,
                    "actions": key.actions,
                    "shot": answer["shot"],
                    "shot_kind": kind,
                    "text": answer["text"],
                },
            )

        await self._act(None, change)

    async def _compute_hint(self, key: HintKey, job: ThinkJob) -> dict[str, Any]:
        """Ask the library's expert about the position (in the thinking pool)."""
        thought = await self.services.thinker.run(self.config.id, job)
        if thought.shot is None:
            raise RoomError(
                "no_hint",
                "The expert finds no legal placement for the striker (R2b)",
                "ストライカーを置ける場所がないため、ヒントを出せません（R2b）",
                rule="R2b",
            )
        return hint_message(
            Plan(thought.shot, thought.info),
            key,
            self.board,
            self.config.players,
            self.match.color(key.seat),
            first_shot=key.first_shot,
        )

    async def rematch(
        self, seats: frozenset[int], action_id: str | None = None, yes: bool = True
    ) -> None:
        """Offer, accept or decline the next match in this room (only seated people, only after
        the end). It starts once every person seated has said yes; colours and the first shot
        alternate (:func:`game_options`)."""
        mine = frozenset(s for s in seats if 0 <= s < len(self.seats) and self._person(s))
        if not mine:
            raise RoomError(
                "not_seated",
                "Only players can start a rematch",
                "再戦は席に着いた人だけが始められます",
            )

        async def change() -> None:
            if not self.match.is_over:
                raise RoomError("not_over", "The game is not over", "試合はまだ終わっていません")
            people = [s.seat for s in self.seats if s.kind == "human"]
            step = self.votes.rematch(mine, yes, people=people)
            if step.agreed:
                game = self._start_game(self.game_number + 1)
                await self._commit(
                    "rematch",
                    {"room": self.room_view(), "seat": step.seat},
                    action_id=action_id,
                    new_game=game,
                )
            else:
                await self._commit("vote", step.payload(), action_id=action_id)

        await self._act(action_id, change)

    # -- resigning, draws, chat -------------------------------------------------------------

    def _person(self, seat: int) -> bool:
        return self.seats[seat].kind == "human"

    def _check_playing(self) -> None:
        """Raise unless a game is being played (every seat taken, not over)."""
        if self.match.is_over:
            raise RoomError("game_over", "The game is over", "試合は終わっています")
        if self.waiting:
            raise RoomError(
                "waiting", "Waiting for every seat to be taken", "全員が席に着くのを待っています"
            )

    async def resign(self, seats: frozenset[int], seat: int, action_id: str | None = None) -> None:
        """``seat`` (held by the client, a person) resigns for its colour: the game ends now."""
        self._check_person_at(seats, seat)

        async def change() -> None:
            self._check_playing()
            outcome = self.match.resign(seat)
            self.votes.open.pop("draw", None)
            text = {lang: explain_outcome(outcome, lang) for lang in LANGS}
            color = self.match.color(seat).value
            await self._commit(
                "resign", {"seat": seat, "color": color, "explain": text}, action_id=action_id
            )

        await self._act(action_id, change)

    async def draw(
        self, seats: frozenset[int], seat: int, yes: bool, action_id: str | None = None
    ) -> None:
        """``seat`` offers or accepts (``yes``), or declines or withdraws, a draw. The game ends
        in a draw once every person of the other side has accepted."""
        self._check_person_at(seats, seat)

        async def change() -> None:
            self._check_playing()
            other = [s.seat for s in self.seats if s.kind == "human" and s.seat % 2 != seat % 2]
            step = self.votes.draw(seat, yes, other_side=other, actions=len(self.match.actions))
            if step.agreed:
                assert step.offered_by is not None
                outcome = self.match.agree_draw(step.offered_by, seat)
                text = {lang: explain_outcome(outcome, lang) for lang in LANGS}
                await self._commit(
                    "draw",
                    {"seat": seat, "offered_by": step.offered_by, "explain": text},
                    action_id=action_id,
                )
            else:
                await self._commit("vote", step.payload(), action_id=action_id)

        await self._act(action_id, change)

    def _lapse_draw(self, seat: int, payload: dict[str, Any]) -> None:
        """A shot (or a lost or passed turn) of ``seat``: a draw offer made to its side lapses,
        told in the action's own event (``lapsed``) so that one change stays one event."""
        step = self.votes.lapse_draw(seat)
        if step is not None and not self.match.is_over:
            payload["lapsed"] = step.payload()

    async def say(
        self,
        seats: frozenset[int],
        preset: str | None,
        text: str | None,
        action_id: str | None = None,
    ) -> None:
        """A chat line from a client: a set phrase (anyone in the room) or free text (players
        only). Stored with the events; every client gets it (once per ``action_id``)."""
        line = chat_line(self, seats, preset, text)

        async def change() -> None:
            line["at"] = datetime.now(UTC).isoformat()
            await self._commit("chat", line, action_id=action_id)

        await self._act(action_id, change)

    # -- computer players and the clock ------------------------------------------------------

    def _after_change(self) -> None:
        """Start whatever must now run by itself: a computer's turn, the match clock."""
        if self.closed or self.stale:
            return
        if (
            not self.match.is_over
            and not self.waiting
            and (self.match.shooter in self.computers or self.match.must_pass)
            and (self._computer_task is None or self._computer_task.done())
        ):
            self._computer_task = self._spawn(self._computer_turn())
        if self._clock_running() and (self._clock_task is None or self._clock_task.done()):
            self._clock_task = self._spawn(self._run_clock())

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_report_crash)
        return task

    async def _computer_turn(self) -> None:
        """The computer at the shooter's seat thinks (in the thinking pool, without holding the
        room), then shoots if the position is still the one it thought about."""
        delay = self.services.ai_delay_s
        if self._turn_ready_at is not None:
            delay += max(0.0, self._turn_ready_at - time.monotonic())
        await asyncio.sleep(delay)
        seat = self.match.shooter
        level = self.computers.get(seat)
        if self.match.is_over or self.waiting:
            return
        if self.match.must_pass:  # nowhere to put the striker (R2b reading): pass
            await self._retrying(lambda: self._pass_turn(seat))
            return
        if level is None:
            return
        game_id, actions = self.game_id, len(self.match.actions)
        job = ThinkJob(position_of(self.match, game_id), "decide", self._computer_seed(seat), level)
        thought = await self.services.thinker.run(self.config.id, job, urgent=True)
        if thought.shot is None:
            log.error("room %s: no legal shot for the computer (R2b)", self.config.id)
            return

        async def change() -> None:
            if (self.game_id, len(self.match.actions)) != (game_id, actions):
                return  # the position changed while it thought
            await self._computer_shot(seat, thought.shot, thought.noise)

        await self._retrying(change)

    async def _retrying(self, change: Callable[[], Awaitable[None]]) -> None:
        """Make a change of the room's own (a computer's turn), again after a store failure;
        then let a continuation (R3a) or the next player's turn get its own task."""
        while not (self.closed or self.stale):
            try:
                await self._act(None, change)
                break
            except RoomError as err:
                if err.code != "store_unavailable":
                    raise
                await asyncio.sleep(STORE_RETRY_S)
        if self._computer_task is asyncio.current_task():
            self._computer_task = None
        self._after_change()

    async def _computer_shot(self, seat: int, shot: Shot | None, noise: Noise | None) -> None:
        if shot is None:
            return
        try:
            await self._play(seat, shot, noise)
        except RoomError as err:
            if err.code != "illegal_shot":
                raise
            log.warning("room %s: computer shot refused: %s", self.config.id, err)
            placement = self.match.legal_placement()
            x, y = placement.nearest(shot.x, shot.y)
            await self._play(seat, replace(shot, x=x, y=y), noise)

    async def _pass_turn(self, seat: int) -> None:
        """The shooter has nowhere to put the striker: the turn passes without penalty (R3d,
        ``RuleOptions.covered_area_line = "pass"``); told to everyone like a lost shot."""
        if self.match.shooter != seat or not self.match.must_pass:
            return
        ruling = self.match.pass_turn()
        if self.clock is not None and self.clock.started:
            self.clock.turn_started()
        payload = {
            "seat": seat,
            "ruling": ruling.to_dict(),
            "explain": ruling_text(ruling, self.names()),
        }
        self._lapse_draw(seat, payload)
        await self._commit("skip", payload)

    async def _run_clock(self) -> None:
        """Drive the match clock: call time (R7b) and take lost shots (R8a)."""
        while self._clock_running() and not (self.closed or self.stale):
            await asyncio.sleep(0.1)
            try:
                async with self.lock:
                    if not self._clock_running():
                        return
                    await self._guarded(None, self._clock_tick)
            except RoomError as err:
                if err.code != "store_unavailable":
                    raise
                await asyncio.sleep(STORE_RETRY_S)
            self._after_change()

    async def _clock_tick(self) -> None:
        """One look at the clock (the caller holds the lock)."""
        clock = self.clock
        if clock is None:
            return
        if self._turn_ready_at is not None and time.monotonic() >= self._turn_ready_at:
            self._turn_ready_at = None
            clock.turn_started()
            self._refresh_state()
        if clock.time_up and not self.match.referee.time_called:
            self.match.call_time()
            await self._commit("time_called", {"ruling": None})
        elif self._turn_ready_at is None and clock.turn_expired:
            seat = self.match.shooter
            ruling = self.match.skip_turn()
            clock.turn_started()
            payload = {
                "seat": seat,
                "ruling": ruling.to_dict(),
                "explain": ruling_text(ruling, self.names()),
                "shot_time_s": clock.shot_time_s,
            }
            self._lapse_draw(seat, payload)
            await self._commit("skip", payload)

    async def close(self) -> None:
        """Stop this room's tasks (the server is shutting down)."""
        self.closed = True
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def chat_line(
    room: Room, seats: frozenset[int], preset: str | None, text: str | None
) -> dict[str, Any]:
    """A checked chat line of a client holding ``seats`` in ``room`` (without its time).

    Raises:
        RoomError: not an online room, not exactly one of a phrase and a text, an unknown
            phrase, text from a spectator, or text that is empty, too long or holds control
            characters.
    """
    if room.config.mode != "online":
        raise RoomError(
            "no_chat", "Chat is for online rooms", "チャットはオンラインの部屋で使えます"
        )
    if (preset is None) == (text is None):
        raise RoomError(
            "bad_message",
            "Send either a set phrase or a text",
            "定型文か文章のどちらか一つを送ってください",
        )
    mine = sorted(s for s in seats if 0 <= s < len(room.seats) and room.seats[s].kind == "human")
    line: dict[str, Any] = {"preset": preset, "text": None, "phrase": None}
    if preset is not None:
        line["phrase"] = phrase(preset)
    else:
        if not mine:
            raise RoomError(
                "spectator_text",
                "Spectators can send only the set phrases",
                "観戦者は定型文だけを送れます",
            )
        line["text"] = check_text(text or "")
    seat = mine[0] if mine else None
    line["seat"] = seat
    line["name"] = None if seat is None else {lang: room.display_name(seat, lang) for lang in LANGS}
    return line


def _log_entry(body: dict[str, Any]) -> dict[str, Any]:
    """An event without its tracks and state, for the rulings log."""
    return {k: v for k, v in body.items() if k not in ("tracks", "before", "state", "room")}


def _report_crash(task: asyncio.Task[None]) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None and not isinstance(exc, RulesError | RoomError):
        log.error("room task failed", exc_info=exc)
