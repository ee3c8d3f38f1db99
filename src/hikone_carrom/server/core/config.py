"""Server settings: where games are stored and where the server listens."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "DB_ENV_VAR",
    "MAX_THINK_WORKERS",
    "ORGANISER_KEY_ENV_VAR",
    "ORGANISER_KEY_MIN_CHARS",
    "ORIGINS_ENV_VAR",
    "WS_DEFLATE",
    "ServerSettings",
    "available_cores",
    "default_db_url",
    "default_think_workers",
    "memory_store_problem",
    "organiser_key_problem",
    "user_data_dir",
]

WS_DEFLATE = False
"""Whether WebSocket messages are compressed (permessage-deflate). Off: compressing each event
(about 15 KB) once per client costs the server more than the bandwidth it saves on a LAN or a
phone network (a shot every few seconds)."""

DB_ENV_VAR = "HIKONE_CARROM_DB"
"""Environment variable holding a SQLAlchemy URL for the game store."""

ORGANISER_KEY_ENV_VAR = "HIKONE_CARROM_ORGANISER_KEY"
"""Environment variable holding the organiser's key (``--organiser-key``)."""

ORGANISER_KEY_MIN_CHARS = 16
"""Shortest organiser's key a server accepts (a made one is 43 characters)."""

ORIGINS_ENV_VAR = "HIKONE_CARROM_ALLOWED_ORIGINS"
"""Environment variable holding the other sites' origins whose pages may open the server's
WebSockets, separated by commas or spaces (like ``--allowed-origin``)."""


def user_data_dir() -> Path:
    """The user's data folder for this game (``$XDG_DATA_HOME/hikone-carrom``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "hikone-carrom"


def default_db_url() -> str:
    """The store URL: ``$HIKONE_CARROM_DB`` if set, else SQLite in the user's data folder."""
    from_env = os.environ.get(DB_ENV_VAR)
    if from_env:
        return from_env
    return f"sqlite:///{user_data_dir() / 'games.sqlite3'}"


MAX_THINK_WORKERS = 32
"""Most thinking processes a server starts by default, however many cores it has."""


def available_cores() -> int:
    """The cores this process may run on: ``os.process_cpu_count()`` (Python 3.13), else its
    CPU affinity, else every core of the machine."""
    counted = getattr(os, "process_cpu_count", None)
    if counted is not None:
        return int(counted() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def default_think_workers() -> int:
    """Thinking processes by default: one per core the server may use but one (for the server
    itself and the analysis worker), at least one, at most :data:`MAX_THINK_WORKERS`."""
    return max(1, min(MAX_THINK_WORKERS, available_cores() - 1))


@dataclass(frozen=True)
class ServerSettings:
    """How one server instance runs.

    ``db_url`` is any SQLAlchemy URL (SQLite, PostgreSQL, ...). ``sim_workers`` is the number of
    threads that simulate people's shots off the event loop; ``think_workers`` processes run the
    computer players and hints, with at most ``think_queue`` jobs waiting on the server and
    ``think_per_room`` per room (a hint over either limit is refused with ``busy``);
    ``analysis_workers`` processes, at the idle CPU priority, analyse finished games (0: the
    thinking processes do, after every computer turn and hint waiting).
    ``ai_delay_s`` is a pause (s) before a computer player shoots so that people can follow the
    game. Each WebSocket connection may send ``message_burst`` messages at once and
    ``message_rate`` messages/s after that; more are dropped with an error. At most
    ``send_buffer_chars`` characters may wait to be sent to one client; a client further behind
    is disconnected (it resyncs on reconnect).
    ``store_timeout_s`` bounds how long a write waits for a locked or unreachable store before the
    change is refused with ``store_unavailable``. A room nobody has used for ``room_idle_s`` leaves
    memory (it is rebuilt from the store on its next use). One client address may make
    ``rooms_per_minute`` rooms at once and per minute, and open ``sockets_per_second`` new
    WebSockets a second (ten seconds' worth at once; all socket kinds together). With
    ``allowed_hosts`` the server answers only requests whose ``Host`` names one of them (set for
    a server on a loopback address).
    A browser page may open a WebSocket only from the server's own site, a loopback name, one of
    ``allowed_hosts`` or one of ``allowed_origins`` (``https://host[:port]``).
    ``redis_url`` makes this process one of several sharing the store (room leases of
    ``lease_s``); ``ray_address`` sends thinking to a Ray cluster instead of local processes.
    With ``warm_thinking`` the thinking workers start and load the expert before the server
    takes requests (``hikone-carrom serve``), so the first computer move is as quick as any.
    Creating events and boards needs ``organiser_key`` (None: the key kept with the store, made
    on first start); one client address may create ``creations_per_minute`` events or boards at
    once and per minute.
    """

    db_url: str
    sim_workers: int = 2
    think_workers: int = field(default_factory=default_think_workers)
    think_queue: int = 16
    think_per_room: int = 2
    analysis_workers: int = 1
    ai_delay_s: float = 0.6
    message_burst: int = 30
    message_rate: float = 10.0
    send_buffer_chars: int = 512 * 1024
    store_timeout_s: float = 5.0
    room_idle_s: float = 600.0
    rooms_per_minute: float = 30.0
    sockets_per_second: float = 2.0
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    redis_url: str | None = None
    lease_s: float = 4.0
    ray_address: str | None = None
    warm_thinking: bool = False
    organiser_key: str | None = None
    creations_per_minute: float = 60.0


def memory_store_problem(url: str) -> str | None:
    """Why ``url`` cannot be a server's store if it is an in-memory SQLite database, else None."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        return (
            "an in-memory SQLite store would lose every game when the server stops; "
            "give a file instead, e.g. --db sqlite:///games.sqlite3"
        )
    return None


def organiser_key_problem(key: str) -> str | None:
    """Why ``key`` cannot be the organiser's key, in one sentence, or None."""
    if len(key) < ORGANISER_KEY_MIN_CHARS or not key.isprintable() or " " in key:
        return (
            f"the organiser's key must be at least {ORGANISER_KEY_MIN_CHARS} printable "
            "characters without spaces (or leave it out: the server makes one)"
        )
    return None
