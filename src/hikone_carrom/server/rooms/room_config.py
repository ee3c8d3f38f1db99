"""What a room is made of: its configuration, its seats, the services it shares with the other
rooms of a server, and the kinds of its events."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from hikone_carrom.board import BoardSpec
from hikone_carrom.rules import RuleOptions
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.storage import GameStore, StoredRoom
from hikone_carrom.server.thinking.pool import ThinkingPool

__all__ = [
    "ACTION_KINDS",
    "ACTION_MEMORY",
    "LOG_KINDS",
    "LOG_SHOWN",
    "STORE_RETRY_S",
    "RoomConfig",
    "RoomServices",
    "RoomSubscriber",
    "Seat",
    "first_seats",
    "game_options",
    "log_entry",
]

ACTION_KINDS = ("shot", "skip", "time_called", "resign", "draw")
"""Event kinds that are actions of the match (what a replay steps through)."""

LOG_KINDS = (*ACTION_KINDS, "rematch", "hint", "vote", "withdrawn")
"""Event kinds that appear in the rulings log of a snapshot."""

LOG_SHOWN = 60
"""How many of the last rulings a snapshot shows."""

ACTION_MEMORY = 512
"""How many played action ids a room remembers to refuse a repeat."""

STORE_RETRY_S = 1.0
"""Pause (s) before a computer's turn or the clock tries again after a store failure."""


def game_options(minutes: float | None, number: int) -> RuleOptions:
    """Rule options of game ``number`` (0-based) of a room (digital play: no refereed fouls,
    R5k): red and the first shot alternate between the games (R1b), seat 0 then seat 1, so in
    doubles the partners keep their pairs and the first team alternates."""
    match_time = None if minutes is None else minutes * 60.0
    return RuleOptions(match_time_s=match_time, refereed_fouls=False, first_seat=number % 2)


class RoomSubscriber(Protocol):
    """A connected client: it receives JSON text and holds zero or more seats."""

    seats: frozenset[int]
    """The seats its token holds (set when it says hello)."""

    def send(self, text: str) -> None:
        """Queue one message for the client (never blocks)."""

    def drop(self, code: int) -> None:
        """Disconnect the client with a WebSocket close ``code`` (it reconnects and resyncs)."""


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: ``kind`` is "human", "computer" or "open"."""

    seat: int
    kind: str
    name: str
    token_hash: str | None = None


@dataclass(frozen=True)
class RoomConfig:
    """What a room was created with. ``minutes`` makes timed matches (R7b, R8a); ``hints`` lets
    its players ask for the expert's suggested shot."""

    id: str
    mode: str
    players: int
    ai_level: str | None
    minutes: float | None
    seed: int
    hints: bool = True

    def options(self, number: int = 0) -> RuleOptions:
        """Rule options of this room's game ``number`` (see :func:`game_options`)."""
        return game_options(self.minutes, number)

    @classmethod
    def of_stored(cls, stored: StoredRoom) -> RoomConfig:
        """The configuration of a stored room."""
        return cls(
            stored.id,
            stored.mode,
            stored.players,
            stored.ai_level,
            stored.minutes,
            stored.seed,
            stored.hints,
        )


@dataclass(frozen=True)
class RoomServices:
    """What every room of a server shares: the store, the threads for simulations and store
    calls, the thinking pool, the board, the pause (s) before a computer shoots, and where else
    each stored event goes (``publish(room, seq, text)``: other server processes), each
    unnumbered message (``tell(room, n, text)``, ``n`` counting the room's unnumbered
    messages), and the room's presence for a next owner (``keep(room, text)``)."""

    store: GameStore
    runner: Runner
    thinker: ThinkingPool
    board: BoardSpec
    ai_delay_s: float
    publish: Callable[[str, int, str], None] | None = None
    tell: Callable[[str, int, str], None] | None = None
    keep: Callable[[str, str], None] | None = None


def first_seats(
    config: RoomConfig, creator_name: str, token_hash: str, names: list[str] | None
) -> list[Seat]:
    """The seats of a new room: every seat of a hot-seat room is the creator's (``names`` name
    its players, seat by seat); otherwise the creator takes seat 0, and the others are the
    computer's or open."""
    seats: list[Seat] = []
    for s in range(config.players):
        if config.mode == "hotseat":
            seats.append(Seat(s, "human", names[s] if names else "", token_hash))
        elif s == 0:
            seats.append(Seat(s, "human", creator_name, token_hash))
        elif config.mode == "computer":
            seats.append(Seat(s, "computer", config.ai_level or "", None))
        else:
            seats.append(Seat(s, "open", "", None))
    return seats


def log_entry(body: dict[str, Any]) -> dict[str, Any]:
    """An event without its tracks and state, for the rulings log."""
    return {k: v for k, v in body.items() if k not in ("tracks", "before", "state", "room")}
