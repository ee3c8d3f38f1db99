"""The game store: one object that reads and writes rooms, seats, games and events.

Synchronous SQLAlchemy 2 over any URL (SQLite by default, PostgreSQL works the same). The server
calls it from a worker thread, never from the event loop. Values cross the boundary as plain
frozen dataclasses, never as ORM objects.

Every change of a room is one event written in one transaction with everything that changes with
it (a seat, a new game, the game's shot count and record), so that the store never holds half a
change. Writes are fenced: each names the room's ``epoch`` its process holds
(:meth:`GameStore.claim_room` raises it), and a write with an older epoch is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Engine,
    Table,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from hikone_carrom.server.storage.models import AnalysisRow, EventRow, GameRow, RoomRow, SeatRow

__all__ = [
    "EventWrite",
    "GameStore",
    "RoomBrief",
    "StoreError",
    "StoreFenced",
    "StoreUnavailable",
    "StoredAnalysis",
    "StoredEvent",
    "StoredGame",
    "StoredRoom",
    "StoredSeat",
    "guarded",
    "hash_token",
]

_MIGRATIONS = Path(__file__).with_name("migrations")
_MIGRATE_LOCK = 0x6869_6B6F_6E65
"""PostgreSQL advisory lock held while the schema is migrated ("hikone")."""


class StoreError(Exception):
    """The store cannot do what was asked (unknown room or game, a bad value)."""


class StoreUnavailable(Exception):
    """The database cannot be reached or is locked; nothing was written (try again later)."""


class StoreFenced(Exception):
    """A write was refused because the room changed hands (a newer epoch) or another write took
    its event number: the writer's copy of the room is stale; nothing was written."""


@contextmanager
def guarded() -> Iterator[None]:
    """Turn a database that cannot be reached, or is locked, into :class:`StoreUnavailable`
    (and a write the database refuses into :class:`StoreError`)."""
    try:
        yield
    except IntegrityError as err:
        raise StoreError(f"refused by the database: {err.orig}") from err
    except (DBAPIError, PoolTimeout) as err:
        reason = str(getattr(err, "orig", None) or err).strip().splitlines()
        raise StoreUnavailable(reason[0] if reason else type(err).__name__) from err


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
    epoch: int = 0


@dataclass(frozen=True)
class EventWrite:
    """One event of a room and what changes with it, stored in one transaction.

    ``payload`` is the event body as JSON text (encoded once, also what is broadcast); ``epoch``
    is the writer's fencing number; ``shots`` and ``finished`` (outcome, record) update the game;
    ``seat`` replaces a seat; ``new_game`` starts a game (a rematch).
    """

    room_id: str
    epoch: int
    seq: int
    game_id: str
    kind: str
    payload: str
    shots: int | None = None
    finished: tuple[dict[str, Any], dict[str, Any]] | None = None
    seat: StoredSeat | None = None
    new_game: StoredGame | None = None


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


def _game_row(game: StoredGame) -> dict[str, Any]:
    return {
        "id": game.id,
        "room_id": game.room_id,
        "number": game.number,
        "seed": game.seed,
        "players": game.players,
        "mode": game.mode,
        "seat_names": list(game.seat_names),
        "started_at": game.started_at,
        "finished_at": None,
        "shots": 0,
        "outcome": None,
        "record": None,
    }


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
    """Rooms, seats, games and events in one SQL database (any SQLAlchemy URL).

    ``timeout_s`` bounds how long a call waits for a locked SQLite file or a PostgreSQL connection
    before it fails with :class:`StoreUnavailable`.
    """

    def __init__(self, url: str, *, timeout_s: float = 5.0) -> None:
        self.url = url
        parsed = make_url(url)
        backend = parsed.get_backend_name()
        connect_args: dict[str, Any] = {}
        if backend == "sqlite":
            if parsed.database not in (None, "", ":memory:"):
                Path(parsed.database or "").expanduser().parent.mkdir(parents=True, exist_ok=True)
            connect_args["timeout"] = timeout_s
        elif backend == "postgresql":
            connect_args["connect_timeout"] = max(1, round(timeout_s))
        self.engine: Engine = create_engine(
            url, pool_pre_ping=True, pool_timeout=timeout_s, connect_args=connect_args
        )
        if backend == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (creates it on a new database). On
        PostgreSQL, processes started together take turns (an advisory lock)."""
        config = Config()
        config.set_main_option("script_location", str(_MIGRATIONS))
        config.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with guarded(), self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATE_LOCK}
                )
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def close(self) -> None:
        """Release every pooled connection."""
        self.engine.dispose()

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with guarded(), self._sessions() as session:
            yield session

    @contextmanager
    def _write(self) -> Iterator[Session]:
        with guarded(), self._sessions() as session, session.begin():
            yield session

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
        seats: Sequence[StoredSeat],
        hints: bool = True,
        game: StoredGame | None = None,
    ) -> int:
        """Store a new room, its seats and its first game (``hints``: may its players ask for a
        hint). Returns the room's epoch (1: its creator owns it)."""
        with self._write() as session:
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
                    epoch=1,
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
            if game is not None:
                session.execute(insert(GameRow), [_game_row(game)])
        return 1

    def room_ids(self) -> list[str]:
        """Every stored room id, oldest first."""
        with self._read() as session:
            return list(session.scalars(select(RoomRow.id).order_by(RoomRow.created_at)))

    def load_room(self, room_id: str) -> StoredRoom:
        """A room with its seats, games and event log, as stored."""
        with self._read() as session:
            return _load(session, room_id)

    def claim_room(self, room_id: str) -> StoredRoom:
        """Take a room over: raise its epoch (so that writes of any earlier owner are refused) and
        load it, in one transaction. The returned room carries the new epoch."""
        with self._write() as session:
            epoch = session.scalar(
                update(RoomRow)
                .where(RoomRow.id == room_id)
                .values(epoch=RoomRow.epoch + 1)
                .returning(RoomRow.epoch)
            )
            if epoch is None:
                raise StoreError(f"no room {room_id}")
            return _load(session, room_id)

    # games and events

    def append(self, write: EventWrite) -> datetime:
        """Store one event of a room with everything that changes with it, in one transaction.
        Returns the stored time.

        Raises:
            StoreFenced: the room has a newer epoch, or its last event is not ``seq - 1``.
            StoreError: no such room or game. StoreUnavailable: the database cannot be used.
        """
        moment = _now()
        with self._write() as session:
            _append(session, [write], moment)
        return moment

    def append_many(self, writes: Sequence[EventWrite]) -> list[datetime | Exception]:
        """Store events of different rooms, each as :meth:`append` would, in one transaction
        (one commit for all of them: group commit). Returns per write its stored time, or the
        exception that refused it (:class:`StoreFenced`, :class:`StoreError`); a refused write
        stores nothing of itself and does not hold the others back.

        Raises:
            StoreUnavailable: the database cannot be used; none of them was stored.
        """
        moment = _now()
        try:
            with self._write() as session:
                _append(session, writes, moment)
        except (StoreFenced, StoreError):
            if len(writes) == 1:
                raise
        else:
            return [moment] * len(writes)
        # one of them was refused and the transaction rolled back: each one on its own
        out: list[datetime | Exception] = []
        for write in writes:
            try:
                out.append(self.append(write))
            except (StoreFenced, StoreError, StoreUnavailable) as err:
                out.append(err)
        return out

    def events_after(self, room_id: str, seq: int) -> list[StoredEvent]:
        """A room's events numbered above ``seq``, in order."""
        with self._read() as session:
            rows = session.scalars(
                select(EventRow)
                .where(EventRow.room_id == room_id, EventRow.seq > seq)
                .order_by(EventRow.seq)
            )
            return [_event(r) for r in rows]

    def finished_games(self, limit: int = 100, offset: int = 0) -> list[StoredGame]:
        """Finished games, newest first."""
        with self._read() as session:
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
        with self._read() as session:
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
        with self._read() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"no game {game_id}")
            return _game(row)

    def game_events(self, game_id: str) -> list[StoredEvent]:
        """Every event of one game, in order."""
        with self._read() as session:
            rows = session.scalars(
                select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq)
            )
            return [_event(r) for r in rows]

    # post-game analyses

    def analysis(self, game_id: str) -> StoredAnalysis | None:
        """The stored analysis of a game, if any."""
        with self._read() as session:
            row = session.get(AnalysisRow, game_id)
            if row is None:
                return None
            return StoredAnalysis(
                row.game_id, row.version, row.status, row.done, row.total, row.result, row.error
            )

    def save_analysis(self, analysis: StoredAnalysis) -> None:
        """Store (or replace) a game's analysis."""
        with self._write() as session:
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
        with self._read() as session:
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


def _load(session: Session, room_id: str) -> StoredRoom:
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
        epoch=room.epoch,
    )


_ROOMS = cast(Table, RoomRow.__table__)
_FENCE = (
    update(_ROOMS)
    .where(
        _ROOMS.c.id == bindparam("w_room"),
        _ROOMS.c.last_seq == bindparam("w_prev"),
        _ROOMS.c.epoch == bindparam("w_epoch"),
    )
    .values(last_seq=bindparam("w_seq"))
)
"""Move a room from event ``w_prev`` to ``w_seq`` if its epoch is still ``w_epoch``."""

_SEATS = cast(Table, SeatRow.__table__)
_SEAT = (
    update(_SEATS)
    .where(_SEATS.c.room_id == bindparam("w_room"), _SEATS.c.seat == bindparam("w_seat"))
    .values(kind=bindparam("w_kind"), name=bindparam("w_name"), token_hash=bindparam("w_token"))
)

_GAMES = cast(Table, GameRow.__table__)
_EVENTS = cast(Table, EventRow.__table__)
_SHOTS = update(_GAMES).where(_GAMES.c.id == bindparam("w_game")).values(shots=bindparam("w_shots"))


def _append(session: Session, writes: Sequence[EventWrite], moment: datetime) -> None:
    """The statements of :meth:`GameStore.append` for one write or more, each statement once
    for all of them (one ``executemany``: a single round trip through PostgreSQL's pipeline).
    Raises :class:`StoreFenced` or :class:`StoreError` if any write is refused (the caller
    rolls back; :meth:`GameStore.append_many` then stores each on its own to learn which)."""
    conn = session.connection()
    moved = conn.execute(
        _FENCE,
        [
            {"w_room": w.room_id, "w_prev": w.seq - 1, "w_epoch": w.epoch, "w_seq": w.seq}
            for w in writes
        ],
    )
    if moved.rowcount != len(writes):
        if len(writes) == 1:
            raise _refusal(session, writes[0])
        raise StoreFenced("a room of the group is not at the event or epoch its write names")
    games = [_game_row(w.new_game) for w in writes if w.new_game is not None]
    if games:
        conn.execute(insert(_GAMES), games)
    conn.execute(
        insert(_EVENTS),
        [
            {
                "room_id": w.room_id,
                "seq": w.seq,
                "game_id": w.game_id,
                "kind": w.kind,
                "created_at": moment,
                "payload": w.payload,
            }
            for w in writes
        ],
    )
    seats = [
        {
            "w_room": w.room_id,
            "w_seat": w.seat.seat,
            "w_kind": w.seat.kind,
            "w_name": w.seat.name,
            "w_token": w.seat.token_hash,
        }
        for w in writes
        if w.seat is not None
    ]
    if seats and conn.execute(_SEAT, seats).rowcount != len(seats):
        named = ", ".join(f"room {s['w_room']} seat {s['w_seat']}" for s in seats)
        raise StoreError(f"no such seat among {named}")
    shots = [
        {"w_game": w.game_id, "w_shots": w.shots}
        for w in writes
        if w.shots is not None and w.finished is None
    ]
    if shots and conn.execute(_SHOTS, shots).rowcount != len(shots):
        raise StoreError(f"no such game among {', '.join(str(g['w_game']) for g in shots)}")
    for w in writes:
        if w.finished is not None:
            values: dict[str, Any] = {"finished_at": moment}
            values["outcome"], values["record"] = w.finished
            if w.shots is not None:
                values["shots"] = w.shots
            changed = conn.execute(update(_GAMES).where(_GAMES.c.id == w.game_id).values(**values))
            if changed.rowcount != 1:
                raise StoreError(f"no game {w.game_id}")


def _refusal(session: Session, write: EventWrite) -> StoreError | StoreFenced:
    """Why the store refused a write's event: no such room, or the room is elsewhere."""
    row = session.execute(
        select(RoomRow.last_seq, RoomRow.epoch).where(RoomRow.id == write.room_id)
    ).first()
    if row is None:
        return StoreError(f"no room {write.room_id}")
    return StoreFenced(
        f"room {write.room_id}: event {write.seq} at epoch {write.epoch} refused "
        f"(stored: event {row.last_seq}, epoch {row.epoch})"
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL journal and enforced foreign keys on every SQLite connection."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
