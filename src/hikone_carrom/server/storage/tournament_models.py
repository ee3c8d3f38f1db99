"""SQLAlchemy tables of tournaments, on the game store's declarative base.

An event is one JSON document (``hikone_carrom.tournament.Tournament.to_dict``) rewritten on every
change of its structure, with its change number ``seq``; each match's live state (called,
playing, finished, its result) has its own row, so a result rewrites that row only; every change
a person or a scoring pad made is kept in the audit trail.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from hikone_carrom.server.storage.models import Base

__all__ = ["TournamentAuditRow", "TournamentLiveRow", "TournamentPadRow", "TournamentRow"]


class TournamentRow(Base):
    """An event: its document and a hash of the director's token."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    name: Mapped[str] = mapped_column(String(200))
    director_hash: Mapped[str] = mapped_column(String(64))
    seq: Mapped[int] = mapped_column(Integer)
    doc: Mapped[str] = mapped_column(Text)


class TournamentLiveRow(Base):
    """Where a match stands on the day: ``status`` is ``called``, ``playing`` or ``finished``;
    the scoring pad's match, or the online room and its seat tokens (JSON), that serve it; its
    result (JSON), newer than the event document's."""

    __tablename__ = "tournament_live"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    match_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    board: Mapped[int | None] = mapped_column(Integer, nullable=True)
    called_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    source: Mapped[str | None] = mapped_column(String(32), nullable=True)
    pad_board: Mapped[str | None] = mapped_column(String(32), nullable=True)
    pad_match: Mapped[int | None] = mapped_column(Integer, nullable=True)
    room: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat_tokens: Mapped[str | None] = mapped_column(Text, nullable=True)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)


class TournamentAuditRow(Base):
    """One change: who (the operator's name, or ``pad:17``), what, when, and the details."""

    __tablename__ = "tournament_audit"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    who: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(64))
    detail: Mapped[str] = mapped_column(Text)


class TournamentPadRow(Base):
    """The scoring pad (``pad_board``, a board of :mod:`~hikone_carrom.server.pads.boards`) that
    serves board number ``board`` of an event, with the link that opens it."""

    __tablename__ = "tournament_pads"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    pad_board: Mapped[str] = mapped_column(String(32))
    pad_url: Mapped[str] = mapped_column(Text)
