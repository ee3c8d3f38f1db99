"""The browser game's server: FastAPI + uvicorn, rooms, WebSocket play, SQL storage.

Authoritative: the server simulates every shot with the library (``Match.play``) off the event
loop; browsers only animate the tracks it sends. ``hikone-carrom play`` calls :func:`main`.
"""

from hikone_carrom.server.config import DB_ENV_VAR, ServerSettings, default_db_url, user_data_dir
from hikone_carrom.server.launch import main

__all__ = [
    "DB_ENV_VAR",
    "ServerSettings",
    "create_app",
    "default_db_url",
    "main",
    "user_data_dir",
]


def __getattr__(name: str) -> object:
    """``create_app`` is imported on first use (it pulls in FastAPI)."""
    if name == "create_app":
        from hikone_carrom.server.app import create_app

        return create_app
    raise AttributeError(name)
