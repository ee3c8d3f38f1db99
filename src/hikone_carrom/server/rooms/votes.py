"""Agreements of a room's players: a draw offer and a rematch, each open until everyone asked has
said yes, someone declines, or it lapses.

A draw needs every person of the other side; a rematch needs every seated person. The room asks
this module what an answer means and emits what it returns; nothing here touches the match.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from hikone_carrom.server.core.errors import RoomError

__all__ = ["Answer", "Topic", "Vote", "VoteStep", "Votes"]

Topic = Literal["draw", "rematch"]
Answer = Literal["offer", "accept", "decline", "withdraw", "lapse"]


@dataclass
class Vote:
    """One open agreement: who offered it, whose yes it needs, who has said yes."""

    topic: Topic
    offered_by: int
    asked: frozenset[int]
    said_yes: set[int] = field(default_factory=set)

    @property
    def agreed(self) -> bool:
        """Everyone asked has said yes."""
        return self.asked <= self.said_yes

    def view(self) -> dict[str, Any]:
        """Plain JSON: topic, offering seat, seats asked, seats that said yes."""
        return {
            "topic": self.topic,
            "offered_by": self.offered_by,
            "asked": sorted(self.asked),
            "yes": sorted(self.said_yes),
        }


@dataclass(frozen=True)
class VoteStep:
    """What an answer did: ``answer`` by ``seat`` on ``topic``; ``agreed`` when it completed the
    vote (the room then ends the game in a draw or starts the rematch)."""

    topic: Topic
    seat: int
    answer: Answer
    agreed: bool = False
    offered_by: int | None = None

    def payload(self) -> dict[str, Any]:
        """The body of the ``vote`` event."""
        return {"topic": self.topic, "seat": self.seat, "answer": self.answer}


class Votes:
    """The open votes of a room (at most one per topic) and the last declined draw offer, so that
    a side whose offer was declined offers again only after another action."""

    def __init__(self) -> None:
        self.open: dict[Topic, Vote] = {}
        self.declined_draw: tuple[int, int] | None = None
        """(side parity of the offer, actions then): the last declined draw offer."""

    def view(self) -> dict[str, Any]:
        """Plain JSON of the open votes (part of every state the room sends)."""
        return {
            "open": [v.view() for v in self.open.values()],
            "declined_draw": None if self.declined_draw is None else list(self.declined_draw),
        }

    @classmethod
    def from_view(cls, data: Any) -> Votes:
        """Rebuild from :meth:`view` output (a room restored from its stored events)."""
        votes = cls()
        if not isinstance(data, dict):
            return votes
        for v in data.get("open", []):
            votes.open[v["topic"]] = Vote(
                v["topic"], int(v["offered_by"]), frozenset(v["asked"]), set(v["yes"])
            )
        declined = data.get("declined_draw")
        if declined is not None:
            votes.declined_draw = (int(declined[0]), int(declined[1]))
        return votes

    def clear(self) -> None:
        """A new game: no vote is open."""
        self.open.clear()
        self.declined_draw = None

    # -- draws ------------------------------------------------------------------------------

    def draw(self, seat: int, yes: bool, *, other_side: Iterable[int], actions: int) -> VoteStep:
        """``seat`` (a person, checked by the room) offers, accepts, declines or withdraws a
        draw; ``other_side`` are the people of the other colour, ``actions`` the match's count.

        Raises:
            RoomError: nothing to answer, an answer twice, an offer nobody can accept or an offer
                again right after a declined one.
        """
        vote = self.open.get("draw")
        if vote is None:
            if not yes:
                raise _no_offer()
            asked = frozenset(other_side)
            if not asked:
                raise RoomError(
                    "draw_computer",
                    "The computer does not take draw offers",
                    "コンピュータは引き分けの申し出を受けません",
                )
            if self.declined_draw == (seat % 2, actions):
                raise RoomError(
                    "draw_again",
                    "Your draw offer was declined: offer again after the next shot",
                    "引き分けの申し出は断られました。次のショットの後にもう一度申し出てください",
                )
            self.open["draw"] = Vote("draw", seat, asked)
            return VoteStep("draw", seat, "offer")
        if seat % 2 == vote.offered_by % 2:  # colours alternate round the table (R1c)
            if yes:
                raise RoomError(
                    "draw_offered",
                    "Your side has already offered a draw",
                    "あなたの側はすでに引き分けを申し出ています",
                )
            del self.open["draw"]
            return VoteStep("draw", seat, "withdraw")
        if not yes:
            del self.open["draw"]
            self.declined_draw = (vote.offered_by % 2, actions)
            return VoteStep("draw", seat, "decline")
        if seat in vote.said_yes:
            raise _answered()
        vote.said_yes.add(seat)
        if vote.agreed:
            del self.open["draw"]
            return VoteStep("draw", seat, "accept", agreed=True, offered_by=vote.offered_by)
        return VoteStep("draw", seat, "accept")

    def lapse_draw(self, shooter: int) -> VoteStep | None:
        """A shot (or a lost shot) by ``shooter``: a draw offer made to its side lapses."""
        vote = self.open.get("draw")
        if vote is None or shooter % 2 == vote.offered_by % 2:
            return None
        del self.open["draw"]
        return VoteStep("draw", vote.offered_by, "lapse")

    # -- rematches ----------------------------------------------------------------------------

    def rematch(self, mine: frozenset[int], yes: bool, *, people: Iterable[int]) -> VoteStep:
        """A client holding the people's seats ``mine`` offers or accepts (for all of them) or
        declines a rematch; ``people`` are every person's seat of the room.

        Raises:
            RoomError: nothing to decline, or an answer twice.
        """
        seat = min(mine)
        vote = self.open.get("rematch")
        if vote is None:
            if not yes:
                raise _no_offer()
            vote = Vote("rematch", seat, frozenset(people), set(mine))
            self.open["rematch"] = vote
            step: Answer = "offer"
        elif not yes:
            del self.open["rematch"]
            return VoteStep("rematch", seat, "decline")
        elif mine <= vote.said_yes:
            raise _answered()
        else:
            vote.said_yes |= mine
            step = "accept"
        if vote.agreed:
            del self.open["rematch"]
            return VoteStep("rematch", seat, step, agreed=True, offered_by=vote.offered_by)
        return VoteStep("rematch", seat, step)


def _no_offer() -> RoomError:
    return RoomError("no_offer", "There is no offer to answer", "答える申し出はありません")


def _answered() -> RoomError:
    return RoomError("already_answered", "You have already said yes", "すでに承諾しています")
