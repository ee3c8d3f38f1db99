"""The start page's "my games": the rooms where the seat tokens a browser keeps still hold seats.

Answered from the store in brief (seats, current game, the state sent with the last event)
without rebuilding any room. Tokens are compared by their SHA-256 only, as the store keeps them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hikone_carrom.server.rooms.room import game_options
from hikone_carrom.server.storage import GameStore, RoomBrief, hash_token

__all__ = ["my_rooms"]


def _entry(brief: RoomBrief, seats: list[int]) -> dict[str, Any]:
    state = brief.state or {}
    # before the first event: the first seat of the room's game (R1b)
    shooter = state.get("shooter", game_options(None, brief.game_number).first_seat)
    over = bool(state.get("over")) or brief.finished
    waiting = any(s.kind == "open" for s in brief.seats)
    return {
        "room_id": brief.id,
        "mode": brief.mode,
        "players": brief.players,
        "seats": seats,
        "names": [s.name for s in brief.seats],
        "kinds": [s.kind for s in brief.seats],
        "game_id": brief.game_id,
        "game_number": brief.game_number,
        "over": over,
        "waiting": waiting,
        "shooter": None if over or waiting else shooter,
        "your_turn": (not over) and (not waiting) and shooter in seats,
        "updated_at": brief.updated_at.isoformat(),
    }


def my_rooms(store: GameStore, pairs: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """For (room id, token) pairs: ``rooms`` where the token holds seats (newest activity first)
    and ``stale``, the room ids that no longer exist or where the token holds no seat."""
    briefs = {b.id: b for b in store.room_briefs(sorted({room for room, _ in pairs}))}
    rooms: list[dict[str, Any]] = []
    stale: list[str] = []
    for room_id, token in pairs:
        brief = briefs.get(room_id)
        hashed = hash_token(token)
        seats = [] if brief is None else [s.seat for s in brief.seats if s.token_hash == hashed]
        if brief is None or not seats:
            stale.append(room_id)
        else:
            rooms.append(_entry(brief, seats))
    rooms.sort(key=lambda r: r["updated_at"], reverse=True)
    return {"rooms": rooms, "stale": stale}
