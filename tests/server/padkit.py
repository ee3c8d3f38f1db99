"""Helpers to drive a scoring pad's REST API in tests: create a board, send numbered ops."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.organiserkit import organiser


def create_board(client: TestClient, name: str = "第1台") -> dict[str, Any]:
    r = client.post("/api/boards", json={"name": name}, headers=organiser(client))
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


class Pad:
    """One pad device: numbers its ops 1, 2, ... and sends them."""

    def __init__(self, client: TestClient, board: dict[str, Any], device: str) -> None:
        self.client = client
        self.board = board
        self.device = device
        self.seq = 0
        self.match = 0

    def op(self, op: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        if op == "setup":
            self.match += 1
        return {"seq": self.seq, "op": op, "match": self.match, **fields}

    def send(self, *ops: dict[str, Any], status: int = 200) -> dict[str, Any]:
        r = self.client.post(
            f"/api/boards/{self.board['id']}/ops",
            json={"device": self.device, "ops": list(ops)},
            headers=auth(self.board["token"]),
        )
        assert r.status_code == status, r.text
        data: dict[str, Any] = r.json()
        return data

    def setup(self, names: list[str], minutes: float | None = None, **kw: Any) -> dict[str, Any]:
        match_time = None if minutes is None else minutes * 60
        return self.send(self.op("setup", setup={"names": names, "match_time_s": match_time, **kw}))

    def shot(self, **tap: Any) -> dict[str, Any]:
        return self.op("add", entry={"kind": "shot", "tap": tap, "at": None})
