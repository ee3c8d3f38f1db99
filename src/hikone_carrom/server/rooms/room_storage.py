"""How a room goes to the store and comes back: the stored room and game records, the write of
one numbered event, and the replay that rebuilds a stored room's current match exactly (the
same seed and inputs give the same rulings)."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from hikone_carrom.match import Match, Noise, Shot
from hikone_carrom.records import HintUse, to_record
from hikone_carrom.server.accounts.ratings import rate_game_over
from hikone_carrom.server.core import wire
from hikone_carrom.server.core.errors import store_unavailable
from hikone_carrom.server.rooms.chat import ChatLog
from hikone_carrom.server.rooms.room_config import (
    ACTION_KINDS,
    ACTION_MEMORY,
    LOG_KINDS,
    RoomServices,
    Seat,
    log_entry,
)
from hikone_carrom.server.rooms.room_views import players_info, seat_name
from hikone_carrom.server.rooms.room_withdrawn import WITHDRAWN
from hikone_carrom.server.rooms.votes import Votes
from hikone_carrom.server.storage import (
    EventWrite,
    StoredEvent,
    StoredGame,
    StoredRoom,
    StoredSeat,
    StoreError,
    StoreUnavailable,
)

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = [
    "claim",
    "game_record",
    "remembered_actions",
    "replay",
    "resume",
    "store_event",
    "store_new",
]

log = logging.getLogger(__name__)


def _stored_seat(seat: Seat) -> StoredSeat:
    return StoredSeat(seat.seat, seat.kind, seat.name, seat.token_hash)


def game_record(room: Room, number: int, seed: int) -> StoredGame:
    """The stored form of ``room``'s game ``number``, just started with ``seed``."""
    return StoredGame(
        id=room.game_id,
        room_id=room.config.id,
        number=number,
        seed=seed,
        players=room.config.players,
        mode=room.config.mode,
        seat_names=tuple(seat_name(room, s.seat) for s in room.seats),
        started_at=datetime.now(UTC),
        finished_at=None,
        shots=0,
        outcome=None,
        record=None,
    )


async def store_new(room: Room, game: StoredGame) -> None:
    """Store a new room with its first game; it holds the store's fencing number from now."""
    config, services = room.config, room.services
    try:
        room.epoch = await services.runner.store(
            services.store.create_room,
            config.id,
            mode=config.mode,
            players=config.players,
            ai_level=config.ai_level,
            minutes=config.minutes,
            seed=config.seed,
            seats=[_stored_seat(s) for s in room.seats],
            hints=config.hints,
            game=game,
        )
    except StoreUnavailable as err:
        raise store_unavailable() from err


async def store_event(
    room: Room,
    seq: int,
    kind: str,
    body: dict[str, Any],
    *,
    seat: Seat | None,
    new_game: StoredGame | None,
) -> str:
    """Store event ``seq`` of ``room`` (with its game's outcome and record once an action ends
    it, a seat taken, a new game); returns its body as JSON text (also what is broadcast)."""
    match = room.match
    finished: tuple[dict[str, Any], dict[str, Any]] | None = None
    if kind in ACTION_KINDS and match.outcome is not None:
        record = await room.runner.simulate(to_record, match, players_info(room), room.expert.used)
        finished = (match.outcome.to_dict(), record)
    encoded = wire.dumps(body)
    await room.runner.store_grouped(
        room.store.append_many,
        EventWrite(
            room_id=room.config.id,
            epoch=room.epoch,
            seq=seq,
            game_id=room.game_id,
            kind=kind,
            payload=encoded,
            shots=sum(1 for a in match.actions if a.kind == "shot")
            if kind in ACTION_KINDS
            else None,
            finished=finished,
            seat=None if seat is None else _stored_seat(seat),
            new_game=new_game,
        ),
    )
    if finished is not None:
        await rate_game_over(room)
    return encoded


def remembered_actions(events: Iterable[StoredEvent]) -> OrderedDict[str, int]:
    """The action ids of ``events`` (the last few of a room), with their event numbers."""
    ids: OrderedDict[str, int] = OrderedDict()
    for ev in events:
        action_id = ev.payload.get("action_id")
        if isinstance(action_id, str):
            ids[action_id] = ev.seq
    return ids


async def claim(services: RoomServices, room_id: str) -> StoredRoom:
    """Take a stored room over from whoever owned it (the store fences the old owner)."""
    try:
        return await services.runner.store(services.store.claim_room, room_id)
    except StoreUnavailable as err:
        raise store_unavailable() from err


async def resume(room: Room, stored: StoredRoom) -> None:
    """Bring a new ``room`` to where ``stored`` was: its numbering, fencing number, chat, the
    action ids it remembers, and its current game replayed (off the event loop)."""
    room.seq = stored.last_seq
    room.epoch = stored.epoch
    room.chat = ChatLog(e.payload for e in stored.events if e.kind == "chat")
    room.action_ids = remembered_actions(stored.events[-ACTION_MEMORY:])
    if not stored.games:
        raise StoreError(f"room {stored.id} has no game")
    game = stored.games[-1]
    events = [e for e in stored.events if e.game_id == game.id]
    await room.runner.simulate(replay, room, game, events)


def replay(room: Room, game: StoredGame, events: list[StoredEvent]) -> None:
    """Replay one stored game's actions into a fresh match of ``room`` (runs in a worker
    thread)."""
    config = room.config
    room.game_id = game.id
    room.game_number = game.number
    room.match = Match(config.players, config.options(game.number), room.board, seed=game.seed)
    room.computer.seat_up(room.seats)
    match = room.match
    elapsed = 0.0
    for ev in events:
        p = ev.payload
        if isinstance(p.get("state"), dict):
            room.agreements.votes = Votes.from_view(p["state"].get("votes"))
        if ev.kind == "hint":
            room.expert.used.append(
                HintUse(p["actions"], p["seat"], Shot.from_dict(p["shot"]), p.get("shot_kind"))
            )
        elif ev.kind == "resign":
            match.resign(p["seat"])
        elif ev.kind == "draw":
            match.agree_draw(p["offered_by"], p["seat"])
        elif ev.kind == "shot":
            play = match.play(Shot.from_dict(p["shot"]), Noise.from_dict(p["noise"]))
            if play.ruling.to_dict() != p["ruling"]:
                log.warning("room %s: replayed ruling differs at event %d", config.id, ev.seq)
        elif ev.kind == "skip":  # a shot lost to R8a, or a turn passed (R3d, R2b reading)
            if "R8a" in p["ruling"]["reasons"]:
                match.skip_turn()
            else:
                match.pass_turn()
        elif ev.kind == "time_called":
            match.call_time()
        elif ev.kind == WITHDRAWN:
            room.withdrawn = p["withdrawn"]
        if ev.kind in LOG_KINDS:
            room.log.append(log_entry(p))
        if isinstance(p.get("clock_elapsed"), int | float):
            elapsed = float(p["clock_elapsed"])
    if config.minutes is not None:
        room.timer.resume(
            config.options(game.number),
            elapsed,
            seated=not room.waiting,
            over=match.is_over,
        )
