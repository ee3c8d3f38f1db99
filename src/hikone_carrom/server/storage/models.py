"""SQLAlchemy tables of the game store: rooms, their seats, games and the numbered event log.

The event log is append-only: every broadcast event of a room is stored with its number (``seq``)
before it is sent, so a restarted server rebuilds every room by replaying it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["AnalysisRow", "Base", "EventRow", "GameRow", "RoomRow", "SeatRow"]


class Base(DeclarativeBase):
    """Declarative base of the store's tables."""


class RoomRow(Base):
    """A room: a table where one match after another (rematches) is played; ``hints`` says
    whether its players may ask for the expert's hint; ``epoch`` is the fencing number of the
    process that owns it (raised at each takeover, checked by every write)."""

    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mode: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    ai_level: Mapped[str | None] = mapped_column(String(32), nullable=True)
    minutes: Mapped[float | None] = mapped_column(Float, nullable=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    hints: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    epoch: Mapped[int] = mapped_column(BigInteger, default=0, server_default=text("0"))


class SeatRow(Base):
    """Who sits at one seat of a room; only a hash of the seat token is kept."""

    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(64), default="")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class GameRow(Base):
    """One match played in a room; ``record`` is the library's match record once it is over."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    room_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("rooms.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(16))
    seat_names: Mapped[list[str]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    shots: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class EventRow(Base):
    """One numbered event of a room, exactly as it was broadcast."""

    __tablename__ = "events"

    room_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(String(40), index=True)
    kind: Mapped[str] = mapped_column(String(24))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    payload: Mapped[str] = mapped_column(Text)


class AnalysisRow(Base):
    """The post-game analysis of one game (``hikone_carrom.ai.analysis``): its status
    ("running", "done" or "failed"), the shots analysed so far of all, and the result (the
    analysis of the shots done, kept as it grows so that a restart resumes it)."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    done: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
