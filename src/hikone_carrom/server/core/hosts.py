"""Which names the server answers to: a server that listens on a loopback address only answers
requests whose ``Host`` is a loopback name or a configured one, so that a web page elsewhere
cannot reach it through a DNS name that points at 127.0.0.1 (DNS rebinding). And which pages may
open its WebSockets: a browser sends the page's ``Origin`` with every handshake; a page of
another site is refused, so it cannot play, watch or flood as the visitor."""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = [
    "LOOPBACK_NAMES",
    "HostCheck",
    "OriginCheck",
    "host_name",
    "is_loopback",
    "origin_allowed",
    "origin_of",
]

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


_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str:
    """``url`` as a browser writes it in ``Origin``: ``scheme://host[:port]``, lower case, the
    scheme's default port left out. Raises ValueError unless it is an http(s) origin with nothing
    after the host (no path, query, fragment or user)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as err:
        raise ValueError(f"{url!r} is not an origin ({err})") from None
    scheme = parts.scheme.lower()
    if (
        scheme not in _DEFAULT_PORTS
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
    ):
        raise ValueError(f"{url!r} is not an origin: give scheme and host only, e.g. https://a.org")
    name = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    shown_port = "" if port in (None, _DEFAULT_PORTS[scheme]) else f":{port}"
    return f"{scheme}://{name}{shown_port}"


def _host_port(host: str) -> int | None:
    """The port of a ``Host`` header value, or None when it names none."""
    tail = host.strip().rsplit("]", 1)[-1] if host.strip().startswith("[") else host.strip()
    if tail.count(":") != 1:
        return None
    port = tail.split(":", 1)[1]
    return int(port) if port.isdigit() else None


def origin_allowed(origin: str, host: str, names: Iterable[str], origins: Iterable[str]) -> bool:
    """Whether a page of ``origin`` may open a WebSocket sent to ``host`` (its ``Host``): the
    server's own site (same name and port), a loopback name, one of ``names`` (host names) or
    one of ``origins`` (as :func:`origin_of` writes them). ``null`` and non-web origins may not."""
    try:
        origin = origin_of(origin)
    except ValueError:
        return False
    if origin in origins:
        return True
    parts = urlsplit(origin)
    name = parts.hostname or ""
    if is_loopback(name) or name in names:
        return True
    port = parts.port or _DEFAULT_PORTS[parts.scheme]
    own_port = _host_port(host) or _DEFAULT_PORTS[parts.scheme]
    return name == host_name(host) and port == own_port


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


class OriginCheck:
    """ASGI middleware: close a WebSocket handshake from another site's page (code 1008 before
    accepting: the client sees HTTP 403). A handshake without ``Origin`` (a program, not a
    browser) is let through; see :func:`origin_allowed` for the rest."""

    def __init__(self, app: ASGIApp, names: Iterable[str] = (), origins: Iterable[str] = ()):
        self.app = app
        self.names = frozenset(host_name(n) for n in names)
        self.origins = frozenset(origin_of(o) for o in origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            headers = dict(scope.get("headers", ()))
            origin = headers.get(b"origin")
            host = headers.get(b"host", b"").decode("latin-1")
            if origin is not None and not origin_allowed(
                origin.decode("latin-1"), host, self.names, self.origins
            ):
                await send({"type": "websocket.close", "code": 1008})
                return
        await self.app(scope, receive, send)
