"""A client that stops reading costs the server a bounded buffer, then its connection, on a
real uvicorn server over loopback."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import httpx
import websockets.sync.client
from tests.server.roomkit import straight_shot
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

from hikone_carrom.bench.server import serve_app_in_thread
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.rooms.registry import RoomRegistry

BUFFER_CHARS = 64 * 1024


def _never_reading(base: str, room_id: str) -> tuple[socket.socket, ClientProtocol]:
    """A WebSocket client with a tiny receive buffer that, after the handshake, never reads."""
    uri = parse_uri(base.replace("http://", "ws://") + f"/ws/rooms/{room_id}")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((uri.host, uri.port))
    protocol = ClientProtocol(uri)
    protocol.send_request(protocol.connect())
    sock.sendall(b"".join(protocol.data_to_send()))
    while not protocol.events_received():
        data = sock.recv(1)  # only the handshake response, byte by byte: nothing after it
        assert data, "the server closed during the handshake"
        protocol.receive_data(data)
    assert protocol.handshake_exc is None
    return sock, protocol


def _say(sock: socket.socket, protocol: ClientProtocol, message: dict[str, object]) -> None:
    protocol.send_text(json.dumps(message).encode())
    sock.sendall(b"".join(protocol.data_to_send()))


def test_a_client_that_never_reads_is_dropped_and_the_room_plays_on(tmp_path: Path) -> None:
    settings = ServerSettings(
        db_url=f"sqlite:///{tmp_path / 'games.sqlite3'}",
        ai_delay_s=0.0,
        message_burst=100_000,
        message_rate=100_000.0,
        send_buffer_chars=BUFFER_CHARS,
    )
    app = create_app(settings)
    with serve_app_in_thread(app) as base:
        registry: RoomRegistry = app.state.registry
        made = httpx.post(f"{base}/api/rooms", json={"mode": "hotseat"}).json()
        rid = made["room_id"]
        sock, protocol = _never_reading(base, rid)
        sock.settimeout(0.5)
        try:
            _say(sock, protocol, {"type": "hello", "token": None, "last_seq": 0})
            room = registry.rooms[rid]
            deadline = time.monotonic() + 60.0
            while not room.subscribers and time.monotonic() < deadline:
                time.sleep(0.01)
            most = 0
            while room.subscribers and time.monotonic() < deadline:
                try:  # ask for snapshot after snapshot, reading none
                    for _ in range(50):
                        _say(sock, protocol, {"type": "resync", "last_seq": 0})
                except OSError:
                    time.sleep(0.05)  # the server no longer reads us either
                most = max([most, *(getattr(s, "pending_chars", 0) for s in room.subscribers)])
            assert not room.subscribers, "the client that never reads is still connected"
            assert most <= BUFFER_CHARS
        finally:
            sock.close()
        # everyone else plays on
        url = base.replace("http://", "ws://") + f"/ws/rooms/{rid}"
        with websockets.sync.client.connect(url) as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"], "last_seq": 0}))
            snap = json.loads(ws.recv())
            ws.send(json.dumps(straight_shot(snap["state"])))
            event = json.loads(ws.recv())
            assert event["type"] == "event" and event["seq"] == 1
