"""Every response carries the security headers: pages, static files, API JSON and
errors run only the server's own scripts, cannot be framed, send no ``Referer`` and are not
type-sniffed."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.padkit import create_board
from tests.server.roomkit import create_room
from tests.server.tournamentkit import create

from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.errors import ErrorBody
from hikone_carrom.server.core.headers import DOCS_POLICY, POLICY

FIXED = {
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}


def _directives(policy: str) -> dict[str, list[str]]:
    parts = (d.split() for d in policy.split(";") if d.strip())
    return {name: values for name, *values in parts}


def _check(client: TestClient, path: str, status: int = 200, policy: str = POLICY) -> None:
    r = client.get(path)
    assert r.status_code == status, (path, r.text[:200])
    assert r.headers["content-security-policy"] == policy, path
    for name, value in FIXED.items():
        assert r.headers[name] == value, (path, name)


def test_the_policy_runs_no_inline_script_and_no_foreign_frame() -> None:
    d = _directives(POLICY)
    assert d["script-src"] == ["'self'"]
    assert d["style-src"] == ["'self'"]
    assert d["default-src"] == ["'self'"]
    assert d["connect-src"] == ["'self'"]
    assert d["img-src"] == ["'self'", "data:", "blob:"]
    assert d["frame-ancestors"] == ["'none'"]
    assert d["base-uri"] == ["'none'"]
    assert d["object-src"] == ["'none'"]
    assert d["form-action"] == ["'self'"]
    assert _directives(DOCS_POLICY)["frame-ancestors"] == ["'none'"]


def test_every_page_kind_has_the_headers(client: TestClient) -> None:
    room = create_room(client, mode="hotseat")["room_id"]
    board = create_board(client)["id"]
    tid, _ = create(client, boards=2)
    pages = ["/", "/games", "/howto", f"/room/{room}", f"/replay/{room}", "/pad", "/pad/"]
    pages += [f"/pad/{board}", f"/boards/{board}", "/pad/sw.js", f"/t/{tid}", f"/t/{tid}/director"]
    pages += ["/director", f"/t/{tid}/play/GS-001.1", "/puzzles", "/puzzles/p0001"]
    for path in pages:
        _check(client, path)


@pytest.mark.parametrize(
    "path",
    [
        "/static/js/main.js",
        "/static/style.css",
        "/static/favicon.svg",
        "/api/health",
        "/api/levels",
        "/openapi.json",
    ],
)
def test_static_files_and_api_json_have_the_headers(client: TestClient, path: str) -> None:
    _check(client, path)


def test_downloads_qr_codes_and_errors_have_the_headers(client: TestClient) -> None:
    room = create_room(client, mode="hotseat")["room_id"]
    tid, _ = create(client, boards=2)
    _check(client, f"/api/rooms/{room}/invite.svg")
    _check(client, f"/api/tournaments/{tid}/results.csv")
    _check(client, "/api/rooms/nosuchroom", status=404)
    _check(client, "/static/nosuchfile.js", status=404)
    _check(client, "/api/games?limit=abc", status=422)
    _check(client, f"/api/tournaments/{tid}/director", status=401)


def test_the_api_pages_keep_their_own_policy(client: TestClient) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        _check(client, path, policy=DOCS_POLICY)


def test_an_unexpected_fault_answers_500_with_the_headers_and_an_error_body(
    tmp_path: Path,
) -> None:
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'g.sqlite3'}"))

    async def fault() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/api/fault", fault)
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/api/fault")
    assert r.status_code == 500
    assert r.headers["content-security-policy"] == POLICY
    for name, value in FIXED.items():
        assert r.headers[name] == value, name
    detail = ErrorBody.model_validate(r.json()).detail
    assert detail.code == "server_fault" and detail.ja and detail.en
    assert "a bug" not in r.text  # nothing of the fault itself reaches the client
