"""Pieces, colours and seats (R1a-R1c).

Seats are numbered in the order of play: the seat that won rock-paper-scissors (R1b,
``RuleOptions.first_seat``, default 0) plays red and shoots first; colours then alternate, in
singles between the two seats and in doubles clockwise (red A, green A, red B, green B, R1c).
"""

from __future__ import annotations

from enum import Enum

__all__ = [
    "PUCKS_PER_COLOR",
    "Color",
    "Piece",
    "last_seat",
    "next_seat",
    "seat_color",
    "seats_of",
]

PUCKS_PER_COLOR = 12
"""Pucks of each colour in a game (R1a)."""


class Color(Enum):
    """A side's colour: its pucks and strikers (R1a)."""

    RED = "red"
    GREEN = "green"

    @property
    def opponent(self) -> Color:
        """The other colour."""
        return Color.GREEN if self is Color.RED else Color.RED

    @property
    def puck(self) -> Piece:
        """The puck of this colour."""
        return Piece.RED if self is Color.RED else Piece.GREEN

    @property
    def index(self) -> int:
        """0 for red, 1 for green (position in count tuples)."""
        return 0 if self is Color.RED else 1


class Piece(Enum):
    """A piece the referee counts: a puck of either colour, or the jack (strikers apart)."""

    RED = "red"
    GREEN = "green"
    JACK = "jack"

    @property
    def color(self) -> Color | None:
        """The puck's colour; ``None`` for the jack."""
        if self is Piece.RED:
            return Color.RED
        if self is Piece.GREEN:
            return Color.GREEN
        return None


def seat_color(seat: int, first_seat: int = 0) -> Color:
    """Colour of ``seat``: the first seat is red, then colours alternate (R1b, R1c)."""
    return Color.RED if (seat - first_seat) % 2 == 0 else Color.GREEN


def seats_of(color: Color, players: int, first_seat: int = 0) -> tuple[int, ...]:
    """Seats playing ``color``: one in singles, two partners in doubles (R1c)."""
    return tuple(s for s in range(players) if seat_color(s, first_seat) is color)


def next_seat(seat: int, players: int) -> int:
    """The seat after ``seat`` in order of play (R1c, R3d)."""
    return (seat + 1) % players


def last_seat(players: int, first_seat: int = 0) -> int:
    """The last seat in the original order: it closes a round after time is called (R7b)."""
    return (first_seat - 1) % players
