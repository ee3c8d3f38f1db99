"""The browser client's files with cache headers a phone can keep: content-hashed asset URLs.

The client has no build step; its ES modules import each other relatively. The server gives the
whole web folder one **build id** (a hash of its files, computed once at start) and serves it at
``/static/<build>/…`` for a year, immutable: a module's relative imports inherit the prefix, so a
new release is a new URL and a phone loads only what it has not kept. Pages (HTML) and the service
workers' scripts are answered with ``/static/`` filled in as ``/static/<build>/`` and are always
revalidated (``no-cache`` and an ETag: a 304 costs a round trip, no bytes). The plain
``/static/…`` URLs still work (revalidated); an old build's id is a 404 like any missing file.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hikone_carrom.server.core.deps import WebDirDep

__all__ = [
    "IMMUTABLE",
    "REVALIDATE",
    "AssetFiles",
    "PageAssets",
    "build_id",
    "filled_in",
    "router",
]

IMMUTABLE = "public, max-age=31536000, immutable"
"""A content-hashed asset: kept for a year, never asked again."""
REVALIDATE = "no-cache"
"""Pages, service workers and unhashed assets: kept, but asked again (ETag) on every use."""

_STATIC = b'"/static/'
_WORKERS = frozenset({"/sw.js", "/pad/sw.js"})
"""The service workers' scripts: their lists of assets get the build's prefix as pages do."""


def build_id(web_dir: Path) -> str:
    """12 hex digits of a SHA-256 over every file of ``web_dir`` (its path and bytes)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in web_dir.rglob("*") if p.is_file()):
        digest.update(path.relative_to(web_dir).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def filled_in(body: bytes, build: str) -> bytes:
    """``body`` with every quoted ``"/static/`` URL under the build's prefix."""
    return body.replace(_STATIC, b'"/static/' + build.encode() + b"/")


class AssetFiles(StaticFiles):
    """The web folder at ``/static/``: under the build's prefix with :data:`IMMUTABLE`, without
    it (and an old build's prefix, a 404) with :data:`REVALIDATE`."""

    def __init__(self, directory: Path, build: str) -> None:
        super().__init__(directory=directory)
        self.prefix = build + os.sep

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = self.get_path(scope)
        hashed = path.startswith(self.prefix)
        cache_control = IMMUTABLE if hashed else REVALIDATE

        async def send_cached(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (200, 304):
                MutableHeaders(scope=message)["Cache-Control"] = cache_control
            await send(message)

        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        if not self.config_checked:
            await self.check_config()
            self.config_checked = True
        response = await self.get_response(
            path.removeprefix(self.prefix) if hashed else path, scope
        )
        await response(scope, receive, send_cached)


class PageAssets:
    """ASGI middleware: HTML pages and the service workers' scripts with the build's prefix
    filled in, a strong ETag of what is sent, ``no-cache``; a matching ``If-None-Match`` gets a
    304 without a body. Other answers (and WebSockets) pass untouched."""

    def __init__(self, app: ASGIApp, build: str) -> None:
        self.app = app
        self.build = build

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope["method"] not in ("GET", "HEAD")
            or (path.startswith("/static/"))
        ):
            await self.app(scope, receive, send)
            return
        worker = path in _WORKERS
        start: Message | None = None
        chunks: list[bytes] = []

        async def send_filled(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                kind = Headers(raw=message["headers"]).get("content-type", "")
                if message["status"] == 200 and (worker or kind.startswith("text/html")):
                    start = message
                    return
                await send(message)
            elif start is None:
                await send(message)
            else:
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    await self._send_page(scope, start, b"".join(chunks), send)

        await self.app(scope, receive, send_filled)

    async def _send_page(self, scope: Scope, start: Message, body: bytes, send: Send) -> None:
        body = filled_in(body, self.build)
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        headers = MutableHeaders(scope=start)
        for name in ("content-length", "etag", "last-modified"):
            del headers[name]
        headers["ETag"] = etag
        headers["Cache-Control"] = REVALIDATE
        if etag in Headers(scope=scope).get("if-none-match", ""):
            del headers["content-type"]
            await send({**start, "status": 304})
            await send({"type": "http.response.body", "body": b""})
            return
        headers["Content-Length"] = str(len(body))
        await send(start)
        await send(
            {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body}
        )


router = APIRouter()


@router.get("/sw.js", include_in_schema=False)
async def game_worker(web: WebDirDep) -> Response:
    """The game's service worker (scope ``/``: the app shell kept, an offline page)."""
    return Response(
        (web / "js" / "sw.js").read_bytes(),
        media_type="text/javascript",
        headers={"Cache-Control": REVALIDATE},
    )


@router.get("/offline", include_in_schema=False)
async def offline_page(web: WebDirDep) -> Response:
    """What the game's service worker shows a navigation it cannot reach (ja + en)."""
    return Response((web / "offline.html").read_bytes(), media_type="text/html")
