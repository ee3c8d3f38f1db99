"""The accounts' service on the app: its store, its rate limits, the ratings' binding."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

from hikone_carrom.server.accounts import ratings
from hikone_carrom.server.core.ratelimit import AddressRate
from hikone_carrom.server.storage.account_store import AccountStore

__all__ = ["SIGN_INS_PER_MINUTE", "SIGN_UPS_PER_MINUTE", "AccountLimits", "start"]

SIGN_UPS_PER_MINUTE = 5.0
SIGN_INS_PER_MINUTE = 10.0
"""Attempts one address may make a minute (at once, then at this steady rate)."""


@dataclass(frozen=True)
class AccountLimits:
    """Sign-ups and sign-ins per address and minute."""

    sign_ups: AddressRate
    sign_ins: AddressRate


def start(engine: Engine) -> tuple[AccountStore, AccountLimits]:
    """The accounts' store over the game store's ``engine`` (bound for
    :func:`~hikone_carrom.server.accounts.ratings.rating_of`) and fresh rate limits."""
    accounts = AccountStore(engine)
    ratings.bind(accounts)
    limits = AccountLimits(AddressRate(SIGN_UPS_PER_MINUTE), AddressRate(SIGN_INS_PER_MINUTE))
    return accounts, limits
