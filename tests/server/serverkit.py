"""Real server processes for the multi-process tests: ``hikone-carrom serve`` in a subprocess,
and a small WebSocket client that checks the event numbers it sees."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import httpx
import websockets.sync.client
from websockets.exceptions import ConnectionClosed


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """``hikone-carrom serve --db URL --redis URL`` on a free port."""

    def __init__(self, db_url: str, redis_url: str) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        command = [sys.executable, "-m", "hikone_carrom.cli", "serve", "--port", str(self.port)]
        command += ["--db", db_url, "--redis", redis_url, "--think-workers", "1"]
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 90
        while True:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"the server stopped: {err}")
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    @property
    def ws(self) -> str:
        return self.base.replace("http://", "ws://")

    def kill9(self) -> None:
        """Stop the process at once, as a crash would."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Player:
    """One client of a room: it says hello, keeps the last event number and the state, and
    checks that the events it sees are numbered without gaps or repeats."""

    def __init__(self, server: ServerProcess, room_id: str, token: str | None) -> None:
        self.room_id = room_id
        self.token = token
        self.seq = 0
        self.state: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.answers: list[dict[str, Any]] = []
        self.connect(server)

    def connect(self, server: ServerProcess) -> None:
        self._stack = contextlib.ExitStack()
        url = f"{server.ws}/ws/rooms/{self.room_id}"
        self.conn = self._stack.enter_context(websockets.sync.client.connect(url))
        self.conn.send(json.dumps({"type": "hello", "token": self.token, "last_seq": self.seq}))
        snap = self._next()
        assert snap["type"] == "snapshot", snap
        assert snap["seq"] >= self.seq, "a snapshot went back in time"
        self.seq = snap["seq"]
        self.state = snap["state"]

    def _next(self, timeout: float = 60.0) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.conn.recv(timeout=timeout))
        return msg

    def send(self, **message: Any) -> None:
        self.conn.send(json.dumps(message))

    def until_seq(self, seq: int, timeout: float = 60.0) -> None:
        """Read until event ``seq`` arrived, checking the numbering."""
        while self.seq < seq:
            msg = self._next(timeout)
            if msg["type"] == "event":
                assert msg["seq"] == self.seq + 1, f"event {msg['seq']} after {self.seq}"
                self.seq = msg["seq"]
                self.state = msg["event"]["state"]
                self.events.append(msg["event"])
            elif msg["type"] != "pong":
                self.answers.append(msg)

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
