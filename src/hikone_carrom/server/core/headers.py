"""Security headers on every HTTP response: a Content-Security-Policy that runs only the server's
own scripts and styles (no inline script, no inline style), no framing by other sites, no
``Referer`` (pad and personal links carry secrets in their fragment and path), no type sniffing;
also on the 500 of an unexpected fault, answered here as every other error body.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["DOCS_POLICY", "POLICY", "SecurityHeaders"]

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The policy of every page. ``connect-src 'self'`` also allows the page's own ``ws:``/``wss:``
(CSP level 3, as Chromium, Firefox and Safari do)."""

DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "font-src 'self' https://fonts.gstatic.com; "
    "img-src 'self' data: blob: https://fastapi.tiangolo.com; "
    "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The policy of FastAPI's API pages only (Swagger UI, ReDoc: scripts from their CDN and one
inline start-up script). They show the OpenAPI schema and no user text or secret."""

_FIXED = (
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Content-Type-Options", "nosniff"),
)


_FAULT = json.dumps(
    {
        "detail": {
            "code": "server_fault",
            "en": "Something went wrong on the server. Please try again.",
            "ja": "サーバーで問題が起きました。もう一度お試しください。",
            "rule": None,
        }
    },
    ensure_ascii=False,
).encode()
"""The body of the 500 of an unexpected fault (an :class:`~.errors.ErrorBody`)."""
_JSON = [(b"content-type", b"application/json; charset=utf-8")]


class SecurityHeaders:
    """ASGI middleware: add the headers to every HTTP response (pages, static files, API JSON,
    errors); ``docs_paths`` get :data:`DOCS_POLICY` instead of :data:`POLICY`."""

    def __init__(self, app: ASGIApp, docs_paths: Iterable[str] = ()) -> None:
        self.app = app
        self.docs_paths = frozenset(docs_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_POLICY if scope["path"] in self.docs_paths else POLICY

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = policy
                for name, value in _FIXED:
                    headers[name] = value
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            if not started:  # the fault's answer, with the headers; the server logs the fault
                await send_with_headers(
                    {"type": "http.response.start", "status": 500, "headers": _JSON}
                )
                await send({"type": "http.response.body", "body": _FAULT})
            raise
