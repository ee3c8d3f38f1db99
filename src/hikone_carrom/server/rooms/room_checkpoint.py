"""A room's checkpoint: everything a change may touch, taken before it, so that a change whose
event could not be stored leaves nothing behind (the match is undone)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hikone_carrom.match import Match
from hikone_carrom.records import HintUse
from hikone_carrom.server.rooms.chat import ChatLog
from hikone_carrom.server.rooms.room_clock import ClockSaved
from hikone_carrom.server.rooms.room_config import Seat
from hikone_carrom.server.rooms.votes import Votes

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = ["Checkpoint"]


@dataclass(frozen=True)
class Checkpoint:
    """A room as it was before a change (its match by its number of actions)."""

    match: Match
    actions: int
    seats: tuple[Seat, ...]
    clock: ClockSaved
    game_id: str
    game_number: int
    computers: dict[int, str]
    state: dict[str, Any]
    votes: Votes
    hints_used: tuple[HintUse, ...]
    chat: list[dict[str, Any]]

    @classmethod
    def take(cls, room: Room) -> Checkpoint:
        """The checkpoint of ``room`` now."""
        return cls(
            match=room.match,
            actions=len(room.match.actions),
            seats=tuple(room.seats),
            clock=room.timer.save(),
            game_id=room.game_id,
            game_number=room.game_number,
            computers=room.computer.levels,
            state=room._state,
            votes=copy.deepcopy(room.agreements.votes),
            hints_used=tuple(room.expert.used),
            chat=room.chat.view(),
        )

    def put_back(self, room: Room) -> None:
        """Return ``room`` to this checkpoint: undo the match's new actions and put everything
        back."""
        room.match = self.match
        while len(room.match.actions) > self.actions:
            room.match.undo()
        room.seats[:] = self.seats
        room.timer.put_back(self.clock)
        room.game_id = self.game_id
        room.game_number = self.game_number
        room.computer.levels = self.computers
        room._state = self.state
        room.agreements.votes = self.votes
        room.expert.used = list(self.hints_used)
        room.chat = ChatLog(self.chat)
