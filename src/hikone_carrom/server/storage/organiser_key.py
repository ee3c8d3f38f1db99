"""The organiser's key kept with the store, so that every server process sharing the store
knows the same key: the first process to start makes it (insert-if-absent), the others read it.

The key is kept as it is, not hashed: each process prints the organiser's sign-in link with it on
start. Whoever can read the store can read every event anyway.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import DateTime, Engine, String, select
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from hikone_carrom.server.storage.models import Base
from hikone_carrom.server.storage.store import StoreUnavailable

__all__ = ["ORGANISER_KEY_NAME", "ServerKeyRow", "organiser_key"]

ORGANISER_KEY_NAME = "organiser"


class ServerKeyRow(Base):
    """A key of the server (``name``: ``organiser``) and when it was made."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def organiser_key(engine: Engine) -> str:
    """The organiser's key of the store on ``engine``, made now (``secrets.token_urlsafe(32)``)
    if it has none.

    Two processes starting at once both insert; the database keeps one row (primary key) and the
    other reads the one kept. Raises :class:`StoreUnavailable` when the store cannot be reached.
    """
    try:
        stored = _read(engine)
        if stored is not None:
            return stored
        made = secrets.token_urlsafe(32)
        try:
            with Session(engine) as session, session.begin():
                session.add(
                    ServerKeyRow(name=ORGANISER_KEY_NAME, value=made, created_at=datetime.now(UTC))
                )
        except IntegrityError:
            kept = _read(engine)  # another process made it first
            assert kept is not None
            return kept
        return made
    except DBAPIError as err:
        reason = str(err.orig or err).strip().splitlines()
        raise StoreUnavailable(reason[0] if reason else type(err).__name__) from err


def _read(engine: Engine) -> str | None:
    with Session(engine) as session:
        return session.scalars(
            select(ServerKeyRow.value).where(ServerKeyRow.name == ORGANISER_KEY_NAME)
        ).one_or_none()
