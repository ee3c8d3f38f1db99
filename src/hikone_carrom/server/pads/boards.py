"""Scoring pads: one owner per board serializes its changes, stores each as a numbered event
before broadcasting it, and applies the pad's entries exactly once, in order.

The pad device holds the board token and is bound to the board by its device id at first use;
another device is refused until the referee takes the board over explicitly. Entries carry the
device's sequence number: one already applied is skipped (a retry after a lost answer), one
after a gap is not applied until the missing ones arrive.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from pydantic import Field

from hikone_carrom.records import refereed_record
from hikone_carrom.rules import RulesError
from hikone_carrom.scoring import MatchSetup, RefereedMatch, SheetLine
from hikone_carrom.server.core.errors import RoomError, store_unavailable
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.core.validation import MAX_INT, StrictBody
from hikone_carrom.server.pads.views import StepViews, match_view, state_view, step_view
from hikone_carrom.server.storage import GameStore, StoreError, StoreUnavailable, hash_token
from hikone_carrom.server.storage.pad_store import (
    BoardChange,
    PadStore,
    StoredBoard,
    StoredBoardMatch,
)

__all__ = ["Board", "BoardSubscriber", "ConfirmListener", "Op", "PadRegistry"]

log = logging.getLogger(__name__)


class BoardSubscriber(Protocol):
    """What a board needs of a connection."""

    def send(self, text: str) -> None:
        """Queue one message for the client (never blocks)."""


MAX_WALL_MS = 8.64e15
"""The latest time a pad may state, ms since 1970 (the last a JavaScript ``Date`` holds)."""

MAX_CLOCK_S = 1e6
"""The longest match clock reading, s (as an entry's match time, ``SheetLine.at``)."""

MAX_QUEUED_S = 6 * 3600.0
"""The longest a clock reading is taken to have waited on the pad before it was sent, s (an
offline pad's queue); an older one counts as this old."""


class ClockReading(StrictBody):
    """The pad's match clock when the reading was taken: seconds used (``elapsed``), the
    match time (``limit``), whether it started and runs, the R8a countdown left; ``wall_ms``
    is the pad's own time of the reading (ms since 1970), bounded and otherwise unused."""

    elapsed: float = Field(ge=0, le=MAX_CLOCK_S)
    started: bool
    running: bool
    limit: float | None = Field(default=None, ge=0, le=MAX_CLOCK_S)
    countdown: float | None = Field(default=None, ge=0, le=60)
    wall_ms: float | None = Field(default=None, ge=0, le=MAX_WALL_MS)


class Op(StrictBody):
    """One change sent by a pad, numbered ``seq`` = 1, 2, ... per device.

    ``op``: "setup" (a match typed on the pad: ``setup``), "add" (``entry``), "undo"
    (``count``), "correct" (entry ``n`` becomes ``entry``), "clock" (the pad's clock reading
    ``clock`` at the pad's wall time ``wall_ms``, ms), "confirm" (the result). ``match`` is the
    number of the match it applies to (the new number for "setup"). The pad's wall time only
    tells how long the op waited on the pad (see :meth:`Board.apply`); every time is checked
    (finite, in range) before anything is applied.
    """

    seq: int = Field(ge=1, le=MAX_INT)
    op: Literal["setup", "add", "undo", "correct", "clock", "confirm"]
    match: int = Field(ge=1, le=MAX_INT)
    setup: dict[str, Any] | None = None
    entry: dict[str, Any] | None = None
    count: int = Field(default=1, ge=1, le=1000)
    n: int = Field(default=0, ge=0, le=100000)
    clock: ClockReading | None = None
    wall_ms: float | None = Field(default=None, ge=0, le=MAX_WALL_MS)


def _now() -> datetime:
    return datetime.now(UTC)


def _error(code: str, en: str, ja: str, status: int = 409) -> RoomError:
    return RoomError(code, en, ja, status=status)


def _store_unavailable() -> RoomError:
    """A board's change cannot be stored: nothing changed, the pad keeps its entries (503)."""
    return _error(
        "store_unavailable",
        "The server could not store the entry; it is kept on the pad: try again",
        "サーバーに保存できませんでした。入力はパッドに残っています。もう一度送ってください",
        status=503,
    )


def _rules_error(err: RulesError) -> RoomError:
    return RoomError("bad_entry", err.en, err.ja, status=422)


def server_ms() -> float:
    """The server's clock, ms since 1970: the time every clock reading is shown from."""
    return time.time() * 1000


def _clock_reading(op: Op, taken_ms: float) -> dict[str, Any]:
    """The pad's clock reading as stored and shown: seconds used, running, countdown left,
    and ``wall_ms`` = ``taken_ms``, when it was taken on the server's clock (ms)."""
    reading = op.clock
    if reading is None:
        raise _error(
            "bad_message",
            "A clock op needs the clock reading",
            "時計の操作には時計の値が必要です",
            status=422,
        )
    return {
        "elapsed": reading.elapsed,
        "started": reading.started,
        "running": reading.running,
        "countdown": reading.countdown,
        "wall_ms": taken_ms,
    }


def _age_s(op: Op, sent_ms: float | None) -> float:
    """How long the op waited on the pad before the request that carries it, s: the pad's
    own clock at sending less at the op (both the pad's, so its error cancels), bounded to
    [0, :data:`MAX_QUEUED_S`]; 0 when the pad did not say."""
    if sent_ms is None or op.wall_ms is None:
        return 0.0
    return min(max((sent_ms - op.wall_ms) / 1000, 0.0), MAX_QUEUED_S)


def _opened(setup: MatchSetup, cur: _Current | None) -> _Current:
    """The board's next match with ``setup`` after ``cur``; refused while ``cur`` has entries
    and is not confirmed."""
    if cur is not None and cur.match.entries and not cur.match.confirmed and not cur.withdrawn:
        raise _error(
            "match_in_progress",
            "The board's match has entries and is not confirmed yet: confirm it first",
            "このボードの試合は入力があり、まだ確定していません。先に確定してください",
        )
    number = (cur.number + 1) if cur is not None else 1
    return _Current(number, RefereedMatch(setup), None, _now(), None)


@dataclass
class _Current:
    """The board's current match in memory."""

    number: int
    match: RefereedMatch
    clock: dict[str, Any] | None
    started_at: datetime
    finished_at: datetime | None
    withdrawn: dict[str, Any] | None = None
    """Who withdrew the call that opened the match (:meth:`Board.withdraw`), or None."""


ConfirmListener = Callable[["Board", int, RefereedMatch], Awaitable[None]]
"""Told when a board's match is confirmed: the board, the match number, the match (a
championship takes its result, docs/tournament.md)."""


class Board:
    """The owner of one board. Build it with :meth:`PadRegistry.get` / ``create``."""

    def __init__(
        self,
        stored: StoredBoard,
        pads: PadStore,
        runner: Runner,
        listeners: list[ConfirmListener] | None = None,
    ) -> None:
        self.id = stored.id
        self.name = stored.name
        self.token_hash = stored.token_hash
        self.device_id = stored.device_id
        self.device_seq = stored.device_seq
        self.seq = stored.last_seq
        self.pads = pads
        self.runner = runner
        self.lock = asyncio.Lock()
        self.subscribers: set[BoardSubscriber] = set()
        self._snapshot: tuple[int, str] = (-1, "")
        self._steps = StepViews()
        self.listeners: list[ConfirmListener] = listeners if listeners is not None else []
        self.current: _Current | None = None
        if stored.match is not None:
            m = stored.match
            match = RefereedMatch.from_dict(
                {"setup": m.setup, "entries": m.entries, "confirmed": m.confirmed}
            )
            self.current = _Current(
                m.number, match, m.clock, m.started_at, m.finished_at, m.withdrawn
            )

    # -- views ----------------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The board as everyone sees it (no token, no device id)."""
        cur = self.current
        return {
            "id": self.id,
            "name": self.name,
            "device_bound": self.device_id is not None,
            "match": None if cur is None else self._match_view(cur),
        }

    def _match_view(self, cur: _Current) -> dict[str, Any]:
        view = match_view(cur.match, cur.number, cur.clock, self._steps.of(cur.match))
        view["withdrawn"] = cur.withdrawn
        return view

    def snapshot(self) -> dict[str, Any]:
        """``{"type": "snapshot", "seq", "board"}`` for a (re)connecting client."""
        return {"type": "snapshot", "seq": self.seq, "board": self.view()}

    def snapshot_text(self) -> str:
        """:meth:`snapshot` as JSON text, built once per event number and shared by every
        watcher (every change of the board's view is a numbered event)."""
        seq, text = self._snapshot
        if seq != self.seq:
            text = json.dumps(self.snapshot(), separators=(",", ":"), ensure_ascii=False)
            self._snapshot = (self.seq, text)
        return text

    def check_token(self, token: str | None) -> None:
        """Refuse a request without this board's token."""
        if not token or not hmac.compare_digest(hash_token(token), self.token_hash):
            raise _error(
                "bad_token",
                "This pad's board token is missing or wrong: open the pad from the board's "
                "link or QR code",
                "ボードのトークンがないか、正しくありません。ボードのリンクかQRコードから開いてください",
                status=403,
            )

    def _check_device(self, device: str) -> None:
        if self.device_id is not None and self.device_id != device:
            raise _error(
                "other_device",
                "This board is being scored on another device. Only one pad per board: "
                "continue there, or take the board over here (entries the other device has "
                "not sent yet will then be refused).",
                "このボードは別の端末で記録中です。1台のボードに使えるパッドは1つだけです。"
                "その端末で続けるか、ここで引き継いでください（別の端末で未送信の入力は"
                "受け付けられなくなります）。",
            )

    # -- changes --------------------------------------------------------------------------------

    async def claim(self, device: str) -> dict[str, Any]:
        """A pad opens the board: bind ``device`` at first use; answer the entries applied."""
        async with self.lock:
            self._check_device(device)
            if self.device_id is None:
                await self._commit("device", {}, device=(device, 0))
            return self._ack()

    async def takeover(self, device: str) -> dict[str, Any]:
        """The referee moves the board to ``device`` (explicitly); the old device is refused."""
        async with self.lock:
            if self.device_id != device:
                await self._commit("takeover", {}, device=(device, 0))
            return self._ack()

    async def apply(
        self, device: str, ops: list[Op], sent_ms: float | None = None
    ) -> dict[str, Any]:
        """Apply a pad's ops in order, each exactly once (see the module docstring); the
        confirm listeners hear of a confirmed match once the board's lock is released.

        The server's clock is the authority for when a clock reading was taken: now, less how
        long it waited on the pad (``sent_ms``, the pad's clock when it sent the request, less
        the op's ``wall_ms``, bounded), so a pad whose clock is wrong shows the right time."""
        received_ms = server_ms()
        confirmed: list[tuple[int, int, RefereedMatch]] = []  # event seq, match number, match
        unstored: RoomError | None = None
        async with self.lock:
            self._check_device(device)
            if self.device_id is None:
                await self._commit("device", {}, device=(device, 0))
            rejected: dict[str, Any] | None = None
            changes: list[tuple[BoardChange, _Current]] = []
            cur, done = self.current, self.device_seq
            for op in sorted(ops, key=lambda o: o.seq):
                if op.seq <= done:
                    continue  # applied before: the pad did not hear the answer
                if op.seq != done + 1:
                    break  # a gap: wait for the missing ops
                try:
                    kind, payload, cur = self._change(
                        op, cur, received_ms - _age_s(op, sent_ms) * 1000
                    )
                except RoomError as err:
                    rejected = {"seq": op.seq, **err.detail()}
                    break
                seq = self.seq + len(changes) + 1
                changes.append(
                    (self._event(seq, kind, payload, cur, (self.device_id, op.seq)), cur)
                )
                done = op.seq
                if op.op == "confirm" and cur.match.confirmed:
                    confirmed.append((seq, cur.number, cur.match))
            try:
                await self._store(changes)  # the request's ops in one transaction
            except RoomError as err:  # not refused: the pad keeps them and sends them again
                unstored = err
            ack = {**self._ack(), "rejected": rejected}
        for _, number, match in (c for c in confirmed if c[0] <= self.seq):
            for listener in list(self.listeners):
                try:
                    await listener(self, number, match)
                except Exception:  # the pad's result stands whatever a listener does
                    log.exception("board %s: a confirm listener failed", self.id)
        if unstored is not None:
            raise unstored
        return ack

    async def open_match(self, setup: MatchSetup) -> int:
        """The server opens a match on this board (a championship's board call); returns its
        number. Refused while the current match has entries and is not confirmed."""
        async with self.lock:
            return await self._open(setup, device=None)

    async def withdraw(self, number: int, by: dict[str, str]) -> bool:
        """The event withdrew the call that opened match ``number`` (a correction changed who
        plays it): the pad shows it withdrawn and by whom (``by``: ja, en) and takes no more
        entries for it; the next board call may open a match over it. False when the board
        has moved on (another match, or this one confirmed)."""
        async with self.lock:
            cur = self.current
            if cur is None or cur.number != number or cur.match.confirmed or cur.withdrawn:
                return False
            await self._commit("withdrawn", {"withdrawn": by}, current=replace(cur, withdrawn=by))
            return True

    def _ack(self) -> dict[str, Any]:
        return {"ack": self.device_seq, "seq": self.seq, "board": self.view()}

    async def _open(self, setup: MatchSetup, device: tuple[str | None, int] | None) -> int:
        new = _opened(setup, self.current)
        await self._commit("match", {"setup": setup.to_dict()}, device=device, current=new)
        return new.number

    def _change(
        self, op: Op, cur: _Current | None, taken_ms: float
    ) -> tuple[str, dict[str, Any], _Current]:
        """What one op makes of the board's match ``cur``: the event's kind and payload, and
        the match after it (``cur`` itself is left as it was); a clock reading was taken at
        ``taken_ms`` on the server's clock. Raises :class:`RoomError` for an op refused."""
        if op.op == "setup":
            try:
                setup = MatchSetup.from_dict(op.setup)
            except RulesError as err:
                raise _rules_error(err) from err
            expected = (cur.number + 1) if cur is not None else 1
            if op.match != expected and not (
                cur is not None and op.match == cur.number and not cur.match.entries
            ):
                raise _error(
                    "stale_match",
                    f"Match {op.match} cannot be set up here: the board is at match {expected - 1}",
                    f"試合{op.match}はここでは設定できません（このボードは試合{expected - 1}です）",
                )
            if cur is not None and op.match == cur.number:
                new = _Current(op.match, RefereedMatch(setup), None, _now(), None)
            else:
                new = _opened(setup, cur)
            return "match", {"setup": setup.to_dict()}, new
        if cur is None or op.match != cur.number:
            raise _error(
                "stale_match",
                f"Match {op.match} is not the board's current match",
                f"試合{op.match}はこのボードの現在の試合ではありません",
            )
        if cur.withdrawn is not None:
            raise _error(
                "match_withdrawn",
                f"This match was withdrawn (by {cur.withdrawn['en']}): it takes no more entries",
                f"この試合は取り消されました（{cur.withdrawn['ja']}）。入力は受け付けません",
            )
        if op.op == "clock":
            reading = _clock_reading(op, taken_ms)
            return "clock", {"clock": reading}, replace(cur, clock=reading)
        match = cur.match.copy()
        payload: dict[str, Any] = {}
        try:
            if op.op == "add":
                step = match.add(SheetLine.from_dict(op.entry))
                payload["steps"] = [step_view(step)]
            elif op.op == "undo":
                match.undo(op.count)
            elif op.op == "correct":
                steps = match.correct(op.n, SheetLine.from_dict(op.entry))
                payload["steps"] = [step_view(s) for s in steps]
                payload["from"] = op.n
            else:
                match.confirm()
        except RulesError as err:
            raise _rules_error(err) from err
        payload["length"] = len(match.steps)
        finished = cur.finished_at
        if match.is_over and finished is None:
            finished = _now()
        elif not match.is_over:
            finished = None
        new = _Current(cur.number, match, cur.clock, cur.started_at, finished)
        return (op.op if op.op != "add" else "entry"), payload, new

    def _event(
        self,
        seq: int,
        kind: str,
        payload: dict[str, Any],
        current: _Current | None,
        device: tuple[str | None, int] | None,
    ) -> BoardChange:
        """Event ``seq`` as it is stored and broadcast; ``current`` is the match it leaves (None:
        the change leaves the match as it is)."""
        cur = current if current is not None else self.current
        body: dict[str, Any] = {"kind": kind, **payload}
        if cur is not None:
            body["match"] = cur.number
            body["state"] = state_view(cur.match.state)
            body["withdrawn"] = cur.withdrawn
            body["confirmed"] = cur.match.confirmed
            body["clock"] = cur.clock
            if kind == "match":
                body["setup"] = cur.match.setup.to_dict()
        stored = None
        if current is not None:
            m = current.match
            stored = StoredBoardMatch(
                number=current.number,
                setup=m.setup.to_dict(),
                entries=[e.to_dict() for e in m.entries],
                clock=current.clock,
                confirmed=m.confirmed,
                outcome=None if m.outcome is None else m.outcome.to_dict(),
                record=refereed_record(m) if m.confirmed else None,
                started_at=current.started_at,
                finished_at=current.finished_at,
            )
        return BoardChange(seq, kind, body, stored, device)

    async def _commit(
        self,
        kind: str,
        payload: dict[str, Any],
        *,
        device: tuple[str | None, int] | None = None,
        current: _Current | None = None,
    ) -> None:
        """Store the change as event seq+1, then take it in memory and broadcast it."""
        change = self._event(self.seq + 1, kind, payload, current, device)
        await self._store([(change, current)])

    async def _store(self, changes: Sequence[tuple[BoardChange, _Current | None]]) -> None:
        """Store the events in one transaction, then take each in memory and broadcast it, in
        order. When the store refuses them together they are stored one by one: those before
        the one it refuses are taken, and :func:`_store_unavailable` is raised for the rest."""
        if not changes:
            return
        try:
            await self.runner.store(self.pads.commit_all, self.id, [c for c, _ in changes])
        except (StoreError, StoreUnavailable) as err:
            if len(changes) == 1:
                log.error("board %s: cannot store event %d: %s", self.id, changes[0][0].seq, err)
                raise _store_unavailable() from err
            for one in changes:
                await self._store([one])
            return
        for change, current in changes:
            self._take(change, current)

    def _take(self, change: BoardChange, current: _Current | None) -> None:
        """Take a stored event in memory and broadcast it."""
        self.seq = change.seq
        if change.device is not None:
            self.device_id, self.device_seq = change.device
        if current is not None:
            self.current = current
        event = {"type": "event", "seq": change.seq, "event": change.payload}
        text = json.dumps(event, separators=(",", ":"))
        for sub in list(self.subscribers):
            try:
                sub.send(text)
            except Exception:  # the event is stored: the other watchers still get it
                log.exception("board %s: a watcher failed on event %d", self.id, change.seq)

    def match_at(self, number: int) -> StoredBoardMatch:
        """A stored match of this board (store thread)."""
        return self.pads.board_match(self.id, number)


class PadRegistry:
    """Every board of one server: created on request, rebuilt from the store on first use."""

    def __init__(self, store: GameStore, runner: Runner) -> None:
        self.pads = PadStore(store.engine)
        self.runner = runner
        self.boards: dict[str, Board] = {}
        self.listeners: list[ConfirmListener] = []
        self._loading = asyncio.Lock()

    def on_confirmed(self, listener: ConfirmListener) -> None:
        """Have ``listener`` told of every match confirmed on any board of this server."""
        self.listeners.append(listener)

    async def create(self, name: str) -> tuple[Board, str]:
        """A new board; returns it with its token (shown once, as a link and QR code)."""
        board_id = secrets.token_urlsafe(6)
        token = secrets.token_urlsafe(18)
        try:
            await self.runner.store(self.pads.create_board, board_id, name, hash_token(token))
        except StoreUnavailable as err:
            raise store_unavailable() from err
        board = await self.get(board_id)
        return board, token

    async def get(self, board_id: str) -> Board:
        """The board with this id, rebuilt from the store if this server has not seen it."""
        board = self.boards.get(board_id)
        if board is not None:
            return board
        async with self._loading:
            board = self.boards.get(board_id)
            if board is not None:
                return board
            try:
                stored = await self.runner.store(self.pads.load_board, board_id)
            except StoreError as err:
                raise _error("no_board", "No such board", "そのボードはありません", 404) from err
            except StoreUnavailable as err:
                raise store_unavailable() from err
            board = Board(stored, self.pads, self.runner, self.listeners)
            self.boards[board_id] = board
            return board
