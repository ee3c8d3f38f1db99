"""Helpers to talk to a room in tests: create it, say hello, send messages, aim a shot."""

from __future__ import annotations

import json
import math
from typing import Any

from fastapi.testclient import TestClient

from hikone_carrom.bench.server_load import placement_point


def create_room(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("mode", "hotseat")
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "token": token, "last_seq": 0}))
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "snapshot"
    return msg


def send(ws: Any, **msg: Any) -> None:
    ws.send_text(json.dumps(msg))


def receive(ws: Any, *skip: str) -> dict[str, Any]:
    """The next message that is not presence (which online rooms send whenever a seat's client
    comes or goes) nor of a type in ``skip``."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] != "presence" and msg["type"] not in skip:
            return msg


def event(ws: Any) -> dict[str, Any]:
    """The next numbered event, skipping presence."""
    msg = receive(ws)
    assert msg["type"] == "event", msg
    return msg


def straight_shot(state: dict[str, Any], speed: float = 2.5) -> dict[str, Any]:
    """A legal shot for the shooter: from the placement's point (or the middle of the line)
    straight towards the centre of the board."""
    x, y = placement_point(state["placement"])
    return {
        "type": "shot",
        "seat": state["shooter"],
        "x": x,
        "y": y,
        "angle": math.atan2(-y, -x) + 0.05,
        "speed": speed,
    }
