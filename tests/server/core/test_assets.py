"""Pages a phone keeps: brotli or gzip on the wire, content-hashed asset URLs cached for a year,
pages and service workers revalidated (ETag, 304), an installable game (manifest, icons, its
service worker and offline page) next to the pads' own worker."""

from __future__ import annotations

import gzip
import io
import json
import re
from pathlib import Path

import brotli
from fastapi.testclient import TestClient
from PIL import Image

from hikone_carrom.server.core.app import WEB_DIR
from hikone_carrom.server.core.assets import IMMUTABLE, build_id

PAGES = ["/", "/howto", "/games", "/room/x", "/replay/x", "/pad/", "/t/x", "/director", "/offline"]
PAGES += ["/puzzles", "/puzzles/p0001", "/puzzles/drills/bank"]


def _raw(client: TestClient, path: str, encoding: str) -> tuple[dict[str, str], bytes]:
    with client.stream("GET", path, headers={"Accept-Encoding": encoding}) as r:
        assert r.status_code == 200, path
        return dict(r.headers), b"".join(r.iter_raw())


def _build(client: TestClient) -> str:
    build = client.app.state.build  # type: ignore[attr-defined]
    assert isinstance(build, str) and build == build_id(WEB_DIR)
    return build


def test_brotli_first_then_gzip_then_plain(client: TestClient) -> None:
    path = f"/static/{_build(client)}/js/room.js"
    plain = (WEB_DIR / "js/room.js").read_bytes()
    head, body = _raw(client, path, "gzip, deflate, br")
    assert head["content-encoding"] == "br" and brotli.decompress(body) == plain
    assert len(body) * 3 < len(plain)
    head, body = _raw(client, path, "gzip")
    assert head["content-encoding"] == "gzip" and gzip.decompress(body) == plain
    head, body = _raw(client, path, "identity")
    assert "content-encoding" not in head and body == plain


def test_pages_name_the_build_and_are_revalidated(client: TestClient) -> None:
    build = _build(client)
    for path in PAGES:
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), path
        assert r.headers["cache-control"] == "no-cache", path
        urls = re.findall(r'"(/static/[^"]+)"', r.text)
        assert urls and all(u.startswith(f"/static/{build}/") for u in urls), (path, urls)
        for url in urls:
            assert client.get(url).status_code == 200, (path, url)
        again = client.get(path, headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304 and again.content == b"", path


def test_hashed_assets_are_immutable_plain_ones_revalidated_old_ones_gone(
    client: TestClient,
) -> None:
    build = _build(client)
    r = client.get(f"/static/{build}/js/board.js")
    assert r.status_code == 200 and r.headers["cache-control"] == IMMUTABLE
    assert r.content == (WEB_DIR / "js/board.js").read_bytes()
    plain = client.get("/static/js/board.js")
    assert plain.headers["cache-control"] == "no-cache" and plain.content == r.content
    again = client.get("/static/js/board.js", headers={"If-None-Match": plain.headers["etag"]})
    assert again.status_code == 304
    assert client.get("/static/0123456789ab/js/board.js").status_code == 404
    assert client.get(f"/static/{build}/js/nosuchfile.js").status_code == 404


def test_the_build_id_follows_the_files(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("export const a = 1;\n")
    first = build_id(tmp_path)
    assert re.fullmatch(r"[0-9a-f]{12}", first) and build_id(tmp_path) == first
    (tmp_path / "js" / "a.js").write_text("export const a = 2;\n")
    assert build_id(tmp_path) != first


def test_the_game_is_installable(client: TestClient) -> None:
    build = _build(client)
    page = client.get("/").text
    link = re.search(r'<link rel="manifest" href="([^"]+)">', page)
    assert link and link[1] == f"/static/{build}/manifest.webmanifest"
    r = client.get(link[1])
    assert r.headers["content-type"] == "application/manifest+json"
    manifest = json.loads(r.content)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert "彦根カロム" in manifest["name"] and "Hikone Carrom" in manifest["name"]
    sizes = set()
    for icon in manifest["icons"]:
        got = client.get(f"/static/{build}/{icon['src']}")
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            img = Image.open(io.BytesIO(got.content))
            assert f"{img.width}x{img.height}" == icon["sizes"]
            sizes.add(img.width)
    assert {192, 512} <= sizes


def test_the_service_workers_keep_this_builds_files(client: TestClient) -> None:
    build = _build(client)
    for path, scope_prefix in (
        ("/sw.js", "hikone-carrom-game"),
        ("/pad/sw.js", "hikone-carrom-pad"),
    ):
        r = client.get(path)
        assert r.headers["content-type"].startswith("text/javascript"), path
        assert r.headers["cache-control"] == "no-cache", path
        assert scope_prefix in r.text
        urls = re.findall(r'"(/static/[^"]*)"', r.text)
        assert f"/static/{build}/" in urls, path  # the cache's name: one per build
        for url in urls:
            assert url.startswith(f"/static/{build}/"), (path, url)
            if url != f"/static/{build}/":
                assert client.get(url).status_code == 200, (path, url)


def test_the_offline_page_speaks_both_languages(client: TestClient) -> None:
    r = client.get("/offline")
    assert "オフラインです" in r.text and "You are offline" in r.text
