"""Reading and writing tournaments: the event document, live match states, the audit trail.

Synchronous, like :class:`~hikone_carrom.server.storage.store.GameStore` whose engine it shares;
the server calls it from its store thread. Every change of an event is one transaction: the new
document, the live rows it touched and its audit entries land together or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session, sessionmaker

from hikone_carrom.server.storage.store import StoreError, guarded
from hikone_carrom.server.storage.tournament_models import (
    TournamentAuditRow,
    TournamentLiveRow,
    TournamentPadRow,
    TournamentRow,
)

__all__ = ["AuditEntry", "LiveState", "StoredTournament", "TournamentStore"]


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _tokens(text: str | None) -> tuple[tuple[int, str], ...]:
    if not text:
        return ()
    data = json.loads(text)
    return tuple(sorted((int(k), str(v)) for k, v in data.items()))


@dataclass(frozen=True)
class LiveState:
    """A match on the day: ``status`` ``called`` / ``playing`` / ``finished``, its board, times
    (UTC), where its result came from (``director``, ``pad`` or ``online``), the scoring pad's
    board and match number that serve it, or the online room and the seat tokens handed out so
    far ((seat, token) pairs); a finished match's ``result`` (``Result.to_dict``)."""

    match_id: str
    status: str
    board: int | None = None
    called_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    source: str | None = None
    pad_board: str | None = None
    pad_match: int | None = None
    room: str | None = None
    seat_tokens: tuple[tuple[int, str], ...] = ()
    result: dict[str, Any] | None = None


@dataclass(frozen=True)
class AuditEntry:
    """Who changed what and when (``detail`` holds the before and after values)."""

    seq: int
    at: datetime
    who: str
    action: str
    target: str
    detail: dict[str, Any]


@dataclass(frozen=True)
class StoredTournament:
    """An event as stored: its document carries every result (those of the live rows
    folded in)."""

    id: str
    name: str
    director_hash: str
    seq: int
    doc: dict[str, Any]
    live: dict[str, LiveState]


class TournamentStore:
    """Tournaments in the game store's database (any SQLAlchemy URL)."""

    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        """A session whose database failures raise :class:`StoreUnavailable`."""
        with guarded(), self._sessions() as session:
            yield session

    def create(
        self, tournament_id: str, name: str, director_hash: str, doc: dict[str, Any]
    ) -> None:
        """Store a new event (change number 0)."""
        now = datetime.now(UTC)
        with self._session() as session, session.begin():
            session.add(
                TournamentRow(
                    id=tournament_id,
                    created_at=now,
                    updated_at=now,
                    name=name,
                    director_hash=director_hash,
                    seq=0,
                    doc=json.dumps(doc, ensure_ascii=False, separators=(",", ":")),
                )
            )

    def load(self, tournament_id: str) -> StoredTournament:
        """An event with its live rows; raises :class:`StoreError` when unknown."""
        with self._session() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise StoreError(f"no tournament {tournament_id}")
            live = list(
                session.scalars(
                    select(TournamentLiveRow).where(
                        TournamentLiveRow.tournament_id == tournament_id
                    )
                )
            )
            doc = json.loads(row.doc)
            # a result is stored with its live row; the document has those of its last rewrite
            doc["results"].update({r.match_id: json.loads(r.result) for r in live if r.result})
            return StoredTournament(
                id=row.id,
                name=row.name,
                director_hash=row.director_hash,
                seq=row.seq,
                doc=doc,
                live={
                    r.match_id: LiveState(
                        r.match_id,
                        r.status,
                        r.board,
                        _aware(r.called_at),
                        _aware(r.started_at),
                        _aware(r.finished_at),
                        r.source,
                        r.pad_board,
                        r.pad_match,
                        r.room,
                        _tokens(r.seat_tokens),
                        None if r.result is None else json.loads(r.result),
                    )
                    for r in live
                },
            )

    def save(
        self,
        tournament_id: str,
        seq: int,
        *,
        doc: dict[str, Any] | None = None,
        live: Sequence[LiveState] = (),
        removed: Sequence[str] = (),
        audit: Sequence[tuple[str, str, str, dict[str, Any]]] = (),
    ) -> None:
        """Store change ``seq`` (the stored one + 1) in one transaction: the new document if
        given, live rows to write or remove, and audit entries ``(who, action, target,
        detail)``."""
        now = datetime.now(UTC)
        with self._session() as session, session.begin():
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise StoreError(f"no tournament {tournament_id}")
            if seq != row.seq + 1:
                raise StoreError(f"tournament {tournament_id}: change {seq} after {row.seq}")
            row.seq = seq
            row.updated_at = now
            if doc is not None:
                row.doc = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
                row.name = str(doc.get("settings", {}).get("name", row.name))[:200]
            for state in live:
                found = session.get(TournamentLiveRow, (tournament_id, state.match_id))
                if found is None:
                    found = TournamentLiveRow(tournament_id=tournament_id, match_id=state.match_id)
                    session.add(found)
                found.status = state.status
                found.board = state.board
                found.called_at = state.called_at
                found.started_at = state.started_at
                found.finished_at = state.finished_at
                found.source = state.source
                found.pad_board = state.pad_board
                found.pad_match = state.pad_match
                found.room = state.room
                found.seat_tokens = (
                    json.dumps({str(k): v for k, v in state.seat_tokens})
                    if state.seat_tokens
                    else None
                )
                found.result = None if state.result is None else json.dumps(state.result)
            for match_id in removed:
                gone = session.get(TournamentLiveRow, (tournament_id, match_id))
                if gone is not None:
                    session.delete(gone)
            if audit:
                last = session.scalar(
                    select(func.max(TournamentAuditRow.seq)).where(
                        TournamentAuditRow.tournament_id == tournament_id
                    )
                )
                n = int(last or 0)
                for who, action, target, detail in audit:
                    n += 1
                    session.add(
                        TournamentAuditRow(
                            tournament_id=tournament_id,
                            seq=n,
                            at=now,
                            who=who[:64],
                            action=action[:32],
                            target=target[:64],
                            detail=json.dumps(detail, ensure_ascii=False),
                        )
                    )

    def set_pads(self, tournament_id: str, pads: dict[int, tuple[str, str]]) -> None:
        """Link board numbers to scoring pads: ``{board: (pad board id, pad link)}``."""
        with self._session() as session, session.begin():
            for board, (pad_board, url) in pads.items():
                row = session.get(TournamentPadRow, (tournament_id, board))
                if row is None:
                    row = TournamentPadRow(tournament_id=tournament_id, board=board)
                    session.add(row)
                row.pad_board = pad_board
                row.pad_url = url

    def pads(self, tournament_id: str) -> dict[int, tuple[str, str]]:
        """The event's scoring pads: ``{board: (pad board id, pad link)}``."""
        with self._session() as session:
            rows = session.scalars(
                select(TournamentPadRow).where(TournamentPadRow.tournament_id == tournament_id)
            )
            return {r.board: (r.pad_board, r.pad_url) for r in rows}

    def find_pad_match(self, pad_board: str, pad_match: int) -> tuple[str, str] | None:
        """(event id, match id) of the match a scoring pad's match serves, or None."""
        with self._session() as session:
            row = session.scalars(
                select(TournamentLiveRow).where(
                    TournamentLiveRow.pad_board == pad_board,
                    TournamentLiveRow.pad_match == pad_match,
                )
            ).first()
            return None if row is None else (row.tournament_id, row.match_id)

    def in_play(self) -> list[str]:
        """Ids of the events with a match called or being played (a restart watches their
        scoring pads and online rooms again)."""
        with self._session() as session:
            rows = session.scalars(
                select(TournamentLiveRow.tournament_id)
                .where(TournamentLiveRow.status.in_(("called", "playing")))
                .distinct()
            )
            return sorted(rows)

    def auto_on(self) -> list[str]:
        """Ids of the events in automatic mode (a restart carries it on for each, whether or
        not a match is on a board)."""
        with self._session() as session:
            # the documents are stored compact (``"on":true``): the filter keeps the parsing
            # to the few events that may be in automatic mode
            rows = session.execute(
                select(TournamentRow.id, TournamentRow.doc).where(
                    TournamentRow.doc.contains('"on":true')
                )
            )
            return sorted(i for i, doc in rows if (json.loads(doc).get("auto") or {}).get("on"))

    def audit(self, tournament_id: str, limit: int = 200) -> list[AuditEntry]:
        """The newest audit entries first."""
        with self._session() as session:
            rows = session.scalars(
                select(TournamentAuditRow)
                .where(TournamentAuditRow.tournament_id == tournament_id)
                .order_by(TournamentAuditRow.seq.desc())
                .limit(limit)
            )
            return [
                AuditEntry(
                    r.seq, _aware(r.at) or r.at, r.who, r.action, r.target, json.loads(r.detail)
                )
                for r in rows
            ]
