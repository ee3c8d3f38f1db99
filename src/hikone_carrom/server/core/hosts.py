"""Which names the server answers to: a server that listens on a loopback address only answers
requests whose ``Host`` is a loopback name or a configured one, so that a web page elsewhere
cannot reach it through a DNS name that points at 127.0.0.1 (DNS rebinding)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["LOOPBACK_NAMES", "HostCheck", "host_name", "is_loopback"]

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
"""Names of this machine that no other machine can be reached by."""


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    name = host_name(host)
    return name in LOOPBACK_NAMES or name.startswith("127.")


def host_name(host: str) -> str:
    """The name part of a ``Host`` header value, lower case, without port or IPv6 brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


class HostCheck:
    """ASGI middleware: refuse HTTP (400) and WebSocket (403) requests for other host names."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = frozenset(host_name(h) for h in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = dict(scope.get("headers", ()))
            host = host_name(headers.get(b"host", b"").decode("latin-1"))
            if host not in self.allowed:
                await self._refuse(scope, send)
                return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = json.dumps(
            {
                "detail": {
                    "code": "bad_host",
                    "en": "This server answers only to its own address (Host header refused)",
                    "ja": "このサーバーは自分のアドレス宛ての要求にだけ応えます（Host を拒否）",
                    "rule": None,
                }
            },
            ensure_ascii=False,
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
