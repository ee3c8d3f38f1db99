"""Fixtures: an app on a fresh SQLite file, clients, and a throwaway PostgreSQL server so that the
store and a room's whole life run against both back ends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.outagekit import Outage, store_and_outage
from tests.server.serverkit import running_servers

from hikone_carrom.bench.throwaway import (
    MISSING_MESSAGE,
    GameServer,
    PostgresCluster,
    RedisServer,
    find_bin_dir,
)
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def _postgres() -> Iterator[PostgresCluster]:
    bin_dir = find_bin_dir()
    if bin_dir is None:
        pytest.fail(MISSING_MESSAGE)
    cluster = PostgresCluster.start(bin_dir)
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PostgresCluster]:
    """One PostgreSQL server for the session (no skip: missing binaries fail the test)."""
    yield from _postgres()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """Debian's redis-server for the session (no skip: a missing binary fails the test)."""
    server = RedisServer.start()
    yield server
    server.stop()


@pytest.fixture
def two_servers(
    pg_url: str, redis_server: RedisServer, tmp_path: Path
) -> Iterator[tuple[GameServer, ...]]:
    """Two game server processes sharing a fresh PostgreSQL database and the session's Redis."""
    with running_servers(2, pg_url, redis_server.url, tmp_path) as servers:
        yield servers


@pytest.fixture
def own_pg() -> Iterator[PostgresCluster]:
    """A PostgreSQL server of this test alone, which the test may stop and start again."""
    yield from _postgres()


@pytest.fixture
def pg_url(pg_cluster: PostgresCluster) -> str:
    """A new empty PostgreSQL database."""
    return pg_cluster.database()


@pytest.fixture(params=BACKENDS)
def any_db_url(request: pytest.FixtureRequest) -> str:
    """The same test on a fresh SQLite file and on a fresh PostgreSQL database."""
    url: str = request.getfixturevalue("db_url" if request.param == "sqlite" else "pg_url")
    return url


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    app = create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0))
    with TestClient(app) as c:
        yield c


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Outage]:
    """A store URL and a way to make it fail for real (outage tests): SQLite, then PostgreSQL."""
    return store_and_outage(request, tmp_path)
