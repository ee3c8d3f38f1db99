"""A room's hints: the expert's suggested shot for the player whose turn it is.

A hint is computed off the event loop on a copy of the match, at most once per position; the
game, its events and its record do not change, except that everyone is told, once per
position, that the seat used a hint (and the record keeps it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hikone_carrom.ai import Plan
from hikone_carrom.match import Shot
from hikone_carrom.records import HintUse
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.rooms.hints import HintBook, HintKey, hint_message, hint_seed
from hikone_carrom.server.thinking.pool import ThinkJob, position_of

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = ["RoomHints"]


class RoomHints:
    """The hints of ``room``: those computed (``book``) and those used in the current game
    (``used``, for its record)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.book = HintBook()
        self.used: list[HintUse] = []

    async def ask(self, seats: frozenset[int], seat: int | None) -> dict[str, Any]:
        """The expert's suggested shot for ``seat`` (default: the shooter), for this client only
        (see :meth:`Room.hint`)."""
        room = self.room
        if not room.config.hints:
            raise RoomError(
                "hints_off", "Hints are off in this room", "この部屋ではヒントは使えません"
            )
        async with room.lock:
            if room.match.is_over:
                raise RoomError("game_over", "The game is over", "試合は終わっています")
            if seat is None:
                seat = room.match.shooter
            room.shots.check_person_at(seats, seat)
            room.shots.check_turn_of(seat)
            key = HintKey(
                room.game_id,
                len(room.match.actions),
                seat,
                first_shot=room.match.referee.is_first_shot(seat),
            )
            position = position_of(room.match, room.game_id)
        seed = hint_seed(room.config.seed, room.game_number, key.actions)
        job = ThinkJob(position, "hint", seed)
        answer = await self.book.get(key, lambda: self._compute(key, job))
        if not answer["cached"]:
            await self._announce(key, answer)
        return answer

    async def _announce(self, key: HintKey, answer: dict[str, Any]) -> None:
        """Show everyone that ``key.seat`` used a hint, with the shot suggested, and keep it
        for the match record (once per position)."""
        room = self.room

        async def change() -> None:
            if room.game_id != key.game_id or len(room.match.actions) != key.actions:
                return  # the position changed meanwhile
            shot = Shot.from_dict(answer["shot"])
            kind = answer.get("kind") if isinstance(answer.get("kind"), str) else None
            self.used.append(HintUse(key.actions, key.seat, shot, kind))
            await room._commit(
                "hint",
                {
                    "seat": key.seat,
                    "actions": key.actions,
                    "shot": answer["shot"],
                    "shot_kind": kind,
                    "text": answer["text"],
                },
            )

        await room._act(None, change)

    async def _compute(self, key: HintKey, job: ThinkJob) -> dict[str, Any]:
        """Ask the library's expert about the position (in the thinking pool)."""
        room = self.room
        thought = await room.services.thinker.run(room.config.id, job)
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
            room.board,
            room.config.players,
            room.match.color(key.seat),
            first_shot=key.first_shot,
        )
