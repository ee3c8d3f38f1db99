"""The lobby's view of the accounts (:class:`~hikone_carrom.server.lobby.identity.Identity`):
a signed-in player's seek carries their account (CSRF checked), its rating comes from the
ratings, and the seats it is paired into are noted as the account's, so the game is rated."""

from __future__ import annotations

from starlette.requests import Request

from hikone_carrom.server.accounts import ratings
from hikone_carrom.server.accounts.identity import current_account
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.storage.account_store import AccountStore

__all__ = ["AccountIdentity"]


class AccountIdentity:
    """Accounts of ``accounts``, read and written through ``runner`` (off the event loop)."""

    def __init__(self, accounts: AccountStore, runner: Runner) -> None:
        self.accounts = accounts
        self.runner = runner

    async def account_of(self, request: Request) -> tuple[str, str] | None:
        account = await current_account(request)
        return None if account is None else (account.id, account.name)

    async def rating_of(self, account_id: str, time_control: str, players: int) -> float | None:
        view = await self.runner.store(ratings.rating_of, account_id, time_control, players)
        return view.rating

    async def seated(self, room_id: str, seat: int, account_id: str) -> None:
        await self.runner.store(self.accounts.link_seat, room_id, seat, account_id)
