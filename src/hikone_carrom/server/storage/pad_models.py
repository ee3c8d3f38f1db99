"""SQLAlchemy tables of the scoring pads: boards, the matches refereed on them, numbered events.

A board is a real table in the hall; its pad device holds the board token (only its hash is
kept) and is bound by a device id at first use. Every change is an event numbered per board,
stored in one transaction with the match it changed, before it is broadcast.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column

from hikone_carrom.server.storage.models import Base

__all__ = ["BoardEventRow", "BoardMatchRow", "BoardRow"]


class BoardRow(Base):
    """A board with its pad: ``device_id`` is the device bound to it, ``device_seq`` the last
    entry number applied from that device (entries are applied exactly once)."""

    __tablename__ = "boards"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    token_hash: Mapped[str] = mapped_column(String(64))
    device_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    device_seq: Mapped[int] = mapped_column(Integer, default=0)
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    match_number: Mapped[int] = mapped_column(Integer, default=0)


class BoardMatchRow(Base):
    """One match refereed on a board: its set-up, its entries as they stand (after undo and
    corrections), the last clock reading, and the record once the result is confirmed."""

    __tablename__ = "board_matches"

    board_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("boards.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    entries: Mapped[list[Any]] = mapped_column(JSON)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class BoardEventRow(Base):
    """One numbered event of a board, exactly as it was broadcast."""

    __tablename__ = "board_events"

    board_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("boards.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(24))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    payload: Mapped[str] = mapped_column(Text)
