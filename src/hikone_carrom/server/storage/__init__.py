"""Persistent game store (SQLAlchemy 2 + Alembic): rooms, seats, games, numbered events,
post-game analyses."""

from hikone_carrom.server.storage.store import (
    GameStore,
    RoomBrief,
    StoredAnalysis,
    StoredEvent,
    StoredGame,
    StoredRoom,
    StoredSeat,
    StoreError,
    hash_token,
)

__all__ = [
    "GameStore",
    "RoomBrief",
    "StoreError",
    "StoredAnalysis",
    "StoredEvent",
    "StoredGame",
    "StoredRoom",
    "StoredSeat",
    "hash_token",
]
