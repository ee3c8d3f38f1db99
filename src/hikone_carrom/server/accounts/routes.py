"""REST of accounts (sign up, sign in, sign out, sign out everywhere, who am I) and of players'
public profiles (docs/server.md, "Accounts and ratings")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi import Path as PathParam
from pydantic import Field

from hikone_carrom.ratings import TIME_CONTROLS
from hikone_carrom.server.accounts import refusals
from hikone_carrom.server.accounts.identity import signed_in
from hikone_carrom.server.accounts.names import name_key, name_problem
from hikone_carrom.server.accounts.passwords import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    hash_password,
    needs_rehash,
    password_matches,
)
from hikone_carrom.server.accounts.ratings import view_of
from hikone_carrom.server.accounts.service import AccountLimits
from hikone_carrom.server.accounts.sessions import (
    clear_cookie,
    csrf_matches,
    new_session,
    set_cookie,
)
from hikone_carrom.server.core.deps import RunnerDep, client_address
from hikone_carrom.server.core.errors import errors
from hikone_carrom.server.core.validation import StrictBody
from hikone_carrom.server.storage.account_store import AccountStore, NameTaken, StoredAccount

__all__ = ["router"]

router = APIRouter(tags=["accounts"])


class Credentials(StrictBody):
    """POST /api/account/signup and /signin: a display name and a password."""

    name: str = Field(max_length=64)
    password: str = Field(max_length=1024)


PlayerName = Annotated[str, PathParam(min_length=1, max_length=64)]


def _accounts(request: Request) -> AccountStore:
    accounts: AccountStore = request.app.state.accounts
    return accounts


def _limits(request: Request) -> AccountLimits:
    limits: AccountLimits = request.app.state.account_limits
    return limits


def _signed_in_body(account: StoredAccount, csrf: str) -> dict[str, Any]:
    return {"account": {"id": account.id, "name": account.name}, "csrf": csrf}


async def _open(
    request: Request, response: Response, runner: RunnerDep, account: StoredAccount
) -> dict[str, Any]:
    token, token_hash, csrf = new_session()
    await runner.store(_accounts(request).open_session, account.id, token_hash, csrf)
    set_cookie(response, request, token)
    return _signed_in_body(account, csrf)


@router.post("/api/account/signup", status_code=201, responses=errors(409, 422, 429, 503))
async def sign_up(
    body: Credentials, request: Request, response: Response, runner: RunnerDep
) -> dict[str, Any]:
    """Make an account and sign this browser in (the session cookie); answers the account and
    the session's CSRF token (send it as ``X-CSRF-Token``)."""
    rate = _limits(request).sign_ups
    if not rate.allow(client_address(request)):
        raise refusals.too_many_attempts(rate.per_minute)
    name = body.name.strip()
    problem = name_problem(name)
    if problem is not None:
        raise refusals.bad_name(*problem)
    if not PASSWORD_MIN <= len(body.password) <= PASSWORD_MAX:
        raise refusals.bad_password(PASSWORD_MIN, PASSWORD_MAX)
    accounts = _accounts(request)
    key = name_key(name)
    if await runner.store(accounts.name_held, key):
        raise refusals.name_taken()
    hashed = await runner.simulate(hash_password, body.password)
    try:
        account = await runner.store(accounts.create, name, key, hashed)
    except NameTaken as err:
        raise refusals.name_taken() from err
    return await _open(request, response, runner, account)


@router.post("/api/account/signin", responses=errors(401, 422, 429, 503))
async def sign_in(
    body: Credentials, request: Request, response: Response, runner: RunnerDep
) -> dict[str, Any]:
    """Sign this browser in with a name and password; answers as sign-up does."""
    rate = _limits(request).sign_ins
    if not rate.allow(client_address(request)):
        raise refusals.too_many_attempts(rate.per_minute)
    accounts = _accounts(request)
    found = await runner.store(accounts.with_password, name_key(body.name.strip()))
    stored = None if found is None else found[1]
    matches = await runner.simulate(password_matches, stored, body.password)
    if found is None or not matches:
        raise refusals.wrong_password()
    account, hashed = found
    if needs_rehash(hashed):
        rehashed = await runner.simulate(hash_password, body.password)
        await runner.store(accounts.set_password_hash, account.id, rehashed)
    return await _open(request, response, runner, account)


async def _session(request: Request) -> tuple[str, str]:
    """The signed-in account's id and the session's token hash; CSRF checked."""
    found = await signed_in(request)
    if found is None:
        raise refusals.not_signed_in()
    account, csrf, token_hash = found
    if not csrf_matches(request, csrf):
        raise refusals.csrf_refused()
    return account.id, token_hash


@router.post("/api/account/signout", status_code=204, responses=errors(401, 403, 503))
async def sign_out(request: Request, runner: RunnerDep) -> Response:
    """Sign this browser out (needs ``X-CSRF-Token``)."""
    _, token_hash = await _session(request)
    await runner.store(_accounts(request).close_session, token_hash)
    response = Response(status_code=204)
    clear_cookie(response, request)
    return response


@router.post("/api/account/signout-everywhere", responses=errors(401, 403, 503))
async def sign_out_everywhere(
    request: Request, response: Response, runner: RunnerDep
) -> dict[str, int]:
    """Sign every browser of this account out (needs ``X-CSRF-Token``); answers how many."""
    account_id, _ = await _session(request)
    count = await runner.store(_accounts(request).close_sessions, account_id)
    clear_cookie(response, request)
    return {"signed_out": count}


@router.get("/api/account", responses=errors(503))
async def who_am_i(request: Request) -> dict[str, Any]:
    """The signed-in account and its CSRF token; ``{"account": null, "csrf": null}`` for a
    guest."""
    found = await signed_in(request)
    if found is None:
        return {"account": None, "csrf": None}
    account, csrf, _ = found
    return {"account": {"id": account.id, "name": account.name}, "csrf": csrf}


@router.get("/api/players/{name}", responses=errors(404, 422, 503))
async def player(name: PlayerName, request: Request, runner: RunnerDep) -> dict[str, Any]:
    """A player's public profile: per time control (``5min``, ``untimed``) the singles
    ``rating``, ``deviation``, ``provisional`` and ``games``; the same for pairs under
    ``pairs``."""
    accounts = _accounts(request)
    found = await runner.store(accounts.with_password, name_key(name.strip()))
    if found is None:
        raise refusals.no_player()
    account = found[0]

    async def table(players: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for tc in TIME_CONTROLS:
            standing = await runner.store(accounts.standing, account.id, tc, players)
            out[tc] = view_of(account.id, tc, players, standing).to_dict()
        return out

    return {
        "name": account.name,
        "since": account.created_at.isoformat(),
        "ratings": await table(2),
        "pairs": await table(4),
    }
