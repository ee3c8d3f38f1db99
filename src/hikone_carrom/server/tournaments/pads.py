"""Scoring pads at a championship: a board call opens the called match on that board's pad, its
score shows live on the event's pages, and the result the pad's referee confirms goes into the
event's standings.

:class:`PadBridge` joins the tournament hub and the pads' registry of one server: every event's
board calls go through :meth:`PadBridge.open_call`; every confirmed pad match through
:meth:`PadBridge.take_result`, which finds the event's match it serves and records it with
:meth:`~hikone_carrom.server.tournaments.hub.LiveTournament.record_result` (the same path as the
director's form). A pad result the event refuses (a closed pool...) stays on the pad and is
noted in the event's audit trail for the director.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from datetime import UTC, datetime
from typing import Any

from hikone_carrom.rules import Color
from hikone_carrom.scoring import MatchSetup, RefereedMatch
from hikone_carrom.scoring.setup import MAX_NAME
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.pads.boards import Board, PadRegistry
from hikone_carrom.server.storage import StoreUnavailable
from hikone_carrom.server.tournaments.hub import BoardCall, LiveTournament, TournamentHub, unstored
from hikone_carrom.server.tournaments.hub_withdraw import BY_DIRECTOR, Withdrawal
from hikone_carrom.server.tournaments.store_retry import until_stored
from hikone_carrom.tournament import Result, TournamentError

__all__ = ["PadBridge", "ScoreRelay", "check_sides", "pad_result", "pad_setup"]

log = logging.getLogger(__name__)


def _members(live: LiveTournament, entry_id: str | None) -> list[str]:
    """The names of an entry's players as its pad has them (at most MAX_NAME characters)."""
    if not entry_id:
        return []
    return [p.name[:MAX_NAME].strip() for p in live.event.entry(entry_id).members]


def pad_setup(live: LiveTournament, call: BoardCall) -> MatchSetup:
    """The pad's set-up for a called match: names in the order of play (side 1 plays red and
    shoots first until the referee records who won rock-paper-scissors, R1b; doubles alternate
    the sides, R1c), the match time (untimed finals, R7e), a deadlock decided by lot in the
    knockout (R7d)."""
    match = live.event.match(call.match_id)
    a, b = _members(live, match.sides[0]), _members(live, match.sides[1])
    names = [a[0], b[0]] if len(a) == 1 else [a[0], b[0], a[1], b[1]]
    division = live.event.division(match.division)
    return MatchSetup(
        names=tuple(names),
        match_time_s=call.match_time_s,
        deadlock="lot" if call.knockout else "draw",
        title=f"第{call.board}台 {division.name_ja} {match.name_ja}"[:80],
    )


def check_sides(live: LiveTournament, match_id: str, refereed: RefereedMatch) -> None:
    """A pad's result is credited only to the entrants whose names that pad showed: raises
    :class:`RoomError` (``pad_sides_changed``) when the match's sides are no longer the players
    of the pad's set-up (a correction changed them after the call)."""
    match = live.event.match(match_id)
    shown = sorted(refereed.setup.names)
    now = sorted(_members(live, match.sides[0]) + _members(live, match.sides[1]))
    if shown != now:
        names = "・".join(refereed.setup.names)
        en = " v ".join(live.event.side_names(match, "en"))
        ja = " 対 ".join(live.event.side_names(match, "ja"))
        raise RoomError(
            "pad_sides_changed",
            f"The pad showed {names}; {match_id} is now {en}: its result stays on the pad and "
            "is not credited",
            f"パッドの試合は{names}でしたが、{match_id}は現在{ja}です。結果はパッドに残し、"
            "成績には入れません",
        )


def pad_result(live: LiveTournament, match_id: str, refereed: RefereedMatch) -> Result:
    """The event's result of a confirmed pad match: the R7b scores and pucks pocketed of each
    side (red is the side of the first name of the pad's set-up, R1b)."""
    outcome = refereed.outcome
    if outcome is None:
        raise RoomError(
            "not_over", "The pad's match is not over", "パッドの試合はまだ終わっていません"
        )
    match = live.event.match(match_id)
    red_side = 0 if refereed.setup.names[0] in _members(live, match.sides[0]) else 1
    red, green = outcome.scores
    state = refereed.state
    pucks = (state.pocketed_of(Color.RED), state.pocketed_of(Color.GREEN))
    if red_side == 1:
        red, green = green, red
        pucks = (pucks[1], pucks[0])
    winner = None
    if outcome.winner is not None:
        winner = red_side if outcome.winner is Color.RED else 1 - red_side
    return Result(scores=(red, green), pucks=pucks, winner=winner)


class ScoreRelay:
    """Watches one pad's board like a spectator: a match the event called is "playing" from the
    moment its pad starts the clock or takes the first entry, and each new score (R7b) and
    clock reading goes to the event's spectators."""

    def __init__(self, bridge: PadBridge, live: LiveTournament, board: Board) -> None:
        self.bridge = bridge
        self.live = live
        self.board = board

    def send(self, text: str) -> None:
        """A pad event (JSON text): take the match's state if it serves one of the event's."""
        try:
            body = json.loads(text).get("event") or {}
        except ValueError:
            return
        number, state = body.get("match"), body.get("state")
        if not isinstance(number, int) or not isinstance(state, dict):
            return
        served = next(
            (
                s
                for s in self.live.live.values()
                if s.pad_board == self.board.id and s.pad_match == number
            ),
            None,
        )
        cur = self.board.current
        if served is None or cur is None or cur.number != number or served.status == "finished":
            return
        match = self.live.event.match(served.match_id)
        red_side = 0 if cur.match.setup.names[0] in _members(self.live, match.sides[0]) else 1
        scores = state.get("scores") or {}
        red, green = int(scores.get("red", 0)), int(scores.get("green", 0))
        reading = body.get("clock")
        clock = None
        started_at = datetime.now(UTC)
        if isinstance(reading, dict) and reading.get("started"):
            wall_ms = float(reading.get("wall_ms") or time.time() * 1000)
            elapsed = float(reading.get("elapsed") or 0.0)
            clock = {"elapsed": elapsed, "running": bool(reading.get("running")), "at_ms": wall_ms}
            started_at = datetime.fromtimestamp(wall_ms / 1000 - elapsed, UTC)
        if served.status == "called" and (clock is not None or cur.match.entries):
            who = f"pad:{self.board.name or self.board.id}"[:64]
            self.bridge.spawn(self.live.begin(served.match_id, who, started_at, clock))
        self.live.live_score(
            served.match_id, (red, green) if red_side == 0 else (green, red), clock
        )


class PadBridge:
    """Board calls to pads, pad results to the events, pad scores to spectators (one per
    server)."""

    def __init__(self, hub: TournamentHub, pads: PadRegistry) -> None:
        self.hub = hub
        self.pads = pads
        self._relays: dict[tuple[str, str], ScoreRelay] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        hub.on_event(self._attach)
        pads.on_confirmed(self.take_result)

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` in the background, keeping a reference until it is done."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # e.g. a "begin" the store refused: the next pad event or shot begins it again
            log.warning("%s", task.exception())

    def _attach(self, live: LiveTournament) -> None:
        async def listener(call: BoardCall) -> dict[str, Any] | None:
            opened = await self.open_call(live, call)
            return None if opened is None else {"pad_board": opened[0], "pad_match": opened[1]}

        live.on_call(listener)
        live.withdrawals.on_withdraw(self.withdraw)
        if live.pads:  # an event rebuilt after a restart: watch its pads again
            self.spawn(self._watch_all(live))

    async def _watch_all(self, live: LiveTournament) -> None:
        for pad_board, _ in list(live.pads.values()):
            try:
                self._watch(live, await self.pads.get(pad_board))
            except RoomError:
                log.warning("event %s: pad %s is gone", live.id, pad_board)

    def _watch(self, live: LiveTournament, board: Board) -> None:
        key = (live.id, board.id)
        if key not in self._relays:
            relay = ScoreRelay(self, live, board)
            self._relays[key] = relay
            board.subscribers.add(relay)

    async def open_call(self, live: LiveTournament, call: BoardCall) -> tuple[str, int] | None:
        """Open the called match on the board's pad; (pad board id, match number), or None
        when the board has no pad. Raises :class:`RoomError` when the pad refuses (its match
        is still going)."""
        link = live.pads.get(call.board)
        if link is None:
            return None
        board = await self.pads.get(link[0])
        self._watch(live, board)
        number = await board.open_match(pad_setup(live, call))
        return board.id, number

    async def withdraw(self, withdrawal: Withdrawal) -> None:
        """A correction withdrew a call: its pad match shows it withdrawn by the director and
        takes no more entries."""
        if withdrawal.pad is not None:
            board = await self.pads.get(withdrawal.pad[0])
            await board.withdraw(withdrawal.pad[1], BY_DIRECTOR)

    async def take_result(self, board: Board, number: int, refereed: RefereedMatch) -> None:
        """A pad confirmed match ``number``: record it in the event whose call opened it. While
        the store is down it is recorded again in the background until the store takes it."""
        try:
            await self._take_result(board, number, refereed)
        except RoomError as err:
            if err.code != "store_unavailable":
                raise
            what = f"pad {board.id} match {number}"
            self.spawn(until_stored(lambda: self._take_result(board, number, refereed), what))

    async def _take_result(self, board: Board, number: int, refereed: RefereedMatch) -> None:
        found = None
        for live in list(self.hub.events.values()):
            for state in live.live.values():
                if state.pad_board == board.id and state.pad_match == number:
                    found = (live, state.match_id)
        if found is None:
            try:
                where = await self.hub.runner.store(self.hub.store.find_pad_match, board.id, number)
            except StoreUnavailable as err:
                raise unstored() from err
            if where is None:
                return  # a match typed on the pad itself, not a board call
            found = (await self.hub.get(where[0]), where[1])
        live, match_id = found
        who = f"pad:{board.name or board.id}"[:64]
        try:
            check_sides(live, match_id, refereed)
            result = pad_result(live, match_id, refereed)
            await live.record_result(match_id, result, who, source="pad")
        except (RoomError, TournamentError) as err:
            if err.code == "store_unavailable":
                raise
            log.warning("event %s: the pad's result of %s refused: %s", live.id, match_id, err)
            reason = {"code": err.code, "en": err.en, "ja": err.ja}
            await live.note(
                who,
                "pad_refused",
                match_id,
                {"pad_board": board.id, "pad_match": number, "reason": reason},
            )
