"""A championship's call withdrawn from the online room that served it (docs/tournament.md): the
room stores a ``withdrawn`` event whose message its players and spectators are shown (ja, en),
and from then on takes no shot, resignation or draw; its game gives the event no result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hikone_carrom.server.core.errors import RoomError

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = ["WITHDRAWN", "check_not_withdrawn", "withdraw_room", "withdrawn_message"]

WITHDRAWN = "withdrawn"
"""The kind of the room's event that withdraws its match."""


def withdrawn_message(by: dict[str, str]) -> dict[str, str]:
    """What the room shows, ja and en; ``by`` names who withdrew it (ja, en)."""
    return {
        "ja": f"この試合は取り消されました（{by['ja']}）",
        "en": f"This match was withdrawn (by {by['en']})",
    }


def check_not_withdrawn(room: Room) -> None:
    """Refuse a player's action (409 ``match_withdrawn``) in a room whose match was withdrawn."""
    by = room.withdrawn
    if by is not None:
        message = withdrawn_message(by)
        raise RoomError(
            "match_withdrawn",
            f"{message['en']}: this room takes no more shots",
            f"{message['ja']}。この対局ではもう打てません",
        )


async def withdraw_room(room: Room, by: dict[str, str]) -> bool:
    """Withdraw the room's match (stored as a numbered event, told to everyone in the room) and
    stop its clock; False when it was withdrawn already or its game is over."""
    done = False

    async def change() -> None:
        nonlocal done
        if room.withdrawn is not None or room.match.outcome is not None:
            return
        payload: dict[str, Any] = {"withdrawn": by, "message": withdrawn_message(by)}
        room.withdrawn = by
        await room.commit_event(WITHDRAWN, payload)
        done = True

    await room.run_change(change)
    if done and room.timer.task is not None:
        room.timer.task.cancel()
    return done
