"""Corrections after a call: a correction that changes who plays a match already called to a
board, or being played, is refused (409 ``call_would_change``, naming the matches, boards and
players) unless the director confirms it; then those calls are withdrawn (the matches wait
again), the board's pad shows its match withdrawn by the director, the hall's call feed shows
the withdrawal, the audit trail keeps it, and each match is called again to the same board
with its right players when they and the board are free (docs/tournament.md).

The changes themselves are found by the pure library
(:mod:`hikone_carrom.tournament.call_conflicts`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.tournaments.hub_updates import KnockoutSides, updates
from hikone_carrom.tournament import BYE
from hikone_carrom.tournament.call_conflicts import SideChange

if TYPE_CHECKING:
    from hikone_carrom.server.storage.tournament_store import LiveState
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = [
    "BY_DIRECTOR",
    "CallConflict",
    "CallWithdrawals",
    "PendingWithdrawal",
    "PendingWithdrawals",
    "WithdrawListener",
    "Withdrawal",
]

log = logging.getLogger(__name__)

BY_DIRECTOR = {"ja": "大会本部", "en": "the director"}
"""Who withdraws a call, as the pad and the hall show it."""


class CallConflict(RoomError):
    """A correction refused because it changes who plays matches already called (409); its
    ``changes`` (match, board, status, players before and after) are the dry run the director
    confirms by sending the correction again with ``confirm``."""

    def __init__(self, changes: list[dict[str, Any]]) -> None:
        where_ja = "、".join(f"{c['match']}（{_board_ja(c)}）" for c in changes)
        where_en = ", ".join(f"{c['match']} ({_board_en(c)})" for c in changes)
        super().__init__(
            "call_would_change",
            f"This correction changes who plays {where_en}, already called: confirm it to "
            "withdraw the call and call the right players",
            f"この訂正で、呼び出し済みの試合 {where_ja} の対戦者が変わります。"
            "確認すると呼び出しを取り消し、正しい選手を呼び出します",
        )
        self.changes = changes

    def detail(self) -> dict[str, Any]:
        """The REST error detail with the changes it would make."""
        return {**super().detail(), "changes": self.changes}


def _board_ja(change: dict[str, Any]) -> str:
    return f"第{change['board']}台" if change["board"] else "台未定"


def _board_en(change: dict[str, Any]) -> str:
    return f"board {change['board']}" if change["board"] else "no board"


@dataclass(frozen=True)
class Withdrawal:
    """A withdrawn call: the match, its board, the pad match that served it (pad board id,
    match number), whether it can be called again (both entrants known and present) and the
    online room that served it."""

    match_id: str
    board: int | None
    pad: tuple[str, int] | None
    playable: bool
    room: str | None = None


@dataclass(frozen=True)
class PendingWithdrawal:
    """A call to withdraw, not stored yet: the change, the match's live state before it and
    its audit entry's detail."""

    change: SideChange
    state: LiveState
    detail: dict[str, Any]


@dataclass(frozen=True)
class PendingWithdrawals:
    """The calls a correction withdraws, stored in the correction's own transaction: the live
    rows it removes and the audit entries it adds (the store sees both or neither)."""

    items: tuple[PendingWithdrawal, ...] = ()

    @property
    def removed(self) -> list[str]:
        """The matches whose live rows go (they wait again)."""
        return [p.change.match for p in self.items]

    def audit(self, who: str) -> list[tuple[str, str, str, dict[str, Any]]]:
        """The audit entries ``(who, "withdraw", match, detail)``."""
        return [(who, "withdraw", p.change.match, p.detail) for p in self.items]


WithdrawListener = Callable[[Withdrawal], Awaitable[None]]
"""Told of a withdrawn call, after it is stored (the board's scoring pad shows it)."""


class CallWithdrawals:
    """The calls of ``live`` that corrections withdraw (see the module doc)."""

    def __init__(self, live: LiveTournament) -> None:
        self.live = live
        self._listeners: list[WithdrawListener] = []

    def on_withdraw(self, listener: WithdrawListener) -> None:
        """Have ``listener`` told of every withdrawn call."""
        self._listeners.append(listener)

    def called(self) -> set[str]:
        """The matches called or being played."""
        return {m for m, s in self.live.live.items() if s.status in ("called", "playing")}

    def check(self, changes: list[SideChange], confirm: bool) -> list[SideChange]:
        """``changes`` when the director confirmed them; raises :class:`CallConflict` (the
        dry run) when there are changes and no ``confirm``."""
        if changes and not confirm:
            raise CallConflict([self.describe(c) for c in changes])
        return changes

    def describe(self, change: SideChange) -> dict[str, Any]:
        """A change as the director's console shows it: match, board, status, names before and
        after (ja and en), whether it can be called again."""
        state = self.live.live[change.match]
        return {
            "match": change.match,
            "board": state.board,
            "status": state.status,
            "before": {lang: self._names(change.before, lang) for lang in ("ja", "en")},
            "after": {lang: self._names(change.after, lang) for lang in ("ja", "en")},
            "recall": change.playable,
        }

    def _names(self, sides: tuple[str | None, str | None], lang: str) -> list[str]:
        unknown, bye = ("未定", "不戦") if lang == "ja" else ("TBD", "bye")
        event = self.live.event
        return [unknown if s is None else bye if s == BYE else event.entry(s).name for s in sides]

    def prepare(self, changes: list[SideChange], why: str) -> PendingWithdrawals:
        """The calls of ``changes`` to withdraw after the correction ``why`` (its target): the
        caller stores them with the correction (:class:`PendingWithdrawals`), then
        :meth:`announce` them (the caller holds the event's lock)."""
        items = []
        for change in changes:
            state = self.live.live.get(change.match)
            if state is None or state.status not in ("called", "playing"):
                continue
            detail = {**self.describe(change), "because": why, "by": BY_DIRECTOR}
            items.append(PendingWithdrawal(change, state, detail))
        return PendingWithdrawals(tuple(items))

    def announce(
        self,
        pending: PendingWithdrawals,
        match_ids: Iterable[str],
        before: KnockoutSides | None = None,
        entries: Iterable[str] = (),
    ) -> list[Withdrawal]:
        """After the correction and its withdrawals are stored: the hall's call feed shows each
        withdrawal and one numbered update carries the correction's matches (``match_ids``,
        ``before``, ``entries`` as :func:`~.hub_updates.updates`), the withdrawn ones and the
        calls (the newest as ``call`` for one withdrawal, the whole feed as ``calls`` for
        several)."""
        live = self.live
        out = []
        for p in pending.items:
            change, state = p.change, p.state
            live.feed.forget(change.match)
            live.calls = [self._feed_entry(change, state.board), *live.calls][:20]
            pad = None
            if state.pad_board is not None and state.pad_match is not None:
                pad = (state.pad_board, state.pad_match)
            out.append(Withdrawal(change.match, state.board, pad, change.playable, state.room))
        update = updates(live, [*match_ids, *(w.match_id for w in out)], before, entries)
        if len(out) == 1:
            update["call"] = live.calls[0]
        elif out:
            update["calls"] = live.calls
        live.feed.broadcast(update)
        return out

    def _feed_entry(self, change: SideChange, board: int | None) -> dict[str, Any]:
        """The withdrawal in the hall's call feed (the shape of a call, ``withdrawn`` set)."""
        event = self.live.event
        match = event.match(change.match)
        a, b = self._names(change.before, "ja")
        online = event.settings.online
        place_ja = (f"対局{board}" if online else f"第{board}台") if board else "台未定"
        place_en = (f"Game {board}" if online else f"Board {board}") if board else "No board"
        return {
            "match": change.match,
            "board": board,
            "sides": [a, b],
            "division": match.division,
            "match_time_s": None,
            "text": {
                "ja": f"{place_ja}: {a} 対 {b} の呼び出しを取り消しました（{BY_DIRECTOR['ja']}）",
                "en": f"{place_en}: the call of {a} v {b} was withdrawn (by the director)",
            },
            "pad": None,
            "room": None,
            "pad_error": None,
            "withdrawn": True,
        }

    async def follow_up(self, withdrawn: list[Withdrawal], who: str) -> None:
        """After the event's lock is released: tell the listeners (the pads) of each withdrawn
        call, then call each match again to its board when it can be played and the board
        and both entrants are free (otherwise it waits for the director's call)."""
        for w in withdrawn:
            for listener in list(self._listeners):
                try:
                    await listener(w)
                except Exception:  # the withdrawal stands whatever a listener does
                    log.exception("event %s: a withdrawal listener failed", self.live.id)
            if not w.playable or w.board is None:
                continue
            try:
                await self.live.call(w.match_id, who, w.board)
            except RoomError as err:
                log.info("event %s: %s not called again: %s", self.live.id, w.match_id, err)
