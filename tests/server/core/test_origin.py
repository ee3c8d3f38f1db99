"""A browser page of another site cannot open the server's WebSockets: every socket
kind refuses a foreign ``Origin`` before accepting (1008; HTTP 403 on the wire) and accepts its
own site, a loopback page, a configured origin and a program that sends no ``Origin``."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocketDisconnect
from tests.server.padkit import create_board
from tests.server.roomkit import create_room
from tests.server.tournamentkit import create

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ORIGINS_ENV_VAR, ServerSettings
from hikone_carrom.server.core.hosts import origin_allowed, origin_of

SITE = "http://carrom.example.org:8765"
CLUB = "https://club.example.org"

REFUSED = [
    "https://attacker.example",
    "http://carrom.example.org:9999",  # the same name on another port is another site
    "http://carrom.example.org.attacker.example:8765",
    "null",  # a sandboxed frame or a file:// page
    "chrome-extension://abcdef",
]
ACCEPTED = [None, SITE, "http://localhost:3000", "http://127.0.0.1:8000", CLUB]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = ServerSettings(
        db_url=f"sqlite:///{tmp_path / 'g.sqlite3'}", ai_delay_s=0.0, allowed_origins=(CLUB,)
    )
    with TestClient(create_app(settings), base_url=SITE) as c:
        yield c


@pytest.fixture
def sockets(client: TestClient) -> dict[str, tuple[str, dict[str, Any] | None]]:
    """Each socket route: a URL of a real room, board or event and the first message to send
    (None: the server speaks first)."""
    room = create_room(client, mode="hotseat")
    board = create_board(client)
    tid, _ = create(client, boards=2)
    return {
        "/ws/rooms/{room_id}": (
            f"/ws/rooms/{room['room_id']}",
            {"type": "hello", "token": room["token"], "last_seq": 0},
        ),
        "/ws/boards/{board_id}": (f"/ws/boards/{board['id']}", {"type": "hello"}),
        "/ws/tournaments/{tournament_id}": (f"/ws/tournaments/{tid}", None),
    }


def _first_answer(
    client: TestClient, url: str, hello: dict[str, Any] | None, origin: str | None
) -> str:
    headers = {} if origin is None else {"origin": origin}
    base = str(client.base_url).replace("http", "ws", 1)  # a socket's Host is the client's own
    with client.websocket_connect(base + url, headers=headers) as ws:
        if hello is not None:
            ws.send_text(json.dumps(hello))
        answer: str = ws.receive_json()["type"]
        return answer


def test_every_socket_route_is_checked_here(
    client: TestClient, sockets: dict[str, tuple[str, dict[str, Any] | None]]
) -> None:
    app: Any = client.app
    assert _socket_paths(app.routes) == set(sockets)


def _socket_paths(routes: list[Any]) -> set[str]:
    """The WebSocket routes among ``routes``, included routers' too (FastAPI keeps an included
    router whole, as ``original_router``)."""
    found: set[str] = set()
    for route in routes:
        if isinstance(route, WebSocketRoute):
            found.add(route.path)
        elif (router := getattr(route, "original_router", None)) is not None:
            found |= _socket_paths(router.routes)
    return found


@pytest.mark.parametrize("origin", REFUSED)
def test_a_foreign_page_cannot_open_any_socket(
    client: TestClient, sockets: dict[str, tuple[str, dict[str, Any] | None]], origin: str
) -> None:
    for kind, (url, hello) in sockets.items():
        with pytest.raises(WebSocketDisconnect) as refused:
            _first_answer(client, url, hello, origin)
        assert refused.value.code == 1008, kind


@pytest.mark.parametrize("origin", ACCEPTED)
def test_own_loopback_configured_and_no_origin_open_every_socket(
    client: TestClient, sockets: dict[str, tuple[str, dict[str, Any] | None]], origin: str | None
) -> None:
    for kind, (url, hello) in sockets.items():
        assert _first_answer(client, url, hello, origin) == "snapshot", kind


def test_a_loopback_server_accepts_its_allowed_host_names(tmp_path: Path) -> None:
    settings = ServerSettings(
        db_url=f"sqlite:///{tmp_path / 'g.sqlite3'}",
        allowed_hosts=("localhost", "127.0.0.1", "::1", "carrom.lan"),
    )
    with TestClient(create_app(settings), base_url="http://127.0.0.1:8765") as client:
        room = create_room(client, mode="hotseat")
        url = f"/ws/rooms/{room['room_id']}"
        hello = {"type": "hello", "token": room["token"], "last_seq": 0}
        assert _first_answer(client, url, hello, "https://carrom.lan") == "snapshot"
        with pytest.raises(WebSocketDisconnect):
            _first_answer(client, url, hello, "https://attacker.example")


def test_origins_are_written_as_browsers_write_them() -> None:
    assert origin_of("HTTPS://Club.Example.org:443/") == "https://club.example.org"
    assert origin_of("http://[::1]:8080") == "http://[::1]:8080"
    for bad in ("club.example.org", "ftp://a.org", "https://a.org/path", "https://u@a.org", ""):
        with pytest.raises(ValueError, match="is not an origin"):
            origin_of(bad)


def test_the_same_site_is_judged_by_name_and_port() -> None:
    def allowed(origin: str, host: str) -> bool:
        return origin_allowed(origin, host, (), ())

    assert allowed("https://carrom.example.org", "carrom.example.org")  # 443 behind a proxy
    assert allowed("http://carrom.example.org", "carrom.example.org:80")
    assert allowed("http://[::1]:8765", "[::1]:8765")
    assert not allowed("http://carrom.example.org:8080", "carrom.example.org")
    assert not allowed("https://carrom.example.org", "carrom.example.org:8765")


def test_the_command_line_and_the_environment_configure_origins(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from hikone_carrom.server.core import app, launch, warmup

    made: list[ServerSettings] = []
    monkeypatch.setattr(app, "create_app", lambda settings, board: made.append(settings))
    monkeypatch.setattr(warmup, "warm_up", lambda board: None)
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    db = ["--no-browser", "--db", f"sqlite:///{tmp_path / 'g.sqlite3'}", "--port", port]
    monkeypatch.setenv(ORIGINS_ENV_VAR, "https://a.example.org, http://b.example.org:8080/")
    assert launch.main(db) == 0
    assert made[-1].allowed_origins == ("https://a.example.org", "http://b.example.org:8080")
    assert launch.main([*db, "--allowed-origin", "https://C.example.org"]) == 0
    assert made[-1].allowed_origins == ("https://c.example.org",)
    with pytest.raises(SystemExit) as refused:
        launch.main([*db, "--allowed-origin", "c.example.org"])
    assert refused.value.code == 2
