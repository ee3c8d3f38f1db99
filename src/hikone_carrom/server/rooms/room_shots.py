"""A room's shots: who may shoot now (R1c), and a shot simulated off the event loop and told
to everyone as one event."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from hikone_carrom.match import IllegalShotError, Noise, Shot
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.rooms.room_views import names
from hikone_carrom.server.rooms.views import shot_view

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = ["RoomShots"]


class RoomShots:
    """The checks and the shots of ``room``'s players, people and computers alike."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def check_person_at(self, seats: frozenset[int], seat: int) -> None:
        """Raise unless the client holds ``seat`` and a person sits there."""
        if seat not in seats:
            raise RoomError(
                "not_your_seat",
                "You do not hold this seat",
                "この席はあなたの席ではありません",
                status=403,
            )
        if not 0 <= seat < len(self.room.seats) or self.room.seats[seat].kind != "human":
            raise RoomError(
                "not_your_seat", "This seat is not a person's", "この席は人の席ではありません"
            )

    def check_turn_of(self, seat: int) -> None:
        """Raise unless every seat is taken and it is ``seat``'s turn (R1c)."""
        if self.room.waiting:
            raise RoomError(
                "waiting", "Waiting for every seat to be taken", "全員が席に着くのを待っています"
            )
        if self.room.match.shooter != seat:
            raise RoomError(
                "not_your_turn",
                "It is not this seat's turn (R1c)",
                "この席の番ではありません（R1c）",
                rule="R1c",
            )

    async def play(
        self, seat: int, shot: Shot, noise: Noise | None, action_id: str | None = None
    ) -> None:
        """Check turn and state, simulate off the loop, then emit (the caller holds the lock)."""
        room = self.room
        if room.match.is_over:
            raise RoomError("game_over", "The game is over", "試合は終わっています")
        self.check_turn_of(seat)
        try:
            payload = await room.runner.simulate(self._shoot, shot, noise)
        except IllegalShotError as err:
            raise RoomError(
                "illegal_shot", err.reason("en"), err.reason("ja"), rule=err.rule
            ) from err
        room.timer.shot_rolling(float(payload["duration"]))
        room.agreements.lapse_draw(seat, payload)
        await room._commit("shot", payload, action_id=action_id)

    def _shoot(self, shot: Shot, noise: Noise | None) -> dict[str, Any]:
        """Play a shot and describe it for the clients, in one trip to a simulation thread."""
        room = self.room
        play = room.match.play(shot, noise)
        payload = shot_view(play, room.board, names(room))
        play.result.forget_views()  # the match keeps the shot, not its views (fewer objects)
        payload["sim_end_at"] = time.time()
        return payload
