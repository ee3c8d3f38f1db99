"""A restarted server answers at once: the events in play are loaded again and the thinking
workers warmed behind it, not before it takes requests (issue 47: 31.6 s to answer again)."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.thinking.pool import ProcessBackend
from hikone_carrom.server.tournaments.hub import TournamentHub


def test_the_server_answers_before_it_has_resumed_events_and_warmed_thinking(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    done: list[str] = []

    async def slow(name: str) -> None:
        await asyncio.sleep(2.0)  # a hall's events, a cold machine
        done.append(name)

    async def resume(_hub: TournamentHub) -> None:
        await slow("resume")

    async def warm(_backend: ProcessBackend) -> None:
        await slow("warm")

    monkeypatch.setattr(TournamentHub, "resume", resume)
    monkeypatch.setattr(ProcessBackend, "start", warm)
    settings = ServerSettings(db_url=db_url, ai_delay_s=0.0, warm_thinking=True)
    with TestClient(create_app(settings)) as client:
        assert client.get("/api/health").status_code == 200
        assert done == []  # it answered while both were still going
        deadline = 50
        while len(done) < 2 and deadline:
            client.portal.call(asyncio.sleep, 0.1)
            deadline -= 1
        assert sorted(done) == ["resume", "warm"]  # and both finish behind it
