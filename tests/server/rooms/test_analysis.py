"""Post-game analysis through the server: asked over the WebSocket or REST, computed in the
background one shot at a time with progress to everyone in the room, stored, resumed after a
restart, and refused for games that are not over."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, event, hello, receive, send, straight_shot

from hikone_carrom.ai.analysis import ANALYSIS_VERSION, Analysis, analyse, shot_numbers
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.rooms import analysis_jobs as analysis_module
from hikone_carrom.server.storage import StoredAnalysis

_DRAWS = 16


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The library's analysis with fewer draws (the same expert), counting each step's shots."""
    calls: list[list[int]] = []

    async def quick(
        jobs: analysis_module.AnalysisJobs, game_id: str, record: dict[str, Any], n: int
    ) -> Analysis:
        calls.append([n])
        return analyse(record, [n], draws=_DRAWS)

    monkeypatch.setattr(analysis_module.AnalysisJobs, "_step", quick)
    return calls


def _finished_game(client: TestClient, shots: int = 3) -> tuple[str, str]:
    """A hot-seat game of ``shots`` shots that red then resigns: (room id, its token)."""
    made = create_room(client, mode="hotseat", players=2)
    rid = made["room_id"]
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        state = hello(ws, made["token"])["state"]
        for n in range(shots):
            send(ws, **straight_shot(state, speed=2.0 + 0.5 * n))
            state = event(ws)["event"]["state"]
        send(ws, type="resign", seat=0)
        event(ws)
    return rid, made["token"]


def test_analysis_over_the_websocket_reports_progress_to_the_room(
    client: TestClient, counted: list[list[int]]
) -> None:
    rid, token = _finished_game(client)
    game_id = f"{rid}-1"
    assert client.get(f"/api/games/{game_id}/analysis").json()["status"] == "none"
    with (
        client.websocket_connect(f"/ws/rooms/{rid}") as player,
        client.websocket_connect(f"/ws/rooms/{rid}") as watcher,
    ):
        hello(player, token)
        hello(watcher, None)
        send(watcher, type="analyse", id="an-1")  # anyone in the room may ask
        first = receive(watcher)
        assert first["type"] == "analysis" and first["status"] in ("queued", "running")
        assert first["id"] == "an-1"  # the answer to the asking client
        seen: list[tuple[str, int]] = []
        while True:
            msg = receive(player)
            assert msg["type"] == "analysis" and msg["game_id"] == game_id and msg["total"] == 3
            seen.append((msg["status"], msg["done"]))
            if msg["status"] == "done":
                break
        assert seen[-1] == ("done", 3) and ("running", 1) in seen and ("running", 2) in seen
        result = Analysis.from_dict(msg["result"])
        record = client.get(f"/api/games/{game_id}/record").json()
        assert result == analyse(record, draws=_DRAWS)  # reproducible from the record
        assert msg["result"]["accuracy"] == [result.accuracy(0), result.accuracy(1)]
        # asked again: the stored answer, nothing recomputed
        send(player, type="analyse")
        again = receive(player, "event")
        while again["status"] != "done":
            again = receive(player, "event")
        assert again["result"] == msg["result"]
    assert counted == [[n] for n in shot_numbers(record)]
    stored = client.get(f"/api/games/{game_id}/analysis").json()
    assert stored["status"] == "done" and stored["result"] == msg["result"]


def test_only_finished_games_of_the_room_are_analysed(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=2)
    rid = made["room_id"]
    other, _ = _finished_game(client, shots=1)
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        hello(ws, made["token"])
        for msg, code in (
            ({"type": "analyse"}, "not_over"),
            ({"type": "analyse", "game_id": f"{other}-1"}, "no_game"),
        ):
            send(ws, **msg)
            err = receive(ws)
            assert err["type"] == "error" and err["code"] == code and err["message"]["ja"]
        ws.send_text('{"type": "analyse", "game_id": "../x"}')
        assert receive(ws)["code"] == "bad_message"
    assert client.post(f"/api/games/{rid}-1/analysis").status_code == 409
    assert client.post("/api/games/none-1/analysis").status_code == 404
    assert client.get("/api/games/none-1/analysis").status_code == 404


def test_an_interrupted_analysis_resumes_where_it_stopped(
    db_url: str, counted: list[list[int]]
) -> None:
    settings = ServerSettings(db_url=db_url, ai_delay_s=0.0)
    with TestClient(create_app(settings)) as first:
        rid, _ = _finished_game(first)
        game_id = f"{rid}-1"
        record = first.get(f"/api/games/{game_id}/record").json()
        numbers = shot_numbers(record)
        part = analyse(record, numbers[:1], draws=_DRAWS)
        store = first.app.state.store  # type: ignore[attr-defined]
        store.save_analysis(
            StoredAnalysis(  # the server stopped here
                game_id, ANALYSIS_VERSION, "running", 1, 3, part.to_dict()
            )
        )
    with TestClient(create_app(settings)) as second:
        assert second.get(f"/api/games/{game_id}/analysis").json()["status"] == "stopped"
        started = second.post(f"/api/games/{game_id}/analysis")
        assert started.status_code == 202 and started.json()["done"] == 1
        while (now := second.get(f"/api/games/{game_id}/analysis").json())["status"] != "done":
            assert now["status"] in ("queued", "running")
            time.sleep(0.1)  # polling, as the replay page does
        assert counted == [[n] for n in numbers[1:]]
        assert Analysis.from_dict(now["result"]) == analyse(record, draws=_DRAWS)
