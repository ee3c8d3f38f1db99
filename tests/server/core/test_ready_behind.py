"""A restarted server answers at once: the events in play are loaded again behind it, not
before it takes requests; its thinking workers are warm before it answers (the first computer
move as quick as any other)."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.thinking.pool import ProcessBackend
from hikone_carrom.server.tournaments.hub import TournamentHub


def test_the_server_answers_before_it_has_resumed_events_but_after_warming_thinking(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    done: list[str] = []

    async def slow(name: str, seconds: float) -> None:
        await asyncio.sleep(seconds)  # a hall's events, a cold machine
        done.append(name)

    async def resume(_hub: TournamentHub) -> None:
        await slow("resume", 2.0)

    async def warm(_backend: ProcessBackend) -> None:
        await slow("warm", 0.2)

    monkeypatch.setattr(TournamentHub, "resume", resume)
    monkeypatch.setattr(ProcessBackend, "start", warm)
    settings = ServerSettings(db_url=db_url, ai_delay_s=0.0, warm_thinking=True)
    with TestClient(create_app(settings)) as client:
        assert client.get("/api/health").status_code == 200
        assert done == ["warm"]  # it answered warm, while the events were still loading
        deadline = 50
        while len(done) < 2 and deadline:
            client.portal.call(asyncio.sleep, 0.1)
            deadline -= 1
        assert done == ["warm", "resume"]  # and they finish behind it
