"""The game store: one object that reads and writes rooms, seats, games and events.

Synchronous SQLAlchemy 2 over any URL (SQLite by default, PostgreSQL works the same). The server
calls it from a worker thread, never from the event loop. Values cross the boundary as plain
frozen dataclasses, never as ORM objects.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from hikone_carrom.server.storage.models import AnalysisRow, EventRow, GameRow, RoomRow, SeatRow

__all__ = [
    "GameStore",
    "RoomBrief",
    "StoreError",
    "StoredAnalysis",
    "StoredEvent",
    "StoredGame",
    "StoredRoom",
    "StoredSeat",
    "hash_token",
]

_MIGRATIONS = Path(__file__).with_name("migrations")


class StoreError(Exception):
    """The store cannot do what was asked (unknown room or game, duplicate event number)."""


def hash_token(token: str) -> str:
    """SHA-256 hex digest of a seat token; the store never keeps the token itself."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """SQLite drops the time zone; every stored moment is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class StoredSeat:
    """One seat of a room: ``kind`` is ``human``, ``computer`` or ``open``."""

    seat: int
    kind: str
    name: str
    token_hash: str | None


@dataclass(frozen=True)
class StoredEvent:
    """One numbered event of a room as it was broadcast (``payload`` is the event body)."""

    seq: int
    game_id: str
    kind: str
    created_at: datetime
    payload: dict[str, Any]


@dataclass(frozen=True)
class StoredGame:
    """One match of a room; ``outcome`` and ``record`` are set when it is over."""

    id: str
    room_id: str
    number: int
    seed: int
    players: int
    mode: str
    seat_names: tuple[str, ...]
    started_at: datetime
    finished_at: datetime | None
    shots: int
    outcome: dict[str, Any] | None
    record: dict[str, Any] | None


@dataclass(frozen=True)
class StoredRoom:
    """A room with its seats, its games in order and its whole event log; ``hints`` says
    whether its players may ask for the expert's hint."""

    id: str
    created_at: datetime
    mode: str
    players: int
    ai_level: str | None
    minutes: float | None
    seed: int
    last_seq: int
    seats: tuple[StoredSeat, ...]
    games: tuple[StoredGame, ...]
    events: tuple[StoredEvent, ...]
    hints: bool = True


@dataclass(frozen=True)
class StoredAnalysis:
    """A game's post-game analysis: ``status`` "running", "done" or "failed"; ``done`` shots of
    ``total`` analysed; ``result`` the analysis of those shots (``Analysis.to_dict``)."""

    game_id: str
    version: int
    status: str
    done: int
    total: int
    result: dict[str, Any] | None
    error: str | None = None


@dataclass(frozen=True)
class RoomBrief:
    """What the start page's "my games" needs of a room without rebuilding it: its seats, its
    current game and the state sent with its last event (``None`` before any)."""

    id: str
    mode: str
    players: int
    seats: tuple[StoredSeat, ...]
    game_id: str | None
    game_number: int
    finished: bool
    state: dict[str, Any] | None
    updated_at: datetime


def _game(row: GameRow) -> StoredGame:
    return StoredGame(
        id=row.id,
        room_id=row.room_id,
        number=row.number,
        seed=row.seed,
        players=row.players,
        mode=row.mode,
        seat_names=tuple(row.seat_names),
        started_at=_aware(row.started_at),
        finished_at=None if row.finished_at is None else _aware(row.finished_at),
        shots=row.shots,
        outcome=row.outcome,
        record=row.record,
    )


def _event(row: EventRow) -> StoredEvent:
    payload = json.loads(row.payload)
    if not isinstance(payload, dict):
        raise StoreError(f"event {row.room_id}#{row.seq}: payload is not an object")
    return StoredEvent(
        seq=row.seq,
        game_id=row.game_id,
        kind=row.kind,
        created_at=_aware(row.created_at),
        payload=payload,
    )


class GameStore:
    """Rooms, seats, games and events in one SQL database (any SQLAlchemy URL)."""

    def __init__(self, url: str) -> None:
        self.url = url
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            Path(parsed.database or "").expanduser().parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(url)
        if parsed.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (creates it on a new database)."""
        config = Config()
        config.set_main_option("script_location", str(_MIGRATIONS))
        config.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def close(self) -> None:
        """Release every pooled connection."""
        self.engine.dispose()

    def _session(self) -> Session:
        return self._sessions()

    # rooms and seats

    def create_room(
        self,
        room_id: str,
        *,
        mode: str,
        players: int,
        ai_level: str | None,
        minutes: float | None,
        seed: int,
        seats: list[StoredSeat],
        hints: bool = True,
    ) -> None:
        """Store a new room and its seats (``hints``: may its players ask for a hint)."""
        with self._session() as session, session.begin():
            session.add(
                RoomRow(
                    id=room_id,
                    created_at=_now(),
                    mode=mode,
                    players=players,
                    ai_level=ai_level,
                    minutes=minutes,
                    seed=seed,
                    last_seq=0,
                    hints=hints,
                )
            )
            session.flush()
            for seat in seats:
                session.add(
                    SeatRow(
                        room_id=room_id,
                        seat=seat.seat,
                        kind=seat.kind,
                        name=seat.name,
                        token_hash=seat.token_hash,
                    )
                )

    def save_seat(self, room_id: str, seat: StoredSeat) -> None:
        """Update who sits at one seat."""
        with self._session() as session, session.begin():
            row = session.get(SeatRow, (room_id, seat.seat))
            if row is None:
                raise StoreError(f"room {room_id} has no seat {seat.seat}")
            row.kind = seat.kind
            row.name = seat.name
            row.token_hash = seat.token_hash

    def room_ids(self) -> list[str]:
        """Every stored room id, oldest first."""
        with self._session() as session:
            return list(session.scalars(select(RoomRow.id).order_by(RoomRow.created_at)))

    def load_room(self, room_id: str) -> StoredRoom:
        """A room with its seats, games and event log, as stored."""
        with self._session() as session:
            room = session.get(RoomRow, room_id)
            if room is None:
                raise StoreError(f"no room {room_id}")
            seats = session.scalars(
                select(SeatRow).where(SeatRow.room_id == room_id).order_by(SeatRow.seat)
            )
            games = session.scalars(
                select(GameRow).where(GameRow.room_id == room_id).order_by(GameRow.number)
            )
            events = session.scalars(
                select(EventRow).where(EventRow.room_id == room_id).order_by(EventRow.seq)
            )
            return StoredRoom(
                id=room.id,
                created_at=_aware(room.created_at),
                mode=room.mode,
                players=room.players,
                ai_level=room.ai_level,
                minutes=room.minutes,
                seed=room.seed,
                last_seq=room.last_seq,
                seats=tuple(StoredSeat(s.seat, s.kind, s.name, s.token_hash) for s in seats),
                games=tuple(_game(g) for g in games),
                events=tuple(_event(e) for e in events),
                hints=bool(room.hints),
            )

    # games and events

    def start_game(self, game: StoredGame) -> None:
        """Store a new match of a room."""
        with self._session() as session, session.begin():
            session.add(
                GameRow(
                    id=game.id,
                    room_id=game.room_id,
                    number=game.number,
                    seed=game.seed,
                    players=game.players,
                    mode=game.mode,
                    seat_names=list(game.seat_names),
                    started_at=game.started_at,
                    finished_at=None,
                    shots=0,
                    outcome=None,
                    record=None,
                )
            )

    def append_event(
        self,
        room_id: str,
        seq: int,
        game_id: str,
        kind: str,
        payload: dict[str, Any],
        *,
        shots: int | None = None,
        finished: tuple[dict[str, Any], dict[str, Any]] | None = None,
    ) -> datetime:
        """Append event ``seq`` of a room in one transaction, with the game's new shot count and,
        when the game just ended, its (outcome, record). Returns the stored time."""
        moment = _now()
        with self._session() as session, session.begin():
            room = session.get(RoomRow, room_id)
            if room is None:
                raise StoreError(f"no room {room_id}")
            if seq != room.last_seq + 1:
                raise StoreError(f"room {room_id}: event {seq} after {room.last_seq}")
            room.last_seq = seq
            session.add(
                EventRow(
                    room_id=room_id,
                    seq=seq,
                    game_id=game_id,
                    kind=kind,
                    created_at=moment,
                    payload=json.dumps(payload, separators=(",", ":")),
                )
            )
            if shots is not None or finished is not None:
                game = session.get(GameRow, game_id)
                if game is None:
                    raise StoreError(f"no game {game_id}")
                if shots is not None:
                    game.shots = shots
                if finished is not None:
                    game.outcome, game.record = finished
                    game.finished_at = moment
        return moment

    def finished_games(self, limit: int = 100, offset: int = 0) -> list[StoredGame]:
        """Finished games, newest first."""
        with self._session() as session:
            rows = session.scalars(
                select(GameRow)
                .where(GameRow.finished_at.is_not(None))
                .order_by(GameRow.finished_at.desc(), GameRow.id)
                .limit(limit)
                .offset(offset)
            )
            return [_game(r) for r in rows]

    def count_finished_games(self) -> int:
        """How many games are over."""
        with self._session() as session:
            return int(
                session.scalar(
                    select(func.count())
                    .select_from(GameRow)
                    .where(GameRow.finished_at.is_not(None))
                )
                or 0
            )

    def game(self, game_id: str) -> StoredGame:
        """One game by id."""
        with self._session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"no game {game_id}")
            return _game(row)

    def game_events(self, game_id: str) -> list[StoredEvent]:
        """Every event of one game, in order."""
        with self._session() as session:
            rows = session.scalars(
                select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq)
            )
            return [_event(r) for r in rows]

    # post-game analyses

    def analysis(self, game_id: str) -> StoredAnalysis | None:
        """The stored analysis of a game, if any."""
        with self._session() as session:
            row = session.get(AnalysisRow, game_id)
            if row is None:
                return None
            return StoredAnalysis(
                row.game_id, row.version, row.status, row.done, row.total, row.result, row.error
            )

    def save_analysis(self, analysis: StoredAnalysis) -> None:
        """Store (or replace) a game's analysis."""
        with self._session() as session, session.begin():
            if session.get(GameRow, analysis.game_id) is None:
                raise StoreError(f"no game {analysis.game_id}")
            row = session.get(AnalysisRow, analysis.game_id)
            if row is None:
                row = AnalysisRow(game_id=analysis.game_id)
                session.add(row)
            row.version = analysis.version
            row.status = analysis.status
            row.done = analysis.done
            row.total = analysis.total
            row.result = analysis.result
            row.error = analysis.error
            row.updated_at = _now()

    # rooms in brief

    def room_briefs(self, room_ids: list[str]) -> list[RoomBrief]:
        """The rooms among ``room_ids`` that exist, in brief (unknown ids are left out)."""
        out: list[RoomBrief] = []
        with self._session() as session:
            for room in session.scalars(select(RoomRow).where(RoomRow.id.in_(room_ids))):
                seats = session.scalars(
                    select(SeatRow).where(SeatRow.room_id == room.id).order_by(SeatRow.seat)
                )
                game = session.scalars(
                    select(GameRow)
                    .where(GameRow.room_id == room.id)
                    .order_by(GameRow.number.desc())
                    .limit(1)
                ).first()
                state: dict[str, Any] | None = None
                updated = _aware(room.created_at)
                recent = session.scalars(
                    select(EventRow)
                    .where(EventRow.room_id == room.id)
                    .order_by(EventRow.seq.desc())
                    .limit(20)
                )
                for k, row in enumerate(recent):
                    if k == 0:
                        updated = _aware(row.created_at)
                    payload = json.loads(row.payload)
                    if isinstance(payload, dict) and isinstance(payload.get("state"), dict):
                        state = payload["state"]
                        break
                out.append(
                    RoomBrief(
                        id=room.id,
                        mode=room.mode,
                        players=room.players,
                        seats=tuple(
                            StoredSeat(s.seat, s.kind, s.name, s.token_hash) for s in seats
                        ),
                        game_id=None if game is None else game.id,
                        game_number=0 if game is None else game.number,
                        finished=game is not None and game.finished_at is not None,
                        state=state,
                        updated_at=updated,
                    )
                )
        return out


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL journal and enforced foreign keys on every SQLite connection."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
