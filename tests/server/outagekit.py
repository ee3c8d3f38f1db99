"""Real store outages for tests: a SQLite file another connection holds an exclusive lock on,
and a PostgreSQL server stopped; with a store timeout short enough for a test."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

from hikone_carrom.bench.throwaway import PostgresCluster
from hikone_carrom.server.core.config import ServerSettings

Outage = Callable[[], AbstractContextManager[None]]
"""Starts an outage of the store for the ``with`` block."""


def settings(url: str) -> ServerSettings:
    """A server whose store calls give up after half a second."""
    return ServerSettings(db_url=url, ai_delay_s=0.0, store_timeout_s=0.5)


@contextmanager
def sqlite_locked(path: Path) -> Iterator[None]:
    """Another connection holds an exclusive transaction on the SQLite file."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


@contextmanager
def pg_stopped(cluster: PostgresCluster) -> Iterator[None]:
    """The PostgreSQL server is down (its open connections cut)."""
    cluster.pause()
    try:
        yield
    finally:
        cluster.resume()


def store_and_outage(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Outage]:
    """The store URL and its outage for ``request.param`` "sqlite" or "postgresql" (a server
    of the test's own, which it may stop)."""
    if request.param == "sqlite":
        path = tmp_path / "games.sqlite3"
        return f"sqlite:///{path}", lambda: sqlite_locked(path)
    cluster: PostgresCluster = request.getfixturevalue("own_pg")
    return cluster.database(), lambda: pg_stopped(cluster)
