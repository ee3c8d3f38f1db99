"""Players' ratings as other services read them, and the rating of a finished online game.

Stable interface: ``rating_of(account_id, time_control, players=2) -> RatingView``; the app binds
the store at start (:func:`bind`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hikone_carrom.ratings import TIME_CONTROLS, Standing, time_control_of
from hikone_carrom.rules import Color
from hikone_carrom.server.storage.account_store import AccountStore

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = ["RatingView", "bind", "rate_game_over", "rating_of", "view_of"]

log = logging.getLogger(__name__)

_bound: list[AccountStore] = []


def bind(accounts: AccountStore) -> None:
    """Use ``accounts`` for :func:`rating_of` (the app's start; a newer app replaces it)."""
    _bound[:] = [accounts]


@dataclass(frozen=True)
class RatingView:
    """An account's rating in one time control (``5min``, ``untimed``) for singles
    (``players`` 2) or pairs (4): rating and deviation in points, provisional while the
    deviation is above 110, rated games played."""

    account_id: str
    time_control: str
    players: int
    rating: float
    deviation: float
    provisional: bool
    games: int

    def to_dict(self) -> dict[str, Any]:
        """The public part: ``rating``, ``deviation`` (rounded), ``provisional``, ``games``."""
        return {
            "rating": round(self.rating),
            "deviation": round(self.deviation),
            "provisional": self.provisional,
            "games": self.games,
        }


def view_of(account_id: str, time_control: str, players: int, standing: Standing) -> RatingView:
    """A :class:`RatingView` of a standing."""
    return RatingView(
        account_id,
        time_control,
        players,
        standing.rating,
        standing.deviation,
        standing.provisional,
        standing.games,
    )


def rating_of(account_id: str, time_control: str, players: int = 2) -> RatingView:
    """The rating of ``account_id`` in ``time_control`` (a new player's if it has none).

    One primary-key read of the store, made in the calling thread: from the event loop, prefer
    ``await runner.store(rating_of, ...)``. Raises ValueError for an unknown time control and
    RuntimeError before the app has started."""
    if time_control not in TIME_CONTROLS:
        raise ValueError(f"unknown time control {time_control!r}: one of {TIME_CONTROLS}")
    if not _bound:
        raise RuntimeError("rating_of: no accounts store bound (the app has not started)")
    standing = _bound[0].standing(account_id, time_control, players)
    return view_of(account_id, time_control, players, standing)


def _teams(room: Room, accounts: dict[int, str]) -> list[list[str]] | None:
    """Red's accounts, then green's, when every seat of the room is a distinct account."""
    seats = room.seats
    if any(s.kind != "human" or s.seat not in accounts for s in seats):
        return None
    if len({accounts[s.seat] for s in seats}) != len(seats):
        return None
    match = room.match
    return [[accounts[s.seat] for s in seats if match.color(s.seat) is c] for c in Color]


async def rate_game_over(room: Room) -> None:
    """Rate the game that just ended in ``room`` if it is rated: online, a rated time control,
    every seat a different account. Never raises (a failure is logged; the game stands)."""
    outcome = room.match.outcome
    time_control = time_control_of(room.config.minutes)
    if outcome is None or time_control is None or room.config.mode != "online" or not _bound:
        return
    accounts = _bound[0]
    try:
        teams = _teams(room, await room.runner.store(accounts.seat_accounts, room.config.id))
        if teams is None:
            return
        score = 0.5 if outcome.winner is None else (1.0 if outcome.winner is Color.RED else 0.0)
        await room.runner.store(accounts.rate, room.game_id, time_control, teams, score)
    except Exception:
        log.exception("room %s: the rating of game %s failed", room.config.id, room.game_id)
