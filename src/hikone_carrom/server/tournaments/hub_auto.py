"""Automatic mode of a live event: calls and pool closes made by themselves.

After every stored change of the event (a result, a call, a match begun, a correction, a pool
closed, a new plan...) :meth:`AutoRunner.poke` runs one pass of the policy
(:func:`~hikone_carrom.tournament.autocall.dispatch`) under the event's lock, then makes what it
decided through the director's own actions (:meth:`LiveTournament.close_pool`,
:meth:`LiveTournament.call`), which check everything again; a pass that changed something
pokes the next one, until nothing is left to do. Passes never overlap: pokes meanwhile are
gathered into one more pass. The audit trail names the operator ``auto``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.tournaments.hub_setup import refusal
from hikone_carrom.tournament import Tournament, TournamentError
from hikone_carrom.tournament.autocall import (
    AutoMode,
    Dispatch,
    Waiting,
    describe,
    dispatch,
    pools_to_close,
)

if TYPE_CHECKING:
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = ["AUTO", "AutoRunner"]

log = logging.getLogger(__name__)

AUTO = "auto"
"""The operator of automatic calls and closes in the audit trail."""


class AutoRunner:
    """The automatic mode of ``live``: the director's switch and holds, and the passes."""

    def __init__(self, live: LiveTournament) -> None:
        self.live = live
        self._again = False
        self._task: asyncio.Task[None] | None = None
        if live.event.auto.on:  # loaded after a restart in automatic mode: carry on
            self.poke()

    def poke(self) -> None:
        """Something changed: run a pass soon (nothing while automatic mode is off)."""
        if not self.live.event.auto.on:
            return
        self._again = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        """The server stops: the pass under way ends where it is (every change made is stored)."""
        if self._task is not None:
            self._task.cancel()

    async def settled(self) -> None:
        """Wait until the passes asked for so far are done (an answer after them shows them)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def _run(self) -> None:
        while self._again:
            self._again = False
            try:
                await self.step()
            except Exception:  # a pass must never stop the next one (a store outage: 503)
                log.exception("event %s: automatic pass failed", self.live.id)
                return

    async def step(self) -> None:
        """One pass: close the pools that are complete, else make the calls that can be made."""
        live = self.live
        async with live.lock:
            if not live.event.auto.on:
                return
            closing = pools_to_close(live.event)
            calls = () if closing else self._dispatch(reasons=False).calls
        for division, number in closing:  # each close pokes again: the calls follow
            try:
                await live.close_pool(division, number, AUTO)
            except RoomError as err:
                log.info("event %s: pool %s-%d not closed: %s", live.id, division, number, err)
        for match_id, board in calls:
            if not live.event.auto.on:  # paused meanwhile
                return
            try:
                await live.call(match_id, AUTO, board)
            except RoomError as err:  # changed since the pass (a call by hand): skip it
                log.info("event %s: %s not called: %s", live.id, match_id, err)

    def _dispatch(self, *, reasons: bool = True) -> Dispatch:
        live = self.live
        on_boards = {
            s.match_id: s.board
            for s in live.live.values()
            if s.status in ("called", "playing") and s.board is not None
        }
        return dispatch(live.event, on_boards, live.live.keys(), reasons=reasons)

    # -- the director's switch and holds -----------------------------------------------------

    async def set_on(self, on: bool, who: str) -> None:
        """Switch automatic mode on (calls and closes start now) or off (paused)."""
        await self._change(lambda mode: replace(mode, on=on), who, "auto", "on" if on else "off")

    async def hold(self, division: str, number: int, held: bool, who: str) -> None:
        """Hold a pool open (its last result does not close it) or let it close again."""
        key = (division, number)

        def change(mode: AutoMode) -> AutoMode:
            try:
                self.live.event.pool(division, number)
            except TournamentError as err:
                raise refusal(err) from err
            return replace(mode, held=mode.held | {key} if held else mode.held - {key})

        await self._change(change, who, "hold" if held else "unhold", f"{division}-{number}")

    async def _change(
        self, change: Callable[[AutoMode], AutoMode], who: str, action: str, target: str
    ) -> None:
        live = self.live
        async with live.lock:
            before = live.event.auto
            mode = change(before)
            live.event.auto = mode
            # not stored: the event is rebuilt as stored (its mode too) and a 503 raised
            detail = {"before": before.to_dict(), "after": mode.to_dict()}
            await live._commit(who, action, target, detail)
            live.feed.broadcast({"type": "auto", "auto": mode.to_dict()})

    # -- what the director sees --------------------------------------------------------------

    async def view(self) -> dict[str, Any]:
        """The mode, the held pools and why each planned match not begun is waiting (in plan
        order), after the passes asked for so far."""
        await self.settled()
        live = self.live
        async with live.lock:
            event = live.event
            found = self._dispatch()
            waiting: list[tuple[str, Waiting]] = [
                (m, Waiting("ready", board=b)) for m, b in found.calls
            ]
            waiting += found.waiting.items()
            order = {s.match: i for i, s in enumerate(event.plan.slots)} if event.plan else {}
            waiting.sort(key=lambda item: order.get(item[0], 0))
            return {
                **event.auto.to_dict(),
                "waiting": [_reason(event, m, w) for m, w in waiting],
            }


def _reason(event: Tournament, match_id: str, w: Waiting) -> dict[str, Any]:
    return {
        "match": match_id,
        "code": w.code,
        "board": w.board,
        "on": w.match,
        "entry": w.entry,
        "pool": None if w.pool is None else list(w.pool),
        "held": w.held,
        "text": describe(w, event),
    }
