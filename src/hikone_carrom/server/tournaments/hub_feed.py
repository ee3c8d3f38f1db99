"""What an event's spectators get: its views as JSON text (built once per change number), its
numbered updates (whole to the director's console, as what changed to the spectators' pages:
:mod:`.feed_public`; after a change of structure, the changed parts to the console:
:mod:`.feed_director`), and the live scores and clocks of the matches being played (at most
once a second, unnumbered, only what changed and only to the pages that show them)."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

from hikone_carrom.server.core.wire import dumps
from hikone_carrom.server.tournaments.feed_director import DirectorView
from hikone_carrom.server.tournaments.feed_public import PublicState, trimmed_view
from hikone_carrom.server.tournaments.views import (
    division_view,
    entry_view,
    event_view,
    public_view,
    search_view,
)

if TYPE_CHECKING:
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = [
    "CLOCK_DRIFT_S",
    "LIVE_EVERY_S",
    "SpectatorFeed",
    "TournamentSubscriber",
    "Watching",
    "to_json",
]

log = logging.getLogger(__name__)

MAX_VIEWS = 256
"""Most views kept per change number: answers to ``entry`` and ``search`` past it are built
but not kept (a client asking for ever new keys cannot grow the cache)."""

LIVE_EVERY_S = 1.0
"""Live scores and clocks go to the spectators at most this often, s (one message for all)."""

CLOCK_DRIFT_S = 1.0
"""A running match clock's new reading is sent only if it is this far from what the last one
sent gives (s); pages run the clock themselves from a reading."""

Watching = Literal["all", "find", "none"]
"""Which live scores a page is sent: every match's (the boards), those of the entries it asked
for (``entry`` and ``search``), or none (the pools and the knockout)."""


class TournamentSubscriber(Protocol):
    """A spectator's connection: gets every update as JSON text. ``full`` (the director's
    console) takes every update whole; a spectator's page takes what changed
    (:mod:`.feed_public`), the pool tables of the one ``division`` whose pools it shows (or
    none), and the live scores it is ``watching`` of the ``entries`` it asked for."""

    full: bool
    division: str | None
    watching: Watching
    entries: set[str]
    trimmed: bool
    """Whether the snapshot it holds is trimmed (no board's matches)."""

    def send(self, text: str) -> None:
        """Queue ``text`` for the spectator."""


def to_json(data: Any) -> str:
    """Compact JSON text of ``data`` (UTF-8 kept as is)."""
    return dumps(data)


def _same_clock(old: dict[str, Any] | None, new: dict[str, Any]) -> bool:
    """Whether reading ``new`` tells a page nothing that ``old`` did not (a running clock read
    later, within :data:`CLOCK_DRIFT_S`)."""
    if old is None or old["running"] != new["running"]:
        return False
    if not new["running"]:
        return bool(abs(new["elapsed"] - old["elapsed"]) < 0.05)
    later: float = new["elapsed"] - old["elapsed"] - (new["at_ms"] - old["at_ms"]) / 1000
    return abs(later) < CLOCK_DRIFT_S


def _reading(clock: dict[str, Any]) -> dict[str, Any]:
    """A clock reading as pages get it: elapsed to 0.1 s, the wall time to the ms."""
    return {
        "elapsed": round(float(clock["elapsed"]), 1),
        "running": bool(clock["running"]),
        "at_ms": round(float(clock["at_ms"])),
    }


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
        self._changed_scores: set[str] = set()
        self._changed_clocks: set[str] = set()
        self._flush: asyncio.TimerHandle | None = None
        self.public = PublicState(live)
        self.director = DirectorView(live)
        self._audit: dict[str, Any] | None = None

    async def snapshot_text(self, *, full: bool, trimmed: bool = False) -> str:
        """The event as JSON text (see :meth:`LiveTournament.snapshot_text`); ``trimmed``, for
        a spectator's page that shows no board's live scores, without them and without the
        boards' matches (:func:`~.feed_public.trimmed_view`)."""
        trimmed = trimmed and not full
        view = await self._cached("full" if full else "trimmed" if trimmed else "public")
        if trimmed:
            return (
                f'{{"type":"snapshot","seq":{self.live.seq},"full":false,"trimmed":true,'
                f'"scores":{{}},"clocks":{{}},"event":{view}}}'
            )
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
        """The JSON text of a view (``full``, ``public``, ``trimmed``, ``division:GS:pools``,
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
                    self.director.taken(data)
                elif key == "public":
                    data = public_view(live)
                elif key == "trimmed":
                    data = trimmed_view(public_view(live))
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

    def audited(self, who: str, action: str, target: str, detail: dict[str, Any]) -> None:
        """The audit line of the change just stored: the next update takes it to the director's
        console."""
        self._audit = {
            "seq": self.live.seq,
            "at": datetime.now(UTC).isoformat(),
            "who": who,
            "action": action,
            "target": target,
            "detail": detail,
        }

    def broadcast(self, message: dict[str, Any]) -> None:
        """Send a numbered update: whole to the director's console (with the change's audit
        line), and what changed to the spectators' pages (:class:`PublicState`), with the pool
        tables only for those showing that division and the matches newly called for those
        holding a trimmed snapshot (each variant is encoded once, however many get it)."""
        whole = {"seq": self.live.seq, **message}
        audit, self._audit = self._audit, None
        if "matches" not in message:
            raw = {
                False: to_json(whole),
                True: to_json({**whole, "audit": audit} if audit else whole),
            }
            for sub in list(self.subscribers):
                self._send(sub, raw[sub.full])
            return
        if audit is not None:
            whole["audit"] = audit
        self.director.touched(whole)
        pools = self.public.pools(message.get("pools", []))
        public = self.public.update(whole)
        forms = {False: public}
        cut = self.public.trimmed(public)
        if cut is not public:  # pages with a trimmed snapshot get the newly called whole
            forms[True] = cut
        texts: dict[tuple[str, bool], str] = {}
        for trimmed, form in forms.items():
            texts["", trimmed] = to_json(form)
            for division in {p["division"] for p in pools}:
                mine = [p for p in pools if p["division"] == division]
                texts[division, trimmed] = to_json({**form, "pools": mine})
        whole_text = to_json(whole)
        for sub in list(self.subscribers):
            trimmed = sub.trimmed and True in forms
            text = texts.get((sub.division or "", trimmed), texts["", trimmed])
            self._send(sub, whole_text if sub.full else text)

    def structural(self) -> None:
        """A change of the event's structure: the director's console gets the parts of its view
        that changed (:class:`DirectorView`), spectators' pages reload."""
        self.public.reset()
        reload = {"seq": self.live.seq, "type": "reload"}
        audit, self._audit = self._audit, None
        if not any(sub.full for sub in self.subscribers):
            self.director.forget()
            self.broadcast_raw(reload)
            return
        changes = self.director.changes()
        whole = {**reload} if changes is None else {"seq": self.live.seq, **changes}
        if audit is not None:
            whole["audit"] = audit
        texts = {True: to_json(whole), False: to_json(reload)}
        for sub in list(self.subscribers):
            self._send(sub, texts[sub.full])

    def _send(self, sub: TournamentSubscriber, text: str) -> None:
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
            self._send(sub, text)

    def live_score(
        self, match_id: str, scores: tuple[int, int] | None, clock: dict[str, Any] | None
    ) -> None:
        """Keep a match's score and clock and send them soon (see
        :meth:`LiveTournament.live_score`)."""
        if match_id in self.live.event.results:
            return
        if scores is not None and self.scores.get(match_id) != scores:
            self.scores[match_id] = scores
            self._changed_scores.add(match_id)
        if clock is not None:
            reading = _reading(clock)
            if not _same_clock(self.clocks.get(match_id), reading):
                self.clocks[match_id] = reading
                self._changed_clocks.add(match_id)
        if self._flush is None and (self._changed_scores or self._changed_clocks):
            loop = asyncio.get_running_loop()
            self._flush = loop.call_later(LIVE_EVERY_S, self._flush_live)

    def flush_live(self) -> None:
        """Send the live scores and clocks gathered so far now (a benchmark's clock)."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush_live()

    def forget(self, match_id: str) -> None:
        """A match has its result: its live score and clock are no longer shown."""
        self.scores.pop(match_id, None)
        self.clocks.pop(match_id, None)

    def _flush_live(self) -> None:
        self._flush = None
        done = self.live.event.results
        scored = sorted(m for m in self._changed_scores if m in self.scores and m not in done)
        timed = sorted(m for m in self._changed_clocks if m in self.clocks and m not in done)
        self._changed_scores, self._changed_clocks = set(), set()
        scores = {m: list(self.scores[m]) for m in scored}
        clocks = {m: self.clocks[m] for m in timed}
        if not scores and not clocks:
            return
        ids = {*scored, *timed}
        every = to_json(_live_message(scores, clocks))
        sides = {m: self.live.event.match(m).sides for m in ids}
        for sub in list(self.subscribers):
            if sub.full or sub.watching == "all":
                self._send(sub, every)
            elif sub.watching == "find" and sub.entries:
                mine = {m for m, pair in sides.items() if sub.entries.intersection(pair)}
                if mine:
                    message = _live_message(
                        {m: s for m, s in scores.items() if m in mine},
                        {m: c for m, c in clocks.items() if m in mine},
                    )
                    self._send(sub, to_json(message))


def _live_message(scores: dict[str, Any], clocks: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "live"}
    if scores:
        message["scores"] = scores
    if clocks:
        message["clocks"] = clocks
    return message
