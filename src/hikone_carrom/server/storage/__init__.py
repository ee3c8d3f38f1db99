"""Persistent game store (SQLAlchemy 2 + Alembic): rooms, seats, games, numbered events."""

from hikone_carrom.server.storage.store import (
    GameStore,
    StoredEvent,
    StoredGame,
    StoredRoom,
    StoredSeat,
    StoreError,
    hash_token,
)

__all__ = [
    "GameStore",
    "StoreError",
    "StoredEvent",
    "StoredGame",
    "StoredRoom",
    "StoredSeat",
    "hash_token",
]
