"""A room's chat lines: set phrases from anyone in an online room, free text from its players."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.rooms.chat import check_text, phrase
from hikone_carrom.server.rooms.room_views import display_name
from hikone_carrom.server.rooms.views import LANGS

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = ["chat_line", "say"]


async def say(
    room: Room, seats: frozenset[int], preset: str | None, text: str | None, action_id: str | None
) -> None:
    """Store and send a chat line of a client holding ``seats`` (see :meth:`Room.say`)."""
    line = chat_line(room, seats, preset, text)

    async def change() -> None:
        line["at"] = datetime.now(UTC).isoformat()
        await room._commit("chat", line, action_id=action_id)

    await room._act(action_id, change)


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
    if seat is not None:
        line["name"] = {lang: display_name(room, seat, lang) for lang in LANGS}
    else:
        line["name"] = None
    return line
