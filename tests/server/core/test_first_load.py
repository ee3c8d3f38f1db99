"""A phone's first load of a tournament page: its HTML, scripts and styles come gzip-compressed
(with the security headers, ETags kept), the snapshot after them on the socket."""

from __future__ import annotations

import gzip

from fastapi.testclient import TestClient
from tests.server.tournamentkit import ready_event

from hikone_carrom.server.core.app import WEB_DIR
from hikone_carrom.server.core.headers import POLICY

FIRST_LOAD = [
    "/static/style.css",
    "/static/tournament.css",
    "/static/js/tournament.js",
    "/static/js/tourney-common.js",
    "/static/js/tourney-deltas.js",
    "/static/js/hall.js",
    "/static/js/hall-calls.js",
    "/static/js/hall-pages.js",
]
"""What the spectator's page loads after its HTML (the modules it imports, its styles)."""


def _raw(client: TestClient, path: str) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and the bytes on the wire (not decoded)."""
    with client.stream("GET", path, headers={"Accept-Encoding": "gzip"}) as r:
        return r.status_code, dict(r.headers), b"".join(r.iter_raw())


def test_a_tournament_page_loads_compressed(client: TestClient) -> None:
    tid, _ = ready_event(client)
    wire = plain = 0
    for path in [f"/t/{tid}", *FIRST_LOAD]:
        status, head, body = _raw(client, path)
        assert status == 200 and head["content-encoding"] == "gzip", path
        assert head["content-security-policy"] == POLICY, path
        unpacked = gzip.decompress(body)
        if path.startswith("/static/"):
            assert unpacked == (WEB_DIR / path.removeprefix("/static/")).read_bytes()
            assert head["etag"]
        wire, plain = wire + len(body), plain + len(unpacked)
    assert wire * 2.5 < plain


def test_small_answers_and_clients_without_gzip_get_plain_bytes(client: TestClient) -> None:
    status, head, body = _raw(client, "/api/health")
    assert status == 200 and "content-encoding" not in head and body.startswith(b"{")
    r = client.get("/static/js/tourney-deltas.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in r.headers
    assert r.content == (WEB_DIR / "js/tourney-deltas.js").read_bytes()
