"""Online events: the same tournament played in online rooms of the browser game.

In an event made with ``online`` set, a call creates an online room for the match (the match
time of its division; an untimed final stays untimed, R7e) instead of a call to a real board.
Each player has a personal link (``/t/{event}/play/{entry}.{member}#k=...``, from the director's
console): it shows their next match and, once it is called, takes their seat in its room (side 1
plays red and shoots first from seat 0, R1b; doubles partners sit opposite, R1c). When the
game is over its result goes into the standings through
:meth:`~hikone_carrom.server.tournaments.hub.LiveTournament.record_result`, like a pad's.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import time
from datetime import UTC, datetime
from typing import Any

from hikone_carrom.rules import Color
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.rooms.registry import RoomRegistry
from hikone_carrom.server.rooms.room import Room
from hikone_carrom.server.rooms.room_withdrawn import withdraw_room
from hikone_carrom.server.rooms.schemas import CreateRoom
from hikone_carrom.server.tournaments.hub import BoardCall, LiveTournament, TournamentHub
from hikone_carrom.server.tournaments.hub_withdraw import BY_DIRECTOR, Withdrawal
from hikone_carrom.server.tournaments.store_retry import until_stored
from hikone_carrom.tournament import Result, TournamentError

__all__ = ["RoomBridge", "player_key", "players"]

log = logging.getLogger(__name__)

_NAME = 24
"""Longest name a room's seat takes, characters."""


def player_key(live: LiveTournament, player: str) -> str:
    """The secret of a player's link (``player`` = "GS-001.0": entry id and member)."""
    mac = hmac.new(live.director_hash.encode(), f"{live.id}:{player}".encode(), hashlib.sha256)
    return mac.hexdigest()[:20]


def _reservation(live: LiveTournament, match_id: str) -> str:
    """The secret the seats of ``match_id``'s room are kept for: derived from the event's
    secret, so any server process can seat the match's players and nobody else can."""
    mac = hmac.new(
        live.director_hash.encode(), f"{live.id}:seats:{match_id}".encode(), hashlib.sha256
    )
    return mac.hexdigest()


def players(live: LiveTournament) -> list[tuple[str, str]]:
    """Every player of the event as (player id "GS-001.0", name)."""
    return [
        (f"{e.id}.{i}", p.name)
        for e in live.event.entries.values()
        for i, p in enumerate(e.members)
        if e.active
    ]


def _seat_names(live: LiveTournament, match_id: str) -> list[str]:
    match = live.event.match(match_id)
    a, b = (live.event.entry(s or "").members for s in match.sides)
    names = [a[0].name, b[0].name] if len(a) == 1 else [a[0].name, b[0].name, a[1].name, b[1].name]
    return [n[:_NAME] for n in names]


class _Watcher:
    """Listens to one room like a spectator: the match is "playing" from the game's first shot,
    its score (R7b) and clock go to the event's spectators, and its result is passed on once
    the game is over."""

    seats: frozenset[int] = frozenset()  # a watcher holds no seat

    def __init__(self, bridge: RoomBridge, live: LiveTournament, match_id: str, room: Room) -> None:
        self.bridge = bridge
        self.live = live
        self.match_id = match_id
        self.room = room
        self.done = False

    def send(self, text: str) -> None:
        """A room event (JSON text)."""
        if self.done:
            return
        try:
            message = json.loads(text)
        except ValueError:
            return
        if message.get("type") != "event":
            return
        body = message.get("event") or {}
        if self.room.match.outcome is not None:
            self.done = True
            self.room.subscribers.discard(self)
            self.bridge.spawn(self.bridge.take_result(self.live, self.match_id, self.room))
            return
        state = body.get("state") or {}
        scores = state.get("scores") or {}
        view = state.get("clock")
        clock = None
        now = time.time()
        if isinstance(view, dict) and view.get("limit_s") is not None:
            elapsed = float(view["limit_s"]) - float(view.get("remaining_s") or 0.0)
            clock = {"elapsed": elapsed, "running": not view.get("paused"), "at_ms": now * 1000}
        if body.get("kind") == "shot":
            begun = now - (clock["elapsed"] if clock else 0.0)
            who = f"room:{self.room.config.id}"
            started = datetime.fromtimestamp(begun, UTC)
            self.bridge.spawn(self.live.begin(self.match_id, who, started, clock))
        served = self.live.live.get(self.match_id)
        if body.get("kind") == "shot" or (served is not None and served.status == "playing"):
            red, green = int(scores.get("red", 0)), int(scores.get("green", 0))
            self.live.live_score(self.match_id, (red, green), clock)

    def drop(self, code: int) -> None:
        """The room moved to another copy: stop watching this one."""
        self.room.subscribers.discard(self)


class RoomBridge:
    """Calls of online events to rooms, rooms' results to the events (one per server)."""

    def __init__(self, hub: TournamentHub, rooms: RoomRegistry) -> None:
        self.hub = hub
        self.rooms = rooms
        self._tasks: set[asyncio.Task[None]] = set()
        self._seating: dict[str, asyncio.Lock] = {}
        hub.on_event(self._attach)

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` in the background, keeping a reference until it is done."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # e.g. a "begin" the store refused: the next pad event or shot begins it again
            log.warning("%s", task.exception())

    def _attach(self, live: LiveTournament) -> None:
        if not live.event.settings.online:
            return

        async def listener(call: BoardCall) -> dict[str, Any] | None:
            return await self.open_room(live, call)

        live.on_call(listener)
        live.withdrawals.on_withdraw(self.withdraw)
        going = [
            (s.match_id, s.room)
            for s in live.live.values()
            if s.room is not None and s.status in ("called", "playing")
        ]
        if going:  # an event rebuilt after a restart: watch its rooms again
            self.spawn(self._watch_again(live, going))

    async def _watch_again(self, live: LiveTournament, going: list[tuple[str, str]]) -> None:
        for match_id, room_id in going:
            try:
                self._watch(live, match_id, await self.rooms.local(room_id))
            except RoomError:
                log.warning("event %s: room %s is gone", live.id, room_id)

    def _watch(self, live: LiveTournament, match_id: str, room: Room) -> None:
        if room.match.outcome is not None:
            self.spawn(self.take_result(live, match_id, room))
            return
        room.subscribers.add(_Watcher(self, live, match_id, room))

    async def withdraw(self, withdrawal: Withdrawal) -> None:
        """A correction withdrew a call served by an online room: the room's players and
        spectators are told, it takes no more shots, and nothing it gives is credited."""
        if withdrawal.room is None:
            return
        room = await self.rooms.local(withdrawal.room)
        for sub in list(room.subscribers):
            if isinstance(sub, _Watcher) and sub.match_id == withdrawal.match_id:
                sub.done = True
                room.subscribers.discard(sub)
        await withdraw_room(room, BY_DIRECTOR)

    async def open_room(self, live: LiveTournament, call: BoardCall) -> dict[str, Any]:
        """Create the called match's online room with every seat kept for its players: the
        first seat's token is kept for its player, the other seats are reserved (see
        :meth:`seat_for`), so the room's public id lets nobody sit down."""
        names = _seat_names(live, call.match_id)
        minutes = None if call.match_time_s is None else call.match_time_s / 60.0
        request = CreateRoom(
            mode="online",
            players=2 if len(names) == 2 else 4,
            minutes=minutes,
            name=names[0],
            hints=False,
        )
        room, token = await self.rooms.create(request, _reservation(live, call.match_id))
        self._watch(live, call.match_id, room)
        return {"room": room.config.id, "seat_tokens": ((0, token),)}

    async def seat_for(self, live: LiveTournament, player: str, key: str) -> dict[str, Any]:
        """The room, seat and seat token of ``player``'s called match (their link's ``key``)."""
        if not hmac.compare_digest(player_key(live, player), key):
            raise RoomError(
                "bad_player_link",
                "This player link is not valid: ask the director for yours",
                "この選手用リンクは使えません。大会運営にご確認ください",
                status=403,
            )
        entry_id, _, member_text = player.rpartition(".")
        lock = self._seating.setdefault(live.id, asyncio.Lock())
        async with lock:
            for state in list(live.live.values()):
                match = live.event.match(state.match_id)
                if state.room is None or state.status == "finished" or entry_id not in match.sides:
                    continue
                seat = match.sides.index(entry_id) + 2 * int(member_text or 0)
                tokens = dict(state.seat_tokens)
                if seat not in tokens:
                    room = await self.rooms.get(state.room)
                    name = _seat_names(live, state.match_id)[seat]
                    held = _reservation(live, state.match_id)
                    tokens[seat] = await room.take_seat(seat, name, held)
                    fields = {"seat_tokens": tuple(sorted(tokens.items()))}
                    await live.link(
                        state.match_id, f"player:{name}", fields, "seat", {"seat": seat}
                    )
                return {"room": state.room, "seat": seat, "token": tokens[seat], "match": match.id}
        raise RoomError(
            "not_called",
            "Your next match has not been called yet",
            "次の試合はまだ呼び出されていません",
        )

    async def take_result(self, live: LiveTournament, match_id: str, room: Room) -> None:
        """The room's game is over: record its result (seat 0 red = side 1, R1b). While the
        store is down it is recorded again until the store takes it."""
        try:
            await self._take_result(live, match_id, room)
        except RoomError as err:
            if err.code != "store_unavailable":
                raise
            what = f"event {live.id} match {match_id}"
            await until_stored(lambda: self._take_result(live, match_id, room), what)

    async def _take_result(self, live: LiveTournament, match_id: str, room: Room) -> None:
        outcome = room.match.outcome
        if outcome is None or room.withdrawn is not None:
            return  # not over, or its call was withdrawn: the event takes nothing from it
        state = room.match.referee.state
        winner = None if outcome.winner is None else (0 if outcome.winner is Color.RED else 1)
        who = f"room:{room.config.id}"
        try:
            result = Result(
                scores=outcome.scores,
                pucks=(state.pocketed_of(Color.RED), state.pocketed_of(Color.GREEN)),
                winner=winner,
            )
            await live.record_result(match_id, result, who, source="online")
        except (RoomError, TournamentError) as err:
            if err.code == "store_unavailable":
                raise
            log.warning("event %s: the room's result of %s refused: %s", live.id, match_id, err)
            reason = {"code": err.code, "en": err.en, "ja": err.ja}
            await live.note(
                who, "room_refused", match_id, {"room": room.config.id, "reason": reason}
            )
