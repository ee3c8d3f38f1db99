"""Fixtures: an app on a fresh SQLite file, clients, and helpers to talk to a room."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hikone_carrom.server.app import create_app
from hikone_carrom.server.config import ServerSettings


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    app = create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0))
    with TestClient(app) as c:
        yield c
