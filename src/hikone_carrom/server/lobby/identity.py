"""Who is asking, as far as the lobby needs it: an account (id and display name) and its rating
per time control. The lobby codes against :class:`Identity`; :class:`Guests` (everyone a guest,
nobody rated) serves where the app gives none; the accounts' own,
:class:`~hikone_carrom.server.accounts.lobby_identity.AccountIdentity`, is on
``app.state.identity``."""

from __future__ import annotations

from typing import Literal, Protocol

from starlette.requests import Request

__all__ = ["Guests", "Identity", "TimeControl", "time_control"]

TimeControl = Literal["5min", "untimed"]
"""A rating's time control: 5-minute matches under the championship rules (R7b, R8a), or
untimed."""


def time_control(minutes: int | None) -> TimeControl:
    """The time control of a game of ``minutes`` (None: untimed)."""
    return "untimed" if minutes is None else "5min"


class Identity(Protocol):
    """The accounts, as the lobby sees them."""

    async def account_of(self, request: Request) -> tuple[str, str] | None:
        """The signed-in account making ``request``: (account id, display name); None for a
        guest."""

    async def rating_of(
        self, account_id: str, time_control: TimeControl, players: int
    ) -> float | None:
        """The account's rating in ``time_control`` for ``players`` (2 singles, 4 pairs)."""

    async def seated(self, room_id: str, seat: int, account_id: str) -> None:
        """Note that the account holds ``seat`` of the lobby's room ``room_id`` (so that the
        game is rated)."""


class Guests:
    """No accounts: everyone is a guest and nobody has a rating (every game is casual)."""

    async def account_of(self, request: Request) -> tuple[str, str] | None:
        return None

    async def rating_of(
        self, account_id: str, time_control: TimeControl, players: int
    ) -> float | None:
        return None

    async def seated(self, room_id: str, seat: int, account_id: str) -> None:
        return None
