"""Tournaments on the server: each event in memory, every change stored before it is broadcast.

:class:`TournamentHub` finds an event (rebuilding it from the store after a restart, so nothing
is lost); :class:`LiveEvent` serialises the changes of one event under a lock. Each change is
checked by the pure library (:mod:`hikone_carrom.tournament`), stored in one transaction with
its audit entry, then sent to every spectator as a numbered update.

Results arrive through one method, :meth:`LiveEvent.record_result`, whoever sends them: the
director's form or a board's scoring pad. Board calls go to every listener registered with
:meth:`LiveEvent.on_call` (the scoring pads of the boards) as well as to the public pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.storage import StoreError
from hikone_carrom.server.storage.tournament_store import LiveState, TournamentStore
from hikone_carrom.server.tournaments.views import (
    board_tiles,
    compact,
    division_view,
    entry_view,
    event_view,
    match_view,
    pool_view,
    public_view,
    search_view,
)
from hikone_carrom.tournament import (
    Entry,
    Event,
    EventSettings,
    ImportReport,
    Person,
    Pool,
    Result,
    Slot,
    StandingRules,
    TournamentError,
    championship_divisions,
    parse_entries_csv,
)
from hikone_carrom.tournament.codec import entry_to_dict, rules_to_dict

__all__ = [
    "BoardCall",
    "CallListener",
    "LiveEvent",
    "Subscriber",
    "TournamentHub",
    "local_seconds",
]

log = logging.getLogger(__name__)

LIVE_EVERY_S = 1.0
"""Live scores and clocks go to the spectators at most this often, s (one message for all)."""


class Subscriber(Protocol):
    """A spectator's connection: gets every update as JSON text. ``full`` (the director's
    console) takes every update whole; a spectator's page takes the matches without their
    empty fields and the pool tables of the one ``division`` whose pools it shows (or none)."""

    full: bool
    division: str | None

    def send(self, text: str) -> None:
        """Queue ``text`` for the spectator."""


@dataclass(frozen=True)
class BoardCall:
    """A match called to a board: what the hall hears and what the board's pad opens.

    ``pad`` is the (pad board id, pad match number) opened for it, ``pad_error`` why the pad
    could not open it (the call stands; the result can be entered by hand).
    """

    match_id: str
    board: int
    sides: tuple[str, str]
    division: str
    match_time_s: float | None
    text_ja: str
    text_en: str
    knockout: bool = False
    pad: tuple[str, int] | None = None
    room: str | None = None
    pad_error: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "match": self.match_id,
            "board": self.board,
            "sides": list(self.sides),
            "division": self.division,
            "match_time_s": self.match_time_s,
            "text": {"ja": self.text_ja, "en": self.text_en},
            "pad": None if self.pad is None else {"board": self.pad[0], "match": self.pad[1]},
            "room": self.room,
            "pad_error": self.pad_error,
        }


CallListener = Callable[[BoardCall], Awaitable[dict[str, Any] | None]]
"""Told of a board call; answers what now serves the match as :class:`LiveState` fields (a
scoring pad's ``pad_board`` and ``pad_match``, or an online ``room``), or None."""


def hash_token(token: str) -> str:
    """SHA-256 hex of a director token (the store never keeps the token)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def local_seconds(moment: datetime | None = None) -> int:
    """Seconds since local midnight on the server's clock (the board plan's time scale)."""
    now = (moment or datetime.now(UTC)).astimezone()
    return now.hour * 3600 + now.minute * 60 + now.second


def _refusal(err: TournamentError) -> RoomError:
    return RoomError(err.code, err.en, err.ja, status=409)


class LiveEvent:
    """One event being run: the library's :class:`Event`, its live match states, spectators."""

    def __init__(
        self,
        tournament_id: str,
        event: Event,
        live: dict[str, LiveState],
        seq: int,
        director_hash: str,
        store: TournamentStore,
        runner: Runner,
    ) -> None:
        self.id = tournament_id
        self.event = event
        self.live = live
        self.seq = seq
        self.director_hash = director_hash
        self.store = store
        self.runner = runner
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.calls: list[dict[str, Any]] = []
        self._call_listeners: list[CallListener] = []
        self.pads: dict[int, tuple[str, str]] = {}
        self.scores: dict[str, tuple[int, int]] = {}
        self.clocks: dict[str, dict[str, Any]] = {}
        self._views: dict[str, str] = {}
        self._views_seq = -1
        self._live_changed: set[str] = set()
        self._live_flush: asyncio.TimerHandle | None = None

    # -- access ----------------------------------------------------------------------------

    def is_director(self, token: str | None) -> bool:
        """Whether ``token`` is this event's director token."""
        return token is not None and hmac.compare_digest(hash_token(token), self.director_hash)

    def on_call(self, listener: CallListener) -> None:
        """Have ``listener`` told of every board call, after it is stored (the board's scoring
        pad opens the called match); it answers the pad's board id and match number, or None."""
        self._call_listeners.append(listener)

    async def snapshot_text(self, *, full: bool = True) -> str:
        """The event as JSON text: ``seq``, the live scores and clocks of matches being played
        and the event, whole (``full``, the director's console) or as a spectator's page first
        needs it (:func:`~.tournament_views.public_view`). Built once per change number, under
        the event's lock, so never in the middle of a change."""
        view = await self._cached("full" if full else "public")
        return (
            f'{{"type":"snapshot","seq":{self.seq},"full":{"true" if full else "false"},'
            f'"scores":{self._json(self._live_scores())},'
            f'"clocks":{self._json(self._live_clocks())},"event":{view}}}'
        )

    async def request_text(self, kind: str, key: str) -> str:
        """The answer to a spectator's request, as JSON text in the order of its updates:
        ``division`` (``key`` "GS:pools" or "GS:bracket"), ``entry`` (an entry id) or
        ``search`` (a name or kana reading). Raises :class:`TournamentError` for an unknown
        division or entry."""
        if kind == "division":
            division, _, part = key.partition(":")
            self.event.division(division)
            body = await self._cached(f"division:{division}:{part}")
        else:
            async with self.lock:
                data = entry_view(self, key) if kind == "entry" else search_view(self, key)
                body = self._json(data)
        return f'{{"type":"{kind}","seq":{self.seq},"key":{self._json(key)},"data":{body}}}'

    async def _cached(self, key: str) -> str:
        """The JSON text of a view (``full``, ``public``, ``division:GS:pools``...), built once
        per change number under the event's lock."""
        async with self.lock:
            if self._views_seq != self.seq:
                self._views = {}
                self._views_seq = self.seq
            text = self._views.get(key)
            if text is None:
                if key == "full":
                    data = event_view(self)
                elif key == "public":
                    data = public_view(self)
                else:
                    _, division, part = key.split(":")
                    data = division_view(self, division, part)
                text = self._json(data)
                self._views[key] = text
            return text

    @staticmethod
    def _json(data: Any) -> str:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def _live_scores(self) -> dict[str, list[int]]:
        return {m: list(s) for m, s in self.scores.items() if m not in self.event.results}

    def _live_clocks(self) -> dict[str, dict[str, Any]]:
        return {m: c for m, c in self.clocks.items() if m not in self.event.results}

    def _broadcast(self, message: dict[str, Any]) -> None:
        """Send a numbered message: encoded once whole (the director's console) and once for
        spectators' pages, with the pool tables only for those showing that division (each
        variant is encoded once, however many get it)."""
        whole = {"seq": self.seq, **message}
        if "matches" not in message:
            self._broadcast_raw(whole)
            return
        pools = message.get("pools", [])
        public = {
            **whole,
            "matches": [compact(m) for m in message["matches"]],
            "pools": [],
        }
        texts = {"": self._json(public)}
        for division in {p["division"] for p in pools}:
            mine = [p for p in pools if p["division"] == division]
            texts[division] = self._json({**public, "pools": mine})
        whole_text = self._json(whole)
        for sub in list(self.subscribers):
            text = whole_text if sub.full else texts.get(sub.division or "", texts[""])
            try:
                sub.send(text)
            except Exception:  # a closed connection must never stop the others
                log.exception("dropping a spectator")
                self.subscribers.discard(sub)

    def _broadcast_raw(self, message: dict[str, Any]) -> None:
        """Encode ``message`` once and queue the same text for every spectator (each has its
        own bounded queue: a slow one never holds up the others)."""
        text = self._json(message)
        for sub in list(self.subscribers):
            try:
                sub.send(text)
            except Exception:  # a closed connection must never stop the others
                log.exception("dropping a spectator")
                self.subscribers.discard(sub)

    # -- the one way to change an event ----------------------------------------------------

    async def _commit(
        self,
        who: str,
        action: str,
        target: str,
        detail: dict[str, Any],
        *,
        structure: bool = True,
        live: Iterable[LiveState] = (),
        removed: Iterable[str] = (),
    ) -> None:
        """Store the change made in memory (document and/or live rows) with its audit entry;
        if the store fails, the in-memory event is rebuilt from the store and a 503 refusal
        raised (nothing changed)."""
        live = list(live)
        removed = list(removed)
        event = self.event

        def save() -> None:
            # the document is built in the store thread: the event is not changed meanwhile
            # (changes hold the lock) and the event loop keeps serving spectators
            self.store.save(
                self.id,
                self.seq + 1,
                doc=event.to_dict() if structure else None,
                live=live,
                removed=removed,
                audit=[(who, action, target, detail)],
            )

        try:
            await self.runner.store(save)
        except Exception as err:
            log.exception("event %s: cannot store change %d", self.id, self.seq + 1)
            stored = await self.runner.store(self.store.load, self.id)
            self.event = Event.from_dict(stored.doc)
            self.live = stored.live
            self.seq = stored.seq
            raise RoomError(
                "store_unavailable",
                "The server could not store the change; nothing changed: try again",
                "サーバーに保存できませんでした。何も変わっていません。もう一度お試しください",
                status=503,
            ) from err
        self.seq += 1
        for state in live:
            self.live[state.match_id] = state
        for match_id in removed:
            self.live.pop(match_id, None)

    def _knockout_sides(self, division: str) -> dict[str, tuple[str | None, str | None]]:
        return {m.id: m.sides for m in self.event.matches(division) if m.stage == "knockout"}

    def _updates(
        self,
        match_ids: Iterable[str],
        before: dict[str, tuple[str | None, str | None]] | None = None,
    ) -> dict[str, Any]:
        """Changed matches, with the tables of their pools, the knockout matches whose entrants
        changed since ``before`` (the division's knockout sides before the change) and the
        division's places."""
        ids = set(match_ids)
        pools: set[tuple[str, int]] = set()
        divisions: set[str] = set()
        for mid in ids:
            m = self.event.match(mid)
            divisions.add(m.division)
            if m.pool is not None:
                pools.add((m.division, m.pool))
        if before is not None:
            for division in divisions:
                after = self._knockout_sides(division)
                ids |= {mid for mid, sides in after.items() if before.get(mid) != sides}
        plan = self.event.plan
        boards: set[int] = set()
        for mid in ids:
            state = self.live.get(mid)
            slot = plan.slot(mid) if plan else None
            boards |= {b for b in (state and state.board, slot and slot.board) if b}
        tiles = board_tiles(self, boards)
        shown = ids | {m for _, a, b in tiles for m in (a, b) if m}
        return {
            "type": "update",
            "matches": [match_view(self, self.event.match(i)) for i in sorted(shown)],
            "pools": [pool_view(self, self.event.pool(d, n)) for d, n in sorted(pools)],
            "places": {d: self._places(d) for d in sorted(divisions)},
            "tiles": [list(t) for t in tiles],
        }

    def _places(self, division: str) -> dict[str, list[str]]:
        return {str(k): v for k, v in self.event.final_places(division).items()}

    async def _structural(self, who: str, action: str, target: str, detail: dict[str, Any]) -> None:
        await self._commit(who, action, target, detail)
        self._broadcast({"type": "reload"})

    # -- director's actions ----------------------------------------------------------------

    async def import_csv(self, data: bytes, who: str, *, apply: bool = True) -> ImportReport:
        """Read entries from CSV; when every row is right (and ``apply``), add them all."""
        async with self.lock:
            try:
                report = parse_entries_csv(data, self.event)
            except TournamentError as err:
                raise _refusal(err) from err
            if report.ok and apply and report.entries:
                for entry in report.entries:
                    self.event.add_entry(entry)
                await self._structural(
                    who,
                    "import",
                    "entries",
                    {"entries": len(report.entries), "encoding": report.encoding},
                )
            return report

    def _started(self) -> frozenset[str]:
        """Matches called, being played or played (a re-plan never moves them)."""
        return frozenset(self.live)

    async def add_entry(
        self, division: str, members: list[Person], seed: int | None, who: str
    ) -> tuple[Entry, Pool | None]:
        """Enter one entry (checked as a CSV row is). After the division's draw it is a late
        entry: it joins the pool the library chooses and that pool's matches go into the board
        plan's free time from now (docs/tournament.md)."""
        async with self.lock:
            try:
                entry = Entry(self.event.next_entry_id(division), division, tuple(members), seed)
                pool = self.event.add_entry(entry, started=self._started(), now_s=local_seconds())
            except TournamentError as err:
                raise _refusal(err) from err
            detail: dict[str, Any] = {"after": entry_to_dict(entry)}
            if pool is not None:
                detail["pool"] = pool.label
            await self._structural(who, "entry_add", entry.id, detail)
            return entry, pool

    async def update_entry(
        self,
        entry_id: str,
        members: list[Person],
        seed: int | None,
        who: str,
        division: str | None = None,
    ) -> Entry:
        """Correct an entry (names, readings, clubs, ages, school years, seed; its division
        before the draw), with the same checks as a new one."""
        async with self.lock:
            try:
                before = self.event.entry(entry_id)
                after = self.event.update_entry(
                    entry_id,
                    members,
                    seed=seed,
                    division=division,
                    started=self._started(),
                    now_s=local_seconds(),
                )
            except TournamentError as err:
                raise _refusal(err) from err
            await self._structural(
                who,
                "entry_edit",
                entry_id,
                {"before": entry_to_dict(before), "after": entry_to_dict(after)},
            )
            return after

    async def set_rules(self, rules: StandingRules, who: str) -> None:
        """Change the match points and tie-breaks; every table is computed again (refused once
        a pool is closed)."""
        async with self.lock:
            before = rules_to_dict(self.event.settings.rules)
            try:
                self.event.set_rules(rules)
            except TournamentError as err:
                raise _refusal(err) from err
            after = rules_to_dict(self.event.settings.rules)
            await self._structural(who, "rules", "standings", {"before": before, "after": after})

    async def set_status(
        self, entry_id: str, status: Literal["entered", "checked_in", "withdrawn"], who: str
    ) -> None:
        """Check an entry in, withdraw it, or set it back."""
        async with self.lock:
            try:
                before = self.event.entry(entry_id).status
                self.event.set_status(entry_id, status)
            except TournamentError as err:
                raise _refusal(err) from err
            await self._structural(who, "status", entry_id, {"before": before, "after": status})

    async def draw(self, division: str, who: str, *, seeded: bool = True) -> None:
        """Draw a division's pools (and its bracket of pool places)."""
        async with self.lock:
            try:
                pools = self.event.draw(division, seeded=seeded)
            except TournamentError as err:
                raise _refusal(err) from err
            await self._structural(who, "draw", division, {"pools": len(pools), "seeded": seeded})

    async def make_plan(self, who: str) -> None:
        """Plan every drawn match on the boards, from the event's start time."""
        async with self.lock:
            try:
                plan = await self.runner.simulate(self.event.make_plan)
            except TournamentError as err:
                raise _refusal(err) from err
            await self._structural(who, "plan", "boards", {"matches": len(plan.slots)})

    async def replan(self, who: str, now_s: int, out_of_service: frozenset[int]) -> None:
        """Plan again from ``now_s`` (s from midnight): finished and running matches stay."""
        async with self.lock:
            plan = self.event.plan
            if plan is None:
                raise RoomError(
                    "no_plan", "Make the board plan first", "先に台割りを作ってください"
                )
            at = plan.by_match()
            finished: dict[str, Slot] = {}
            running: dict[str, Slot] = {}
            for mid, state in self.live.items():
                slot = at.get(mid)
                board = state.board or (slot.board if slot else 1)
                if state.status == "finished" and slot is not None:
                    end = local_seconds(state.finished_at) if state.finished_at else slot.end_s
                    start = min(slot.start_s, end)
                    finished[mid] = Slot(start, board, mid, max(start, min(end, now_s)))
                elif state.status in ("called", "playing"):
                    begun = state.started_at or state.called_at
                    start = min(local_seconds(begun), now_s) if begun else now_s
                    dur = slot.end_s - slot.start_s if slot else 300
                    running[mid] = Slot(start, board, mid, start + dur)
            for mid in self.event.results:
                if mid not in finished and mid in at:
                    s = at[mid]
                    finished[mid] = Slot(min(s.start_s, now_s), s.board, mid, min(s.end_s, now_s))
            try:
                new = await self.runner.simulate(
                    self.event.replan,
                    now_s,
                    finished=finished,
                    running=running,
                    out_of_service=out_of_service,
                )
            except TournamentError as err:
                raise _refusal(err) from err
            await self._structural(
                who,
                "replan",
                "boards",
                {
                    "now_s": now_s,
                    "out_of_service": sorted(out_of_service),
                    "matches": len(new.slots),
                },
            )

    async def call(self, match_id: str, who: str, board: int | None = None) -> BoardCall:
        """Call a match to its board ("第17台: 山田 対 佐藤"); the board's pad opens it."""
        async with self.lock:
            try:
                match = self.event.match(match_id)
            except TournamentError as err:
                raise _refusal(err) from err
            if not match.playable or self.event.forfeited(match):
                raise RoomError(
                    "not_ready",
                    f"Match {match_id} has no two entrants to call",
                    f"試合 {match_id} はまだ呼び出せません（対戦相手が未定です）",
                )
            if match_id in self.event.results:
                raise RoomError(
                    "already_played",
                    f"Match {match_id} has a result",
                    f"試合 {match_id} は終了しています",
                )
            slot = self.event.plan.slot(match_id) if self.event.plan else None
            where = board or (slot.board if slot else None)
            if where is None or not 1 <= where <= self.event.settings.boards:
                raise RoomError(
                    "no_board",
                    f"Name a board 1-{self.event.settings.boards} for match {match_id}",
                    f"試合 {match_id} の台（1〜{self.event.settings.boards}）を指定してください",
                )
            taken = [
                s.match_id
                for s in self.live.values()
                if s.board == where and s.status in ("called", "playing") and s.match_id != match_id
            ]
            if taken:
                raise RoomError(
                    "board_busy",
                    f"Board {where} still has match {taken[0]}",
                    f"第{where}台ではまだ試合 {taken[0]} が行われています",
                )
            busy = self._busy_entries()
            clash = [s for s in match.sides if s in busy and busy[s] != match_id]
            if clash:
                name = self.event.entry(clash[0] or "").name
                raise RoomError(
                    "entrant_busy",
                    f"{name} is still in match {busy[clash[0] or '']}",
                    f"{name}さんはまだ試合 {busy[clash[0] or '']} 中です",
                )
            ja_a, ja_b = self.event.side_names(match, "ja")
            division = self.event.division(match.division)
            online = self.event.settings.online
            place_ja = f"対局{where}" if online else f"第{where}台"
            place_en = f"Game {where}" if online else f"Board {where}"
            call = BoardCall(
                match_id,
                where,
                (ja_a, ja_b),
                match.division,
                None if match.final and division.final_untimed else division.match_time_s,
                f"{place_ja}: {ja_a} 対 {ja_b}（{division.name_ja} {match.name_ja}）",
                f"{place_en}: {ja_a} v {ja_b} ({division.name_en}, {match.name_en})",
                knockout=match.stage == "knockout",
            )
            state = LiveState(match_id, "called", where, datetime.now(UTC))
            await self._commit(
                who, "call", match_id, {"board": where}, structure=False, live=[state]
            )
            self.calls = ([call.to_dict(), *self.calls])[:20]
            update = self._updates([match_id])
            update["call"] = call.to_dict()
            self._broadcast(update)
        for listener in list(self._call_listeners):
            try:
                opened = await listener(call)
            except RoomError as err:  # the call stands; the director sees why the pad did not
                call = replace(call, pad_error=err.detail())
                continue
            if opened is not None:
                public = {k: v for k, v in opened.items() if k != "seat_tokens"}
                action = "pad" if "pad_board" in opened else "room"
                await self.link(match_id, who, opened, action, public)
                if "pad_board" in opened:
                    call = replace(call, pad=(opened["pad_board"], opened["pad_match"]))
                call = replace(call, room=opened.get("room", call.room))
        return call

    async def link(
        self, match_id: str, who: str, fields: dict[str, Any], action: str, detail: dict[str, Any]
    ) -> None:
        """Remember what serves ``match_id`` (:class:`LiveState` fields: a scoring pad's match,
        an online room, its seat tokens) so that its result comes back; ``action`` and
        ``detail`` go into the audit trail (never a token)."""
        async with self.lock:
            state = self.live.get(match_id)
            if state is None or state.status == "finished":
                return
            new = replace(state, **fields)
            await self._commit(who, action, match_id, detail, structure=False, live=[new])
            self._broadcast(self._updates([match_id]))

    def live_score(
        self,
        match_id: str,
        scores: tuple[int, int] | None = None,
        clock: dict[str, Any] | None = None,
    ) -> None:
        """A match's score (R7b) and match clock (``elapsed`` s, ``running``, ``at_ms`` the wall
        time of the reading, ms) while it is played, from its pad or online room: kept in
        memory and sent to the spectators at most once a second in one unnumbered ``live``
        message (the result, when it comes, is the numbered update)."""
        if match_id in self.event.results:
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
        self._live_changed.add(match_id)
        if self._live_flush is None:
            loop = asyncio.get_running_loop()
            self._live_flush = loop.call_later(LIVE_EVERY_S, self._flush_live)

    def _flush_live(self) -> None:
        self._live_flush = None
        ids, self._live_changed = self._live_changed, set()
        scores = {m: list(self.scores[m]) for m in ids if m in self.scores}
        clocks = {m: self.clocks[m] for m in ids if m in self.clocks}
        done = set(self.event.results)
        scores = {m: v for m, v in scores.items() if m not in done}
        clocks = {m: v for m, v in clocks.items() if m not in done}
        if scores or clocks:
            self._broadcast_raw({"type": "live", "scores": scores, "clocks": clocks})

    async def begin(
        self, match_id: str, who: str, started_at: datetime, clock: dict[str, Any] | None = None
    ) -> None:
        """A called match has begun on its pad or in its online room (the pad's clock started
        or its first entry, the room's first shot): it is "playing" from ``started_at``."""
        async with self.lock:
            state = self.live.get(match_id)
            if state is None or state.status != "called":
                return
            new = replace(state, status="playing", started_at=started_at)
            await self._commit(who, "begin", match_id, {}, structure=False, live=[new])
            self._broadcast(self._updates([match_id]))
        if clock is not None:
            self.live_score(match_id, clock=clock)

    async def note(self, who: str, action: str, target: str, detail: dict[str, Any]) -> None:
        """Keep a remark in the audit trail (e.g. a pad's result the event refused)."""
        async with self.lock:
            await self._commit(who, action, target, detail, structure=False)

    async def set_pads(self, pads: dict[int, tuple[str, str]]) -> None:
        """Link board numbers to scoring pads ``{board: (pad board id, pad link)}``."""
        async with self.lock:
            await self.runner.store(self.store.set_pads, self.id, pads)
            self.pads.update(pads)

    def _busy_entries(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for state in self.live.values():
            if state.status in ("called", "playing"):
                for side in self.event.match(state.match_id).sides:
                    if side:
                        out[side] = state.match_id
        return out

    async def call_next(self, board: int, who: str) -> BoardCall:
        """Call the next match planned on ``board`` that has not been called or played."""
        plan = self.event.plan
        if plan is None:
            raise RoomError("no_plan", "Make the board plan first", "先に台割りを作ってください")
        for slot in plan.slots:
            if slot.board != board or slot.match in self.live or slot.match in self.event.results:
                continue
            match = self.event.match(slot.match)
            if match.playable and not self.event.forfeited(match):
                return await self.call(slot.match, who, board)
        raise RoomError(
            "nothing_to_call",
            f"Board {board} has no match ready to call",
            f"第{board}台に呼び出せる試合がありません",
        )

    async def start(self, match_id: str, who: str) -> None:
        """The called match begins: its clock starts (R7b)."""
        async with self.lock:
            state = self.live.get(match_id)
            if state is None or state.status != "called":
                raise RoomError(
                    "not_called",
                    f"Call match {match_id} first",
                    f"先に試合 {match_id} を呼び出してください",
                )
            new = replace(state, status="playing", started_at=datetime.now(UTC))
            await self._commit(who, "start", match_id, {}, structure=False, live=[new])
            self._broadcast(self._updates([match_id]))

    async def record_result(
        self, match_id: str, result: Result, who: str, source: str = "director"
    ) -> Result | None:
        """Record or correct the result of a match, from the director's form or a scoring pad
        (``source``); returns the result it replaced. Refusals (closed pool, knockout draw,
        played-on winner...) change nothing."""
        async with self.lock:
            try:
                before = self._knockout_sides(self.event.match(match_id).division)
                previous = self.event.record(match_id, result)
            except TournamentError as err:
                raise _refusal(err) from err
            self.scores.pop(match_id, None)
            self.clocks.pop(match_id, None)
            state = self.live.get(match_id) or LiveState(match_id, "called")
            slot = self.event.plan.slot(match_id) if self.event.plan else None
            now = datetime.now(UTC)
            done = replace(
                state,
                status="finished",
                board=state.board or (slot.board if slot else None),
                finished_at=now,
                source=source,
                result=result.to_dict(),
            )
            detail = {
                "before": None if previous is None else previous.to_dict(),
                "after": result.to_dict(),
                "source": source,
            }
            action = "result" if previous is None else "correction"
            # the result is stored with the match's live row: the document is not rewritten
            await self._commit(who, action, match_id, detail, structure=False, live=[done])
            self._broadcast(self._updates([match_id], before))
            return previous

    async def clear_result(self, match_id: str, who: str) -> None:
        """Remove a result entered by mistake (the match is to be played again)."""
        async with self.lock:
            try:
                before = self._knockout_sides(self.event.match(match_id).division)
                previous = self.event.clear_result(match_id)
            except TournamentError as err:
                raise _refusal(err) from err
            detail = {"before": None if previous is None else previous.to_dict(), "after": None}
            await self._commit(who, "clear", match_id, detail, removed=[match_id])
            self._broadcast(self._updates([match_id], before))

    async def close_pool(
        self, division: str, number: int, who: str, *, reopen: bool = False
    ) -> None:
        """Close a complete pool (its places go into the knockout) or reopen it."""
        async with self.lock:
            before = self._knockout_sides(division)
            try:
                if reopen:
                    self.event.reopen_pool(division, number)
                else:
                    self.event.close_pool(
                        division, number, started=self._started(), now_s=local_seconds()
                    )
            except TournamentError as err:
                raise _refusal(err) from err
            await self._commit(who, "reopen" if reopen else "close", f"{division}-{number}", {})
            first = next(m.id for m in self.event.matches(division) if m.pool == number)
            self._broadcast(self._updates([first], before))


class TournamentHub:
    """Every event of one server, in memory once used and rebuilt from the store on demand."""

    def __init__(self, store: TournamentStore, runner: Runner) -> None:
        self.store = store
        self.runner = runner
        self.events: dict[str, LiveEvent] = {}
        self._loading = asyncio.Lock()
        self._created: list[Callable[[LiveEvent], None]] = []

    def on_event(self, listener: Callable[[LiveEvent], None]) -> None:
        """Have ``listener`` see every event this server loads or creates (to register
        board-call listeners, e.g. the scoring pads)."""
        self._created.append(listener)
        for live in self.events.values():
            listener(live)

    def _loaded(self, live: LiveEvent) -> LiveEvent:
        self.events[live.id] = live
        for listener in self._created:
            listener(live)
        return live

    async def create(self, settings: EventSettings, password: str | None) -> tuple[LiveEvent, str]:
        """A new event with the championship's six classes; returns it and the director token
        (the ``password`` if one was chosen)."""
        token = password or secrets.token_urlsafe(12)
        tournament_id = secrets.token_urlsafe(6)
        event = Event(settings, championship_divisions())
        await self.runner.store(
            self.store.create, tournament_id, settings.name, hash_token(token), event.to_dict()
        )
        live = LiveEvent(tournament_id, event, {}, 0, hash_token(token), self.store, self.runner)
        return self._loaded(live), token

    async def get(self, tournament_id: str) -> LiveEvent:
        """The event with this id (404 when unknown)."""
        live = self.events.get(tournament_id)
        if live is not None:
            return live
        async with self._loading:
            live = self.events.get(tournament_id)
            if live is not None:
                return live
            try:
                stored = await self.runner.store(self.store.load, tournament_id)
            except StoreError as err:
                raise RoomError(
                    "no_tournament", "This event does not exist", "この大会はありません", status=404
                ) from err
            event = Event.from_dict(stored.doc)
            live = LiveEvent(
                stored.id,
                event,
                dict(stored.live),
                stored.seq,
                stored.director_hash,
                self.store,
                self.runner,
            )
            live.pads = await self.runner.store(self.store.pads, tournament_id)
            return self._loaded(live)

    async def resume(self) -> None:
        """Load every event with a match called or being played, so that the listeners of
        :meth:`on_event` watch its scoring pads and online rooms again after a restart (a
        result that arrives before anyone opens the event is not lost)."""
        for tournament_id in await self.runner.store(self.store.in_play):
            try:
                await self.get(tournament_id)
            except (RoomError, TournamentError):
                log.exception("event %s could not be loaded", tournament_id)

    async def close(self) -> None:
        """Forget every event (they are all stored)."""
        for live in self.events.values():
            with contextlib.suppress(Exception):
                live.subscribers.clear()
        self.events.clear()
