"""The pads' store: boards, their refereed matches and numbered events, on the game store's
database (same engine, same Alembic migrations). Called from the store thread, never from the
event loop; values cross the boundary as frozen dataclasses. A database that cannot be reached
or is locked raises :class:`~hikone_carrom.server.storage.store.StoreUnavailable`."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from hikone_carrom.server.storage.pad_models import BoardEventRow, BoardMatchRow, BoardRow
from hikone_carrom.server.storage.store import StoreError, guarded

__all__ = ["BoardChange", "PadStore", "StoredBoard", "StoredBoardMatch"]


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class StoredBoardMatch:
    """A match of a board as stored: set-up and entries (dicts of ``hikone_carrom.scoring``)."""

    number: int
    setup: dict[str, Any]
    entries: list[Any]
    clock: dict[str, Any] | None
    confirmed: bool
    outcome: dict[str, Any] | None
    record: dict[str, Any] | None
    started_at: datetime
    finished_at: datetime | None
    withdrawn: dict[str, Any] | None = None
    """Who withdrew the board call that opened it (its ``withdrawn`` event), or None."""


@dataclass(frozen=True)
class BoardChange:
    """One numbered event of a board to store: its kind and payload, the match it changed
    (written whole) and the bound device with its last applied entry number, when given."""

    seq: int
    kind: str
    payload: dict[str, Any]
    match: StoredBoardMatch | None = None
    device: tuple[str | None, int] | None = None


@dataclass(frozen=True)
class StoredBoard:
    """A board: its token hash, bound device and counters, and its current match if any."""

    id: str
    name: str
    token_hash: str
    device_id: str | None
    device_seq: int
    last_seq: int
    match: StoredBoardMatch | None


def _withdrawn(session: Session, board_id: str, number: int) -> dict[str, Any] | None:
    """Who withdrew match ``number`` of a board (its ``withdrawn`` event, unless a set-up on
    the pad opened a match of the same number after it), or None."""
    row = session.execute(
        select(BoardEventRow.kind, BoardEventRow.payload)
        .where(
            BoardEventRow.board_id == board_id,
            BoardEventRow.match_number == number,
            BoardEventRow.kind.in_(("match", "withdrawn")),
        )
        .order_by(BoardEventRow.seq.desc())
        .limit(1)
    ).first()
    if row is None or row.kind != "withdrawn":
        return None
    by: dict[str, Any] = json.loads(row.payload)["withdrawn"]
    return by


def _match(row: BoardMatchRow, withdrawn: dict[str, Any] | None = None) -> StoredBoardMatch:
    started = _aware(row.started_at)
    assert started is not None
    return StoredBoardMatch(
        number=row.number,
        setup=row.setup,
        entries=list(row.entries),
        clock=row.clock,
        confirmed=bool(row.confirmed),
        outcome=row.outcome,
        record=row.record,
        started_at=started,
        finished_at=_aware(row.finished_at),
        withdrawn=withdrawn,
    )


def _match_row(match: StoredBoardMatch) -> dict[str, Any]:
    """The columns of a board match's row (all but its key)."""
    return {
        "setup": match.setup,
        "entries": match.entries,
        "clock": match.clock,
        "started_at": match.started_at,
        "finished_at": match.finished_at,
        "confirmed": match.confirmed,
        "outcome": match.outcome,
        "record": match.record,
    }


def _event_row(board_id: str, match_number: int, change: BoardChange) -> dict[str, Any]:
    """The row of a board event (its payload as compact JSON text)."""
    return {
        "board_id": board_id,
        "seq": change.seq,
        "match_number": match_number,
        "kind": change.kind,
        "created_at": _now(),
        "payload": json.dumps(change.payload, separators=(",", ":"), ensure_ascii=False),
    }


class PadStore:
    """Boards, board matches and board events in the game store's database."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        """A session whose database failures raise :class:`StoreUnavailable`."""
        with guarded(), self._sessions() as session:
            yield session

    def create_board(self, board_id: str, name: str, token_hash: str) -> None:
        """Store a new board (no device bound, no match yet)."""
        with self._session() as session, session.begin():
            session.add(
                BoardRow(
                    id=board_id,
                    name=name,
                    created_at=_now(),
                    token_hash=token_hash,
                    device_id=None,
                    device_seq=0,
                    last_seq=0,
                    match_number=0,
                )
            )

    def load_board(self, board_id: str) -> StoredBoard:
        """A board with its current match."""
        with self._session() as session:
            row = session.get(BoardRow, board_id)
            if row is None:
                raise StoreError(f"no board {board_id}")
            match = None
            if row.match_number:
                m = session.get(BoardMatchRow, (board_id, row.match_number))
                match = None if m is None else _match(m, _withdrawn(session, board_id, m.number))
            return StoredBoard(
                id=row.id,
                name=row.name,
                token_hash=row.token_hash,
                device_id=row.device_id,
                device_seq=row.device_seq,
                last_seq=row.last_seq,
                match=match,
            )

    def board_match(self, board_id: str, number: int) -> StoredBoardMatch:
        """One match of a board."""
        with self._session() as session:
            row = session.get(BoardMatchRow, (board_id, number))
            if row is None:
                raise StoreError(f"board {board_id} has no match {number}")
            return _match(row)

    def commit(
        self,
        board_id: str,
        seq: int,
        kind: str,
        payload: dict[str, Any],
        *,
        match: StoredBoardMatch | None,
        device: tuple[str | None, int] | None = None,
    ) -> None:
        """Store event ``seq`` of a board in one transaction with the match it changed (written
        whole) and, when given, the bound device and its last applied entry number."""
        self.commit_all(board_id, [BoardChange(seq, kind, payload, match, device)])

    def commit_all(self, board_id: str, changes: Sequence[BoardChange]) -> None:
        """Store consecutive events of a board (all one pad's request brought) in one
        transaction, as :meth:`commit` stores each: all of them or none. Written as plain SQL
        statements (one update of the board, one of each match changed, one insert of the
        events), not through the ORM's unit of work: this runs once per pad request."""
        with guarded(), self._engine.begin() as conn:
            row = conn.execute(
                select(BoardRow.last_seq, BoardRow.match_number).where(BoardRow.id == board_id)
            ).first()
            if row is None:
                raise StoreError(f"no board {board_id}")
            last_seq, number = int(row.last_seq), int(row.match_number)
            board: dict[str, Any] = {}
            changed: dict[int, StoredBoardMatch] = {}  # the last state of each match changed
            rows: list[dict[str, Any]] = []
            for change in changes:
                if change.seq != last_seq + 1:
                    raise StoreError(f"board {board_id}: event {change.seq} after {last_seq}")
                last_seq = change.seq
                if change.device is not None:
                    board["device_id"], board["device_seq"] = change.device
                if change.match is not None:
                    number = change.match.number
                    changed[number] = change.match
                rows.append(_event_row(board_id, number, change))
            conn.execute(
                update(BoardRow)
                .where(BoardRow.id == board_id)
                .values(last_seq=last_seq, match_number=number, **board)
            )
            for n, match in changed.items():
                values = _match_row(match)
                key = (BoardMatchRow.board_id == board_id) & (BoardMatchRow.number == n)
                if conn.execute(update(BoardMatchRow).where(key).values(**values)).rowcount == 0:
                    conn.execute(
                        insert(BoardMatchRow).values(board_id=board_id, number=n, **values)
                    )
            if rows:
                conn.execute(insert(BoardEventRow), rows)

    def event_kinds(self, board_id: str) -> list[tuple[int, str]]:
        """(seq, kind) of every event of a board, in order (tests and audits)."""
        with self._session() as session:
            rows = session.execute(
                select(BoardEventRow.seq, BoardEventRow.kind)
                .where(BoardEventRow.board_id == board_id)
                .order_by(BoardEventRow.seq)
            )
            return [(int(s), str(k)) for s, k in rows]
