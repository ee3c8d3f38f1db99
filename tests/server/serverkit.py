"""Real server processes for the multi-process tests (``hikone-carrom serve`` in subprocesses), and
a small WebSocket client that checks the event numbers it sees."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets.sync.client
from websockets.exceptions import ConnectionClosed

from hikone_carrom.bench.throwaway import GameServer


@contextlib.contextmanager
def running_servers(
    count: int, db_url: str, redis_url: str, log_dir: Path
) -> Iterator[tuple[GameServer, ...]]:
    """:func:`start_servers`, stopped at the end."""
    servers = start_servers(count, db_url, redis_url, log_dir)
    try:
        yield tuple(servers)
    finally:
        for server in servers:
            server.stop()


def online_room(first: GameServer, second: GameServer) -> tuple[str, str, str]:
    """A room made on ``first`` (which owns it) whose second seat is taken through ``second``:
    (room id, seat 0's token, seat 1's token)."""
    made = httpx.post(f"{first.base}/api/rooms", json={"mode": "online", "name": "A"}).json()
    seat = httpx.post(f"{second.base}/api/rooms/{made['room_id']}/seats/1", json={"name": "B"})
    assert seat.status_code == 200, seat.text
    return made["room_id"], made["token"], seat.json()["token"]


def start_servers(
    count: int, db_url: str, redis_url: str, log_dir: Path, *options: str
) -> list[GameServer]:
    """``count`` server processes sharing the store and Redis (one thinking worker each)."""
    servers: list[GameServer] = []
    try:
        for _ in range(count):
            servers.append(
                GameServer(
                    db_url, "--redis", redis_url, "--think-workers", "1", *options, log_dir=log_dir
                )
            )
        for server in servers:
            server.wait_ready()
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers


class Player:
    """One client of a room: it says hello, keeps the last event number, the state and the
    presence (each seat's ``online`` and ``since``), and checks that the events it sees are
    numbered without gaps or repeats."""

    def __init__(self, server: GameServer, room_id: str, token: str | None) -> None:
        self.room_id = room_id
        self.token = token
        self.seq = 0
        self.state: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.answers: list[dict[str, Any]] = []
        self.presence: list[dict[str, Any]] = []
        self.connect(server)

    def connect(self, server: GameServer) -> None:
        self._stack = contextlib.ExitStack()
        url = f"{server.ws}/ws/rooms/{self.room_id}"
        self.conn = self._stack.enter_context(websockets.sync.client.connect(url))
        self.conn.send(json.dumps({"type": "hello", "token": self.token, "last_seq": self.seq}))
        snap = self._next()
        assert snap["type"] == "snapshot", snap
        assert snap["seq"] >= self.seq, "a snapshot went back in time"
        self.seq = snap["seq"]
        self.state = snap["state"]
        self.presence = snap["presence"]

    def _next(self, timeout: float = 60.0) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.conn.recv(timeout=timeout))
        return msg

    def send(self, **message: Any) -> None:
        self.conn.send(json.dumps(message))

    def until_seq(self, seq: int, timeout: float = 60.0) -> None:
        """Read until event ``seq`` arrived, checking the numbering."""
        self.until(lambda p: p.seq >= seq, timeout)

    def until(self, done: Callable[[Player], bool], timeout: float = 60.0) -> float:
        """Read until ``done(self)`` holds, checking the numbering; how long (s) it took."""
        start = time.monotonic()
        while not done(self):
            left = start + timeout - time.monotonic()
            assert left > 0, f"not within {timeout} s: presence {self.presence}"
            msg = self._next(left)
            if msg["type"] == "event":
                assert msg["seq"] == self.seq + 1, f"event {msg['seq']} after {self.seq}"
                self.seq = msg["seq"]
                self.state = msg["event"].get("state", self.state)
                self.events.append(msg["event"])
            elif msg["type"] == "presence":
                self.presence = msg["seats"]
            elif msg["type"] != "pong":
                self.answers.append(msg)
        return time.monotonic() - start

    def online(self) -> list[bool]:
        """Whether each seat is online, as this client was last told."""
        return [bool(p["online"]) for p in self.presence]

    def closed(self, timeout: float = 30.0) -> int | None:
        """Wait until the server closes the connection; its close code."""
        try:
            while True:
                msg = self._next(timeout)
                if msg["type"] == "event":
                    assert msg["seq"] == self.seq + 1
                    self.seq = msg["seq"]
                    self.state = msg["event"]["state"]
                    self.events.append(msg["event"])
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None

    def close(self) -> None:
        self._stack.close()
