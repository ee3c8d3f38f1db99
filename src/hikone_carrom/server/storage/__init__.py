"""Persistent game store (SQLAlchemy 2 + Alembic): rooms, seats, games, numbered events,
post-game analyses."""

from hikone_carrom.server.storage.store import (
    EventWrite,
    GameStore,
    RoomBrief,
    StoredAnalysis,
    StoredEvent,
    StoredGame,
    StoredRoom,
    StoredSeat,
    StoreError,
    StoreFenced,
    StoreUnavailable,
    hash_token,
)

__all__ = [
    "EventWrite",
    "GameStore",
    "RoomBrief",
    "StoreError",
    "StoreFenced",
    "StoreUnavailable",
    "StoredAnalysis",
    "StoredEvent",
    "StoredGame",
    "StoredRoom",
    "StoredSeat",
    "hash_token",
]
