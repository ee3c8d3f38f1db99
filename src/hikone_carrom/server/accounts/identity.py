"""Who is signed in on a request or a WebSocket: the interface other services use
(the lobby, the rooms). Stable: ``current_account(conn) -> Account | None``."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import HTTPConnection, Request

from hikone_carrom.server.accounts.refusals import csrf_refused
from hikone_carrom.server.accounts.sessions import SAFE_METHODS, csrf_matches, session_token
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.storage import hash_token
from hikone_carrom.server.storage.account_store import AccountStore

__all__ = ["Account", "current_account", "signed_in"]


@dataclass(frozen=True)
class Account:
    """A signed-in player: the account's ``id`` (stable) and display ``name``."""

    id: str
    name: str


async def signed_in(conn: HTTPConnection) -> tuple[Account, str, str] | None:
    """The account of the session cookie, the session's CSRF token and the cookie's token hash;
    None without a cookie or with one no session has. No CSRF check (see
    :func:`current_account`)."""
    token = session_token(conn)
    if token is None:
        return None
    accounts: AccountStore = conn.app.state.accounts
    runner: Runner = conn.app.state.runner
    token_hash = hash_token(token)
    found = await runner.store(accounts.session_of, token_hash)
    if found is None:
        return None
    stored, csrf = found
    return Account(stored.id, stored.name), csrf, token_hash


async def current_account(conn: HTTPConnection) -> Account | None:
    """The signed-in account of a request or a WebSocket (its session cookie), or None for a
    guest.

    A state-changing HTTP request (not GET, HEAD, OPTIONS) made with the cookie must carry the
    session's CSRF token in ``X-CSRF-Token``, else :class:`RoomError` ``csrf_refused`` (403) is
    raised. A WebSocket needs none: the server's origin check refuses other sites' sockets.
    """
    found = await signed_in(conn)
    if found is None:
        return None
    account, csrf, _ = found
    unsafe = isinstance(conn, Request) and conn.method not in SAFE_METHODS
    if unsafe and not csrf_matches(conn, csrf):
        raise csrf_refused()
    return account
