"""Wire schemas (pydantic): every REST body and every WebSocket message a client may send.

Anything that does not validate is refused with an error to that client, and nothing changes.
Numbers are SI: positions in m, angles in rad (0 = +x, counter-clockwise), speeds in m/s.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from hikone_carrom.name_text import NAME_PATTERN
from hikone_carrom.server.core.validation import MAX_INT, StrictBody

__all__ = [
    "CLIENT_MESSAGE",
    "AnalyseRequest",
    "ChatMessage",
    "ClientMessage",
    "CreateRoom",
    "DrawMessage",
    "GameSummary",
    "GamesPage",
    "Hello",
    "HintRequest",
    "LevelInfo",
    "Levels",
    "MyRoom",
    "MyRoomsQuery",
    "Ping",
    "Rematch",
    "Resign",
    "Resync",
    "RoomCreated",
    "SeatGranted",
    "ShotMessage",
    "TakeSeat",
]

Mode = Literal["computer", "hotseat", "online"]
Name = Annotated[str, Field(max_length=24, pattern=NAME_PATTERN)]


ActionId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
"""A client's id for one action: the same id is played at most once (idempotent retries)."""


class _Action(StrictBody):
    id: ActionId | None = None


class CreateRoom(StrictBody):
    """POST /api/rooms: a new room.

    ``level`` names a computer player (mode "computer" only); ``minutes`` makes a timed match
    (R7b, R8a; ``None`` = untimed); ``hints`` lets the players ask for the expert's shot
    (``None``: off in online rooms, on against the computer and on one device); ``names`` are
    the players' names on one device (mode "hotseat"), one per seat.
    """

    mode: Mode
    players: Literal[2, 4] = 2
    level: str | None = Field(default=None, max_length=16)
    minutes: float | None = Field(default=None, gt=0, le=120)
    name: Name = ""
    hints: bool | None = None
    names: list[Name] | None = Field(default=None, max_length=4)

    def hints_on(self) -> bool:
        """Whether the room allows hints: as asked, else off for online rooms only."""
        return self.mode != "online" if self.hints is None else self.hints


class MyRoom(StrictBody):
    """One room this browser holds a seat in, as it remembers it: the id and the seat token."""

    room_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")
    token: str = Field(min_length=1, max_length=128)


class MyRoomsQuery(StrictBody):
    """POST /api/my-rooms: the rooms and seat tokens kept in this browser (at most 50)."""

    rooms: list[MyRoom] = Field(max_length=50)


class RoomCreated(StrictBody):
    """The new room and the seat token of its creator (keep it to get the seats back)."""

    room_id: str
    token: str
    seats: list[int]


class TakeSeat(StrictBody):
    """POST /api/rooms/{id}/seats/{seat}: take an open seat of an online room."""

    name: Name = ""


class SeatGranted(StrictBody):
    """The token that now holds the seat."""

    token: str
    seats: list[int]


class LevelInfo(StrictBody):
    """A computer player one may choose, with its name in English and Japanese."""

    id: str
    en: str
    ja: str


class Levels(StrictBody):
    """Computer players that exist, weakest first."""

    levels: list[LevelInfo]


class GameSummary(StrictBody):
    """One finished game in the /games list."""

    id: str
    room_id: str
    number: int
    mode: str
    players: int
    seat_names: list[str]
    started_at: str
    finished_at: str | None
    shots: int
    outcome: dict[str, Any] | None


class GamesPage(StrictBody):
    """A page of finished games, newest first."""

    total: int
    games: list[GameSummary]


# -- WebSocket: client -> server ---------------------------------------------------------


class Hello(StrictBody):
    """First message on a connection: the seat token (if any) and the last event seen."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)
    last_seq: int = Field(default=0, ge=0, le=MAX_INT)


class ShotMessage(_Action):
    """A shot for ``seat``: striker centre (x, y; m), direction (rad), speed (m/s); ``id`` makes
    a resent shot play once."""

    type: Literal["shot"]
    seat: int = Field(ge=0, le=3)
    x: float = Field(ge=-1.0, le=1.0)
    y: float = Field(ge=-1.0, le=1.0)
    angle: float = Field(ge=-100.0, le=100.0)
    speed: float = Field(gt=0.0, le=100.0)


class HintRequest(_Action):
    """Ask for the expert's suggested shot for ``seat`` (default: the seat whose turn it is);
    answered to this client only with a ``hint`` message."""

    type: Literal["hint"]
    seat: int | None = Field(default=None, ge=0, le=3)


class Resync(StrictBody):
    """The client saw a gap in the event numbers: send the whole state again."""

    type: Literal["resync"]
    last_seq: int = Field(default=0, ge=0, le=MAX_INT)


class Rematch(_Action):
    """After the end: offer or accept (``answer`` "yes") or decline ("no") a rematch in the same
    room with the same seats; it starts when every seated person has said yes."""

    type: Literal["rematch"]
    answer: Literal["yes", "no"] = "yes"


class DrawMessage(_Action):
    """For ``seat``: offer or accept (``answer`` "yes") a draw, or decline or withdraw it ("no");
    the game ends in a draw when every person of the other side has said yes."""

    type: Literal["draw"]
    seat: int = Field(ge=0, le=3)
    answer: Literal["yes", "no"]


class Resign(_Action):
    """``seat`` resigns for its colour: the other side wins at once."""

    type: Literal["resign"]
    seat: int = Field(ge=0, le=3)


class ChatMessage(_Action):
    """A chat line: one of the set phrases (``preset``, its id) or free text (``text``, players
    only, at most 200 characters, no control characters)."""

    type: Literal["chat"]
    preset: str | None = Field(default=None, max_length=32)
    text: str | None = Field(default=None, max_length=1000)


class AnalyseRequest(_Action):
    """Ask for the post-game analysis of a finished game of this room (default: the current
    one); progress and the result go to everyone in the room."""

    type: Literal["analyse"]
    game_id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,40}$")


class Ping(StrictBody):
    """Keep-alive; answered with a pong."""

    type: Literal["ping"]


_Any = (
    Hello
    | ShotMessage
    | HintRequest
    | Resync
    | Rematch
    | DrawMessage
    | Resign
    | ChatMessage
    | AnalyseRequest
    | Ping
)
ClientMessage = Annotated[_Any, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[_Any] = TypeAdapter(ClientMessage)
"""Validator of one client message (JSON text)."""
