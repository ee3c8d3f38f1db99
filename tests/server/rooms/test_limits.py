"""Bounded memory and REST limits: idle rooms leave memory and are rebuilt
on their next use; one address may only make so many rooms a minute."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient
from tests.server.roomkit import create_room, hello, send, straight_shot

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.ratelimit import AddressRate
from hikone_carrom.server.rooms.registry import RoomRegistry


def _registry(client: TestClient) -> RoomRegistry:
    registry: RoomRegistry = client.app.state.registry  # type: ignore[attr-defined]
    return registry


def test_an_idle_room_leaves_memory_and_is_rebuilt_on_its_next_use(tmp_path: Path) -> None:
    settings = ServerSettings(
        db_url=f"sqlite:///{tmp_path / 'games.sqlite3'}", ai_delay_s=0.0, room_idle_s=0.2
    )
    with TestClient(create_app(settings)) as client:
        made = create_room(client, mode="hotseat", players=2)
        rid = made["room_id"]
        rooms = _registry(client).rooms
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            state = hello(ws, made["token"])["state"]
            send(ws, **straight_shot(state))
            after = ws.receive_json()["event"]["state"]
            time.sleep(0.8)  # four idle times: a watched room stays
            assert rid in rooms
        deadline = time.monotonic() + 20.0
        while rid in rooms and time.monotonic() < deadline:
            time.sleep(0.02)
        assert rid not in rooms, "the idle room is still in memory"
        snap = client.get(f"/api/rooms/{rid}")
        assert snap.status_code == 200 and rid in rooms
        assert snap.json()["seq"] == 1
        for key in ("layout", "counts", "shooter", "placement", "actions"):
            assert snap.json()["state"][key] == after[key], key
        with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
            state = hello(ws, made["token"])["state"]
            send(ws, **straight_shot(state))
            assert ws.receive_json()["seq"] == 2


def test_rooms_per_minute_are_limited_per_address(tmp_path: Path) -> None:
    settings = ServerSettings(db_url=f"sqlite:///{tmp_path / 'g.sqlite3'}", rooms_per_minute=3)
    with TestClient(create_app(settings)) as client:
        for _ in range(3):
            create_room(client, mode="hotseat")
        refused = client.post("/api/rooms", json={"mode": "hotseat"})
        assert refused.status_code == 429
        detail = refused.json()["detail"]
        assert detail["code"] == "rate_limited"
        assert "3 a minute" in detail["en"] and "1分に 3 部屋まで" in detail["ja"]


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_each_address_has_its_own_bucket_and_few_are_remembered() -> None:
    clock = _Clock()
    rate = AddressRate(2, addresses=3, clock=clock)
    assert [rate.allow("a") for _ in range(3)] == [True, True, False]
    assert rate.allow("b") and rate.allow("b") and not rate.allow("b")
    clock.now += 30.0  # one room refilled at 2 a minute
    assert rate.allow("a") and not rate.allow("a")
    for address in ("c", "d", "e", "f"):
        rate.allow(address)
    assert len(rate) <= 3
