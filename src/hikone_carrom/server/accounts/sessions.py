"""Sign-in sessions: a random token in a cookie (stored only as its SHA-256), and a CSRF token
per session that every state-changing request with the cookie must echo in ``X-CSRF-Token``."""

from __future__ import annotations

import hmac
import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

from hikone_carrom.server.storage import hash_token

__all__ = [
    "COOKIE",
    "CSRF_HEADER",
    "SAFE_METHODS",
    "clear_cookie",
    "csrf_matches",
    "new_session",
    "session_token",
    "set_cookie",
]

COOKIE = "hc_session"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SESSION_DAYS = 90
"""How long a browser stays signed in."""


def new_session() -> tuple[str, str, str]:
    """A new session: (cookie token, its hash to store, CSRF token)."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token), secrets.token_urlsafe(24)


def session_token(conn: HTTPConnection) -> str | None:
    """The session cookie's token, if the request carries one."""
    token = conn.cookies.get(COOKIE)
    return token if token and len(token) <= 128 else None


def _over_tls(conn: HTTPConnection) -> bool:
    return conn.url.scheme in ("https", "wss")


def set_cookie(response: Response, conn: HTTPConnection, token: str) -> None:
    """Sign the browser in: ``HttpOnly; SameSite=Lax; Path=/``, ``Secure`` over TLS."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=_over_tls(conn),
    )


def clear_cookie(response: Response, conn: HTTPConnection) -> None:
    """Sign the browser out (the cookie expires now)."""
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=_over_tls(conn))


def csrf_matches(conn: HTTPConnection, expected: str) -> bool:
    """Whether the request echoes the session's CSRF token (constant-time compare)."""
    given = conn.headers.get(CSRF_HEADER, "")
    return hmac.compare_digest(given.encode(), expected.encode())
