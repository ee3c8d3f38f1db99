"""Seats of online rooms taken by signed-in players: the seat is noted as the account's (so that
the game can be rated) and carries the account's name."""

from __future__ import annotations

from collections.abc import Iterable

from starlette.requests import HTTPConnection

from hikone_carrom.server.accounts.identity import Account, current_account
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.storage.account_store import AccountStore

__all__ = ["link_seats", "seat_holder"]


async def seat_holder(conn: HTTPConnection, name: str) -> tuple[Account | None, str]:
    """Who takes a seat with this request: the signed-in account (CSRF checked) and its name,
    or no account and the name the guest gave."""
    account = await current_account(conn)
    return (None, name) if account is None else (account, account.name)


async def link_seats(
    conn: HTTPConnection, account: Account | None, room_id: str, seats: Iterable[int]
) -> None:
    """Note ``seats`` of ``room_id`` as the account's (nothing for a guest)."""
    if account is None:
        return
    accounts: AccountStore = conn.app.state.accounts
    runner: Runner = conn.app.state.runner
    for seat in seats:
        await runner.store(accounts.link_seat, room_id, seat, account.id)
