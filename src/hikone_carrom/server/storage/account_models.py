"""SQLAlchemy tables of players' accounts: the account, its sign-in sessions, the room seats it
holds, its ratings per time control and the rated results (migration 0010)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from hikone_carrom.server.storage.models import Base

__all__ = ["AccountRow", "AccountSeatRow", "RatedResultRow", "RatingRow", "SessionRow"]


class AccountRow(Base):
    """An account: its display name, the name's comparison key (unique: no two names that look
    alike) and its password's argon2id hash."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(128), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its cookie's token and its CSRF token."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountSeatRow(Base):
    """A room's seat taken by a signed-in player."""

    __tablename__ = "account_seats"

    room_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE")
    )


class RatingRow(Base):
    """An account's rating in one time control, for singles (``players`` 2) or pairs (4)."""

    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    time_control: Mapped[str] = mapped_column(String(16), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatedResultRow(Base):
    """A rated game (once: its id is the key) and each account's rating before and after."""

    __tablename__ = "rated_results"

    game_id: Mapped[str] = mapped_column(String(80), primary_key=True)
    time_control: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    changes: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
