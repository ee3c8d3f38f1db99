"""What an event's spectators get: its views as JSON text (built once per change number), its
numbered updates, and the live scores and clocks of the matches being played (at most once a
second, unnumbered)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any, Protocol

from hikone_carrom.server.tournaments.views import (
    compact,
    division_view,
    entry_view,
    event_view,
    public_view,
    search_view,
)

if TYPE_CHECKING:
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = ["LIVE_EVERY_S", "SpectatorFeed", "TournamentSubscriber", "to_json"]

log = logging.getLogger(__name__)

MAX_VIEWS = 256
"""Most views kept per change number: answers to ``entry`` and ``search`` past it are built
but not kept (a client asking for ever new keys cannot grow the cache)."""

LIVE_EVERY_S = 1.0
"""Live scores and clocks go to the spectators at most this often, s (one message for all)."""


class TournamentSubscriber(Protocol):
    """A spectator's connection: gets every update as JSON text. ``full`` (the director's
    console) takes every update whole; a spectator's page takes the matches without their
    empty fields and the pool tables of the one ``division`` whose pools it shows (or none)."""

    full: bool
    division: str | None

    def send(self, text: str) -> None:
        """Queue ``text`` for the spectator."""


def to_json(data: Any) -> str:
    """Compact JSON text of ``data`` (UTF-8 kept as is)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class SpectatorFeed:
    """The spectators of ``live`` and what they are sent; ``scores`` and ``clocks`` are the
    latest of each match being played."""

    def __init__(self, live: LiveTournament) -> None:
        self.live = live
        self.subscribers: set[TournamentSubscriber] = set()
        self.scores: dict[str, tuple[int, int]] = {}
        self.clocks: dict[str, dict[str, Any]] = {}
        self._views: dict[str, str] = {}
        self._views_seq = -1
        self._changed: set[str] = set()
        self._flush: asyncio.TimerHandle | None = None

    async def snapshot_text(self, *, full: bool) -> str:
        """The event as JSON text (see :meth:`LiveTournament.snapshot_text`)."""
        view = await self._cached("full" if full else "public")
        done = self.live.event.results
        scores = {m: list(s) for m, s in self.scores.items() if m not in done}
        clocks = {m: c for m, c in self.clocks.items() if m not in done}
        return (
            f'{{"type":"snapshot","seq":{self.live.seq},"full":{"true" if full else "false"},'
            f'"scores":{to_json(scores)},'
            f'"clocks":{to_json(clocks)},"event":{view}}}'
        )

    async def request_text(self, kind: str, key: str) -> str:
        """The answer to a spectator's request (see :meth:`LiveTournament.request_text`)."""
        live = self.live
        if kind == "division":
            division, _, part = key.partition(":")
            live.event.division(division)
            body = await self._cached(f"division:{division}:{part}")
        else:
            body = await self._cached(f"{kind}:{key}")
        return f'{{"type":"{kind}","seq":{live.seq},"key":{to_json(key)},"data":{body}}}'

    async def _cached(self, key: str) -> str:
        """The JSON text of a view (``full``, ``public``, ``division:GS:pools``,
        ``entry:GS-001``, ``search:やまだ``), built once per change number under the event's
        lock."""
        live = self.live
        async with live.lock:
            if self._views_seq != live.seq:
                self._views = {}
                self._views_seq = live.seq
            text = self._views.get(key)
            if text is None:
                kind, _, what = key.partition(":")
                if key == "full":
                    data = event_view(live)
                elif key == "public":
                    data = public_view(live)
                elif kind == "entry":
                    data = entry_view(live, what)
                elif kind == "search":
                    data = search_view(live, what)
                else:
                    division, _, part = what.partition(":")
                    data = division_view(live, division, part)
                text = to_json(data)
                if len(self._views) < MAX_VIEWS:
                    self._views[key] = text
            return text

    def broadcast(self, message: dict[str, Any]) -> None:
        """Send a numbered message: encoded once whole (the director's console) and once for
        spectators' pages, with the pool tables only for those showing that division (each
        variant is encoded once, however many get it)."""
        whole = {"seq": self.live.seq, **message}
        if "matches" not in message:
            self.broadcast_raw(whole)
            return
        pools = message.get("pools", [])
        public = {
            **whole,
            "matches": [compact(m) for m in message["matches"]],
            "pools": [],
        }
        texts = {"": to_json(public)}
        for division in {p["division"] for p in pools}:
            mine = [p for p in pools if p["division"] == division]
            texts[division] = to_json({**public, "pools": mine})
        whole_text = to_json(whole)
        for sub in list(self.subscribers):
            text = whole_text if sub.full else texts.get(sub.division or "", texts[""])
            try:
                sub.send(text)
            except Exception:  # a closed connection must never stop the others
                log.exception("dropping a spectator")
                self.subscribers.discard(sub)

    def broadcast_raw(self, message: dict[str, Any]) -> None:
        """Encode ``message`` once and queue the same text for every spectator (each has its
        own bounded queue: a slow one never holds up the others)."""
        text = to_json(message)
        for sub in list(self.subscribers):
            try:
                sub.send(text)
            except Exception:  # a closed connection must never stop the others
                log.exception("dropping a spectator")
                self.subscribers.discard(sub)

    def live_score(
        self, match_id: str, scores: tuple[int, int] | None, clock: dict[str, Any] | None
    ) -> None:
        """Keep a match's score and clock and send them soon (see
        :meth:`LiveTournament.live_score`)."""
        if match_id in self.live.event.results:
            return
        changed = False
        if scores is not None and self.scores.get(match_id) != scores:
            self.scores[match_id] = scores
            changed = True
        if clock is not None and self.clocks.get(match_id) != clock:
            self.clocks[match_id] = clock
            changed = True
        if not changed:
            return
        self._changed.add(match_id)
        if self._flush is None:
            loop = asyncio.get_running_loop()
            self._flush = loop.call_later(LIVE_EVERY_S, self._flush_live)

    def forget(self, match_id: str) -> None:
        """A match has its result: its live score and clock are no longer shown."""
        self.scores.pop(match_id, None)
        self.clocks.pop(match_id, None)

    def _flush_live(self) -> None:
        self._flush = None
        ids, self._changed = self._changed, set()
        scores = {m: list(self.scores[m]) for m in ids if m in self.scores}
        clocks = {m: self.clocks[m] for m in ids if m in self.clocks}
        done = set(self.live.event.results)
        scores = {m: v for m, v in scores.items() if m not in done}
        clocks = {m: v for m, v in clocks.items() if m not in done}
        if scores or clocks:
            self.broadcast_raw({"type": "live", "scores": scores, "clocks": clocks})
