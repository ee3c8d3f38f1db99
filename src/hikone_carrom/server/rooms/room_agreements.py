"""What a room's players agree on or give up: a resignation, a draw, a rematch.

Offers and answers are the room's :class:`~hikone_carrom.server.rooms.votes.Votes`; each answer is
one of the room's changes, one event (a ``vote`` until everyone needed has said yes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hikone_carrom.rules import explain_outcome
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.rooms.room_views import room_view
from hikone_carrom.server.rooms.views import LANGS
from hikone_carrom.server.rooms.votes import Votes

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = ["RoomAgreements"]


class RoomAgreements:
    """The open offers of ``room``'s current game (``votes``) and how they are answered."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.votes = Votes()

    def _check_playing(self) -> None:
        """Raise unless a game is being played (every seat taken, not over)."""
        if self.room.match.is_over:
            raise RoomError("game_over", "The game is over", "試合は終わっています")
        if self.room.waiting:
            raise RoomError(
                "waiting", "Waiting for every seat to be taken", "全員が席に着くのを待っています"
            )

    async def rematch(self, seats: frozenset[int], action_id: str | None, yes: bool) -> None:
        """Offer, accept or decline the next match (see :meth:`Room.rematch`)."""
        room = self.room
        mine = frozenset(
            s for s in seats if 0 <= s < len(room.seats) and room.seats[s].kind == "human"
        )
        if not mine:
            raise RoomError(
                "not_seated",
                "Only players can start a rematch",
                "再戦は席に着いた人だけが始められます",
            )

        async def change() -> None:
            if not room.match.is_over:
                raise RoomError("not_over", "The game is not over", "試合はまだ終わっていません")
            people = [s.seat for s in room.seats if s.kind == "human"]
            step = self.votes.rematch(mine, yes, people=people)
            if step.agreed:
                game = room._start_game(room.game_number + 1)
                await room._commit(
                    "rematch",
                    {"room": room_view(room), "seat": step.seat},
                    action_id=action_id,
                    new_game=game,
                )
            else:
                await room._commit("vote", step.payload(), action_id=action_id)

        await room._act(action_id, change)

    async def resign(self, seats: frozenset[int], seat: int, action_id: str | None) -> None:
        """``seat`` resigns for its colour (see :meth:`Room.resign`)."""
        room = self.room
        room.shots.check_person_at(seats, seat)

        async def change() -> None:
            self._check_playing()
            outcome = room.match.resign(seat)
            self.votes.open.pop("draw", None)
            text = {lang: explain_outcome(outcome, lang) for lang in LANGS}
            color = room.match.color(seat).value
            await room._commit(
                "resign", {"seat": seat, "color": color, "explain": text}, action_id=action_id
            )

        await room._act(action_id, change)

    async def draw(
        self, seats: frozenset[int], seat: int, yes: bool, action_id: str | None
    ) -> None:
        """``seat`` answers about a draw (see :meth:`Room.draw`)."""
        room = self.room
        room.shots.check_person_at(seats, seat)

        async def change() -> None:
            self._check_playing()
            other = [s.seat for s in room.seats if s.kind == "human" and s.seat % 2 != seat % 2]
            step = self.votes.draw(seat, yes, other_side=other, actions=len(room.match.actions))
            if step.agreed:
                assert step.offered_by is not None
                outcome = room.match.agree_draw(step.offered_by, seat)
                text = {lang: explain_outcome(outcome, lang) for lang in LANGS}
                await room._commit(
                    "draw",
                    {"seat": seat, "offered_by": step.offered_by, "explain": text},
                    action_id=action_id,
                )
            else:
                await room._commit("vote", step.payload(), action_id=action_id)

        await room._act(action_id, change)

    def lapse_draw(self, seat: int, payload: dict[str, Any]) -> None:
        """A shot (or a lost or passed turn) of ``seat``: a draw offer made to its side lapses,
        told in the action's own event (``lapsed``) so that one change stays one event."""
        step = self.votes.lapse_draw(seat)
        if step is not None and not self.room.match.is_over:
            payload["lapsed"] = step.payload()
