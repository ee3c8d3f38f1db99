"""Persistent game store (SQLAlchemy 2 + Alembic): rooms, seats, games, numbered events."""

from hikone_carrom.server.storage.store import (
    EventWrite,
    GameStore,
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
    "StoreError",
    "StoreFenced",
    "StoreUnavailable",
    "StoredEvent",
    "StoredGame",
    "StoredRoom",
    "StoredSeat",
    "hash_token",
]
