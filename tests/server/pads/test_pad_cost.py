"""What one pad request costs the server (issue 47: about 14 ms of CPU an entry): the ops of one
request are stored in one transaction, and the board's answer does not describe every earlier
entry again (a judged entry never changes)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from tests.server.padkit import Pad, create_board

from hikone_carrom.server.pads import boards, views


def _shot_and_clock(pad: Pad, k: int) -> list[dict[str, Any]]:
    """A shot and the clock's reading after it, as the pad sends them in one request."""
    reading = {"elapsed": 7.5 * k, "started": True, "running": True, "limit": 300}
    return [pad.shot(), pad.op("clock", clock=reading, wall_ms=time.time() * 1000)]


def test_the_ops_of_one_request_are_stored_in_one_transaction(client: TestClient) -> None:
    b = create_board(client)
    pad = Pad(client, b, "device-cost-1")
    pad.setup(["田中", "佐藤"], minutes=5)
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    commits: list[int] = []

    def committed(_conn: Any) -> None:
        commits.append(1)

    event.listen(engine, "commit", committed)
    try:
        for k in range(1, 4):
            answer = pad.send(*_shot_and_clock(pad, k))
            assert answer["ack"] == pad.seq
    finally:
        event.remove(engine, "commit", committed)
    assert len(commits) == 3  # one per request, not one per op
    board = client.get(f"/api/boards/{b['id']}").json()["board"]
    assert len(board["match"]["steps"]) == 3
    assert board["match"]["clock"]["elapsed"] == 22.5


def test_an_answer_describes_only_the_new_entries(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    b = create_board(client)
    pad = Pad(client, b, "device-cost-2")
    pad.setup(["田中", "佐藤"], minutes=5)
    made: list[int] = []
    real = views.step_view

    def counted(step: Any) -> dict[str, Any]:
        made.append(step.n)
        return real(step)

    monkeypatch.setattr(views, "step_view", counted)
    monkeypatch.setattr(boards, "step_view", counted)
    per_request = []
    for k in range(1, 21):
        made.clear()
        answer = pad.send(*_shot_and_clock(pad, k))
        assert [s["n"] for s in answer["board"]["match"]["steps"]] == list(range(1, k + 1))
        per_request.append(len(made))
    assert max(per_request[5:]) <= 2  # the new entry (event and answer), never the whole match
