"""The live games: online rooms of this process in play (every seat taken, not over), which
anyone may watch as a spectator; the highest-rated first, then the newest."""

from __future__ import annotations

from typing import Any

from hikone_carrom.server.lobby.book import LiveInfo
from hikone_carrom.server.rooms.registry import RoomRegistry
from hikone_carrom.server.rooms.room_views import seat_name

__all__ = ["MAX_LIVE_SHOWN", "live_games"]

MAX_LIVE_SHOWN = 50
"""Live games listed at most."""


def live_games(
    registry: RoomRegistry, paired: dict[str, LiveInfo], limit: int = MAX_LIVE_SHOWN
) -> list[dict[str, Any]]:
    """The live games, at most ``limit``: id, players, rated, each seat's rating where known,
    when it started (ISO 8601 UTC, for the games the lobby paired)."""
    games = []
    for order, room in enumerate(registry.rooms.values()):
        if room.stale or room.config.mode != "online" or room.waiting:
            continue
        if room.match.outcome is not None:
            continue
        info = paired.get(room.id)
        ratings = [None] * room.config.players if info is None else list(info.ratings)
        games.append(
            (
                max((r for r in ratings if r is not None), default=None),
                "" if info is None else info.started,
                order,
                {
                    "id": room.id,
                    "players": [seat_name(room, s.seat) for s in room.seats],
                    "minutes": room.config.minutes,
                    "rated": False if info is None else info.rated,
                    "ratings": ratings,
                    "started": None if info is None else info.started,
                },
            )
        )
    newest_first = sorted(games, key=lambda g: (g[1], g[2]), reverse=True)
    best = sorted(newest_first, key=lambda g: (g[0] is None, -(g[0] or 0.0)))
    return [g[3] for g in best[:limit]]
