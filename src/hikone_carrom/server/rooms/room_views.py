"""What clients see of a room: its seats and how they are named, and its snapshot."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hikone_carrom.rules import seat_label
from hikone_carrom.server.rooms.chat import presets_view
from hikone_carrom.server.rooms.room_withdrawn import withdrawn_message
from hikone_carrom.server.rooms.views import LANGS, board_view

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = ["display_name", "names", "players_info", "room_view", "seat_name", "snapshot"]


def display_name(room: Room, seat: int, lang: str) -> str:
    """How rulings and the chat name the person at ``seat``: their name, else colour and
    side ("Red (south)", 「赤（南）」); a computer is "Computer" (R1b, R1c)."""
    s = room.seats[seat]
    ja = lang == "ja"
    if s.kind == "computer":
        return "コンピュータ" if ja else "Computer"
    if s.name:
        return s.name
    return seat_label(
        seat, room.config.players, "ja" if ja else "en", room.match.options.first_seat
    )


def seat_name(room: Room, seat: int) -> str:
    """A seat's display name for records and the games list."""
    s = room.seats[seat]
    if s.kind == "computer":
        return f"CPU {s.name}".strip()
    return s.name or display_name(room, seat, "en")


def names(room: Room) -> dict[str, dict[int, str]]:
    """Every seat's display name in each language (for the library's rulings)."""
    return {lang: {s.seat: display_name(room, s.seat, lang) for s in room.seats} for lang in LANGS}


def players_info(room: Room) -> list[dict[str, Any]]:
    """The players of the current game, for its record."""
    return [{"seat": s.seat, "kind": s.kind, "name": seat_name(room, s.seat)} for s in room.seats]


def room_view(room: Room) -> dict[str, Any]:
    """The room itself: mode, seats (without tokens), current game."""
    config = room.config
    return {
        "id": config.id,
        "mode": config.mode,
        "players": config.players,
        "ai_level": config.ai_level,
        "minutes": config.minutes,
        "hints": config.hints,
        "game_id": room.game_id,
        "game_number": room.game_number,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "color": room.match.color(s.seat).value,
                "side": room.board.seat_side(s.seat, config.players).value,
                "label": {lang: display_name(room, s.seat, lang) for lang in LANGS},
            }
            for s in room.seats
        ],
    }


def snapshot(room: Room, seats: frozenset[int]) -> dict[str, Any]:
    """Everything a client holding ``seats`` needs to draw ``room`` now (see
    :meth:`Room.snapshot`)."""
    return {
        "type": "snapshot",
        "seq": room.seq,
        "room": room_view(room),
        "board": board_view(room.board),
        "state": {**room._state, "clock": room.timer.view()},
        "you": {"seats": sorted(seats)},
        "log": list(room.log),
        "presence": room.audience.view(),
        "chat": {"presets": presets_view(), "recent": room.chat.view()},
        "withdrawn": None if room.withdrawn is None else withdrawn_message(room.withdrawn),
    }
