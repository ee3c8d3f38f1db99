"""The accounts' store: accounts, sessions, the seats they hold, ratings and rated results.

Synchronous (called through the runner's store threads), over the game store's engine; values
cross the boundary as frozen dataclasses.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from hikone_carrom.ratings import Standing, pairs_after, singles_after
from hikone_carrom.server.storage.account_models import (
    AccountRow,
    AccountSeatRow,
    RatedResultRow,
    RatingRow,
    SessionRow,
)
from hikone_carrom.server.storage.store import guarded

__all__ = ["AccountStore", "NameTaken", "StoredAccount"]


class NameTaken(Exception):
    """Another account already has this name, or one that looks the same."""


@dataclass(frozen=True)
class StoredAccount:
    """An account as the server uses it (never its password hash outside sign-in)."""

    id: str
    name: str
    created_at: datetime


def _account(row: AccountRow) -> StoredAccount:
    moment = row.created_at
    return StoredAccount(row.id, row.name, moment if moment.tzinfo else moment.replace(tzinfo=UTC))


class AccountStore:
    """Accounts in the game store's database (``engine``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def _session(self) -> Session:
        return self._sessions()

    # accounts

    def create(self, name: str, name_key: str, password_hash: str) -> StoredAccount:
        """A new account; raises :class:`NameTaken` when ``name_key`` is held."""
        row = AccountRow(
            id=secrets.token_hex(8),
            name=name,
            name_key=name_key,
            password_hash=password_hash,
            created_at=datetime.now(UTC),
        )
        with guarded():
            try:
                with self._session() as session, session.begin():
                    session.add(row)
            except IntegrityError as err:
                raise NameTaken(name) from err
        return _account(row)

    def name_held(self, name_key: str) -> bool:
        """Whether an account has a name with this comparison key."""
        with guarded(), self._session() as session:
            found = session.scalar(select(AccountRow.id).where(AccountRow.name_key == name_key))
            return found is not None

    def with_password(self, name_key: str) -> tuple[StoredAccount, str] | None:
        """The account of a name and its password hash (sign-in), or None."""
        with guarded(), self._session() as session:
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key))
            return None if row is None else (_account(row), row.password_hash)

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        """Keep a rehashed password (stronger parameters than when it was set)."""
        with guarded(), self._session() as session, session.begin():
            row = session.get(AccountRow, account_id)
            if row is not None:
                row.password_hash = password_hash

    def account(self, account_id: str) -> StoredAccount | None:
        """The account with this id, or None."""
        with guarded(), self._session() as session:
            row = session.get(AccountRow, account_id)
            return None if row is None else _account(row)

    # sessions

    def open_session(self, account_id: str, token_hash: str, csrf: str) -> None:
        """Remember a signed-in browser."""
        with guarded(), self._session() as session, session.begin():
            session.add(
                SessionRow(
                    token_hash=token_hash,
                    account_id=account_id,
                    csrf=csrf,
                    created_at=datetime.now(UTC),
                )
            )

    def session_of(self, token_hash: str) -> tuple[StoredAccount, str] | None:
        """The account signed in with this token and the session's CSRF token, or None."""
        with guarded(), self._session() as session:
            found = session.execute(
                select(AccountRow, SessionRow.csrf)
                .join(SessionRow, SessionRow.account_id == AccountRow.id)
                .where(SessionRow.token_hash == token_hash)
            ).one_or_none()
            return None if found is None else (_account(found[0]), found[1])

    def close_session(self, token_hash: str) -> None:
        """Sign one browser out."""
        with guarded(), self._session() as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    def close_sessions(self, account_id: str) -> int:
        """Sign every browser of an account out; returns how many were signed in."""
        with guarded(), self._session() as session, session.begin():
            done = session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            return int(getattr(done, "rowcount", 0) or 0)

    # seats

    def link_seat(self, room_id: str, seat: int, account_id: str) -> None:
        """Note that ``account_id`` took ``seat`` of ``room_id`` (a seat is taken once)."""
        with guarded(), self._session() as session, session.begin():
            session.merge(AccountSeatRow(room_id=room_id, seat=seat, account_id=account_id))

    def seat_accounts(self, room_id: str) -> dict[int, str]:
        """The seats of a room held by accounts, with each one's account id."""
        with guarded(), self._session() as session:
            rows = session.execute(
                select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                    AccountSeatRow.room_id == room_id
                )
            )
            return {seat: account for seat, account in rows}

    # ratings

    def standing(self, account_id: str, time_control: str, players: int) -> Standing:
        """An account's standing (a new player's when it has none)."""
        with guarded(), self._session() as session:
            return _standing(session, account_id, time_control, players)

    def rate(
        self,
        game_id: str,
        time_control: str,
        teams: Sequence[Sequence[str]],
        score_first: float,
    ) -> dict[str, tuple[Standing, Standing]] | None:
        """Rate a finished game once: ``teams`` the account ids of each side (one each in
        singles, two in doubles), ``score_first`` what the first side scored (1, 0.5, 0).
        Returns each account's standing before and after, or None if it was rated already."""
        players = sum(len(t) for t in teams)
        now = datetime.now(UTC)
        with guarded(), self._session() as session, session.begin():
            if session.get(RatedResultRow, game_id) is not None:
                return None
            before = [[_standing(session, a, time_control, players) for a in t] for t in teams]
            if players == 2:
                one, two = singles_after(before[0][0], before[1][0], score_first)
                after = [[one], [two]]
            else:
                after = pairs_after(before, score_first)
            changes: dict[str, tuple[Standing, Standing]] = {}
            for ids, olds, news in zip(teams, before, after, strict=True):
                for account_id, old, new in zip(ids, olds, news, strict=True):
                    changes[account_id] = (old, new)
                    session.merge(
                        RatingRow(
                            account_id=account_id,
                            time_control=time_control,
                            players=players,
                            rating=new.rating,
                            deviation=new.deviation,
                            volatility=new.volatility,
                            games=new.games,
                            updated_at=now,
                        )
                    )
            session.add(
                RatedResultRow(
                    game_id=game_id,
                    time_control=time_control,
                    players=players,
                    changes={
                        a: {"before": old.rating, "after": new.rating}
                        for a, (old, new) in changes.items()
                    },
                    created_at=now,
                )
            )
        return changes


def _standing(session: Session, account_id: str, time_control: str, players: int) -> Standing:
    row = session.get(RatingRow, (account_id, time_control, players))
    if row is None:
        return Standing()
    return Standing(row.rating, row.deviation, row.volatility, row.games)
