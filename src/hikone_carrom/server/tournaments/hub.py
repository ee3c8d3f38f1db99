"""Tournaments on the server: each event in memory, every change stored before it is broadcast.

:class:`TournamentHub` finds an event (rebuilding it from the store after a restart, so nothing
is lost); :class:`LiveTournament` serialises the changes of one event under a lock. Each change is
checked by the pure library (:mod:`hikone_carrom.tournament`), stored in one transaction with
its audit entry, then sent to every spectator as a numbered update.

Results arrive through one method, :meth:`LiveTournament.record_result`, whoever sends them: the
director's form or a board's scoring pad. Board calls go to every listener registered with
:meth:`LiveTournament.on_call` (the scoring pads of the boards) as well as to the public pages.

The concerns of a :class:`LiveTournament` are collaborators it owns, each acting under its lock:
the director's setting up (:mod:`.tournament_hub_setup`), board calls
(:mod:`.tournament_hub_calls`), the numbered updates (:mod:`.tournament_hub_updates`) and what
the spectators are sent (:mod:`.tournament_hub_feed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Literal

from hikone_carrom.server.core.errors import RoomError, store_unavailable
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.storage import StoreError, StoreUnavailable
from hikone_carrom.server.storage.tournament_store import (
    LiveState,
    StoredTournament,
    TournamentStore,
)
from hikone_carrom.server.tournaments.hub_auto import AutoRunner
from hikone_carrom.server.tournaments.hub_calls import BoardCall, CallListener, make_call
from hikone_carrom.server.tournaments.hub_feed import SpectatorFeed, TournamentSubscriber
from hikone_carrom.server.tournaments.hub_setup import (
    TournamentSetup,
    local_seconds,
    refusal,
    started,
)
from hikone_carrom.server.tournaments.hub_updates import knockout_sides, updates
from hikone_carrom.server.tournaments.hub_withdraw import CallWithdrawals
from hikone_carrom.tournament import (
    Entry,
    ImportReport,
    Person,
    Pool,
    Result,
    StandingRules,
    Tournament,
    TournamentError,
    TournamentSettings,
    championship_divisions,
)
from hikone_carrom.tournament.call_conflicts import (
    clear_conflicts,
    record_conflicts,
    reopen_conflicts,
)

__all__ = [
    "BoardCall",
    "CallListener",
    "LiveTournament",
    "TournamentHub",
    "TournamentSubscriber",
    "local_seconds",
]

log = logging.getLogger(__name__)


def hash_token(token: str) -> str:
    """SHA-256 hex of a director token (the store never keeps the token)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def unstored() -> RoomError:
    """The event's change could not be stored: nothing changed, the director may retry (503)."""
    return RoomError(
        "store_unavailable",
        "The server could not store the change; nothing changed: try again",
        "サーバーに保存できませんでした。何も変わっていません。もう一度お試しください",
        status=503,
    )


def _doc_text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


class LiveTournament:
    """One event being run: the library's :class:`Tournament`, its live match states, spectators."""

    def __init__(
        self,
        tournament_id: str,
        event: Tournament,
        live: dict[str, LiveState],
        seq: int,
        director_hash: str,
        store: TournamentStore,
        runner: Runner,
        stored_doc: str,
    ) -> None:
        self.id = tournament_id
        self.event = event
        self.live = live
        self.seq = seq
        self.director_hash = director_hash
        self.store = store
        self.runner = runner
        self.lock = asyncio.Lock()
        self.calls: list[dict[str, Any]] = []
        self._call_listeners: list[CallListener] = []
        self.pads: dict[int, tuple[str, str]] = {}
        self.feed = SpectatorFeed(self)
        self.setup = TournamentSetup(self)
        self.withdrawals = CallWithdrawals(self)
        self.auto = AutoRunner(self)
        self._stored_doc = stored_doc
        """The event's document as last stored (JSON): a change the store refused is undone
        from it and the live rows, never from the store that just failed."""

    @property
    def subscribers(self) -> set[TournamentSubscriber]:
        """The spectators' connections."""
        return self.feed.subscribers

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
        return await self.feed.snapshot_text(full=full)

    async def request_text(self, kind: str, key: str) -> str:
        """The answer to a spectator's request, as JSON text in the order of its updates:
        ``division`` (``key`` "GS:pools" or "GS:bracket"), ``entry`` (an entry id) or
        ``search`` (a name or kana reading). Raises :class:`TournamentError` for an unknown
        division or entry."""
        return await self.feed.request_text(kind, key)

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
        also: Iterable[tuple[str, str, str, dict[str, Any]]] = (),
    ) -> None:
        """Store the change made in memory (document and/or live rows) with its audit entry
        (and the entries ``also`` made with it, e.g. the calls it withdraws), in one
        transaction; if the store fails, the change is undone in memory (the event as last
        stored: its document and live rows, both kept here) and a 503 refusal raised (nothing
        changed)."""
        live = list(live)
        removed = list(removed)
        also = list(also)
        event = self.event

        def save() -> str | None:
            # the document is built in the store thread: the event is not changed meanwhile
            # (changes hold the lock) and the event loop keeps serving spectators
            doc = event.to_dict() if structure else None
            self.store.save(
                self.id,
                self.seq + 1,
                doc=doc,
                live=live,
                removed=removed,
                audit=[(who, action, target, detail), *also],
            )
            return None if doc is None else _doc_text(doc)

        try:
            text = await self.runner.store(save)
        except Exception as err:
            if isinstance(err, StoreUnavailable):
                log.error("event %s: cannot store change %d: %s", self.id, self.seq + 1, err)
            else:
                log.exception("event %s: cannot store change %d", self.id, self.seq + 1)
            self.event = await self.runner.simulate(self._as_stored)
            raise unstored() from err
        if text is not None:
            self._stored_doc = text
        self.seq += 1
        self.feed.audited(who, action, target, detail)
        for state in live:
            self.live[state.match_id] = state
        for match_id in removed:
            self.live.pop(match_id, None)
        self.auto.poke()

    def _as_stored(self) -> Tournament:
        """The event as stored: the last stored document with the results of the live rows
        (as :meth:`TournamentStore.load` folds them in)."""
        doc = json.loads(self._stored_doc)
        doc["results"].update({m: s.result for m, s in self.live.items() if s.result})
        return Tournament.from_dict(doc)

    async def _structural(self, who: str, action: str, target: str, detail: dict[str, Any]) -> None:
        await self._commit(who, action, target, detail)
        self.feed.structural()

    # -- director's actions ----------------------------------------------------------------

    async def import_csv(self, data: bytes, who: str, *, apply: bool = True) -> ImportReport:
        """Read entries from CSV; when every row is right (and ``apply``), add them all."""
        return await self.setup.import_csv(data, who, apply=apply)

    async def add_entry(
        self, division: str, members: list[Person], seed: int | None, who: str
    ) -> tuple[Entry, Pool | None]:
        """Enter one entry (checked as a CSV row is). After the division's draw it is a late
        entry: it joins the pool the library chooses and that pool's matches go into the board
        plan's free time from now (docs/tournament.md)."""
        return await self.setup.add_entry(division, members, seed, who)

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
        return await self.setup.update_entry(entry_id, members, seed, who, division)

    async def set_rules(self, rules: StandingRules, who: str) -> None:
        """Change the match points and tie-breaks; every table is computed again (refused once
        a pool is closed)."""
        await self.setup.set_rules(rules, who)

    async def set_status(
        self,
        entry_id: str,
        status: Literal["entered", "checked_in", "withdrawn"],
        who: str,
        *,
        confirm: bool = False,
    ) -> None:
        """Check an entry in, withdraw it, or set it back (a called match it changes needs
        ``confirm``, :mod:`.hub_withdraw`)."""
        await self.setup.set_status(entry_id, status, who, confirm=confirm)

    async def draw(self, division: str, who: str, *, seeded: bool = True) -> None:
        """Draw a division's pools (and its bracket of pool places)."""
        await self.setup.draw(division, who, seeded=seeded)

    async def make_plan(self, who: str) -> None:
        """Plan every drawn match on the boards, from the event's start time."""
        await self.setup.make_plan(who)

    async def replan(self, who: str, now_s: int, out_of_service: frozenset[int]) -> None:
        """Plan again from ``now_s`` (s from midnight): finished and running matches stay."""
        await self.setup.replan(who, now_s, out_of_service)

    async def call(self, match_id: str, who: str, board: int | None = None) -> BoardCall:
        """Call a match to its board ("第17台: 山田 対 佐藤"); the board's pad opens it."""
        async with self.lock:
            call = make_call(self, match_id, board)
            where = call.board
            state = LiveState(match_id, "called", where, datetime.now(UTC))
            await self._commit(
                who, "call", match_id, {"board": where}, structure=False, live=[state]
            )
            self.calls = ([call.to_dict(), *self.calls])[:20]
            update = updates(self, [match_id])
            update["call"] = call.to_dict()
            self.feed.broadcast(update)
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
            self.feed.broadcast(updates(self, [match_id]))

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
        self.feed.live_score(match_id, scores, clock)

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
            self.feed.broadcast(updates(self, [match_id]))
        if clock is not None:
            self.live_score(match_id, clock=clock)

    async def note(self, who: str, action: str, target: str, detail: dict[str, Any]) -> None:
        """Keep a remark in the audit trail (e.g. a pad's result the event refused)."""
        async with self.lock:
            await self._commit(who, action, target, detail, structure=False)
            self.feed.broadcast(updates(self, []))  # the number, and the console's audit line

    async def set_pads(self, pads: dict[int, tuple[str, str]]) -> None:
        """Link board numbers to scoring pads ``{board: (pad board id, pad link)}``."""
        async with self.lock:
            try:
                await self.runner.store(self.store.set_pads, self.id, pads)
            except StoreUnavailable as err:
                raise unstored() from err
            self.pads.update(pads)

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
            self.feed.broadcast(updates(self, [match_id]))

    async def record_result(
        self,
        match_id: str,
        result: Result,
        who: str,
        source: str = "director",
        *,
        confirm: bool = False,
    ) -> Result | None:
        """Record or correct the result of a match, from the director's form or a scoring pad
        (``source``); returns the result it replaced. Refusals (closed pool, knockout draw,
        played-on winner, a called match's players changing without ``confirm``...) change
        nothing; with ``confirm`` the calls it changes are withdrawn (:mod:`.hub_withdraw`)."""
        async with self.lock:
            try:
                before = knockout_sides(self.event, self.event.match(match_id).division)
                called = self.withdrawals.called()
                moved = self.withdrawals.check(
                    record_conflicts(self.event, called, match_id, result), confirm
                )
                previous = self.event.record(match_id, result)
            except TournamentError as err:
                raise refusal(err) from err
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
            pending = self.withdrawals.prepare(moved, match_id)
            # the result is stored with the match's live row (the document is not rewritten)
            # and the calls it withdraws, in one transaction
            await self._commit(
                who, action, match_id, detail, structure=False, live=[done],
                removed=pending.removed, also=pending.audit(who),
            )  # fmt: skip
            self.feed.forget(match_id)
            withdrawn = self.withdrawals.announce(pending, [match_id], before)
        await self.withdrawals.follow_up(withdrawn, who)
        return previous

    async def clear_result(self, match_id: str, who: str, *, confirm: bool = False) -> None:
        """Remove a result entered by mistake (the match is to be played again); the calls
        it changes as :meth:`record_result`."""
        async with self.lock:
            try:
                before = knockout_sides(self.event, self.event.match(match_id).division)
                called = self.withdrawals.called()
                moved = self.withdrawals.check(
                    clear_conflicts(self.event, called, match_id), confirm
                )
                previous = self.event.clear_result(match_id)
            except TournamentError as err:
                raise refusal(err) from err
            detail = {"before": None if previous is None else previous.to_dict(), "after": None}
            pending = self.withdrawals.prepare(moved, match_id)
            await self._commit(
                who, "clear", match_id, detail,
                removed=[match_id, *pending.removed], also=pending.audit(who),
            )  # fmt: skip
            withdrawn = self.withdrawals.announce(pending, [match_id], before)
        await self.withdrawals.follow_up(withdrawn, who)

    async def close_pool(
        self, division: str, number: int, who: str, *, reopen: bool = False, confirm: bool = False
    ) -> None:
        """Close a complete pool (its places go into the knockout) or reopen it; the calls a
        reopening changes as :meth:`record_result`."""
        async with self.lock:
            before = knockout_sides(self.event, division)
            moved = []
            try:
                if reopen:
                    called = self.withdrawals.called()
                    moved = self.withdrawals.check(
                        reopen_conflicts(self.event, called, division, number), confirm
                    )
                    self.event.reopen_pool(division, number)
                else:
                    self.event.close_pool(
                        division, number, started=started(self), now_s=local_seconds()
                    )
            except TournamentError as err:
                raise refusal(err) from err
            target = f"{division}-{number}"
            pending = self.withdrawals.prepare(moved, target)
            await self._commit(
                who, "reopen" if reopen else "close", target, {},
                removed=pending.removed, also=pending.audit(who),
            )  # fmt: skip
            first = next(m.id for m in self.event.matches(division) if m.pool == number)
            withdrawn = self.withdrawals.announce(pending, [first], before)
        await self.withdrawals.follow_up(withdrawn, who)


class TournamentHub:
    """Every event of one server, in memory once used and rebuilt from the store on demand."""

    def __init__(self, store: TournamentStore, runner: Runner) -> None:
        self.store = store
        self.runner = runner
        self.events: dict[str, LiveTournament] = {}
        self._loading = asyncio.Lock()
        self._created: list[Callable[[LiveTournament], None]] = []

    def on_event(self, listener: Callable[[LiveTournament], None]) -> None:
        """Have ``listener`` see every event this server loads or creates (to register
        board-call listeners, e.g. the scoring pads)."""
        self._created.append(listener)
        for live in self.events.values():
            listener(live)

    def _loaded(self, live: LiveTournament) -> LiveTournament:
        self.events[live.id] = live
        for listener in self._created:
            listener(live)
        return live

    async def create(
        self, settings: TournamentSettings, password: str | None
    ) -> tuple[LiveTournament, str]:
        """A new event with the championship's six classes; returns it and the director token
        (the ``password`` if one was chosen)."""
        token = password or secrets.token_urlsafe(12)
        tournament_id = secrets.token_urlsafe(6)
        event = Tournament(settings, championship_divisions())
        doc = event.to_dict()
        try:
            await self.runner.store(
                self.store.create, tournament_id, settings.name, hash_token(token), doc
            )
        except StoreUnavailable as err:
            raise unstored() from err
        live = LiveTournament(
            tournament_id, event, {}, 0, hash_token(token), self.store, self.runner, _doc_text(doc)
        )
        return self._loaded(live), token

    async def get(self, tournament_id: str) -> LiveTournament:
        """The event with this id (404 when unknown)."""
        live = self.events.get(tournament_id)
        if live is not None:
            return live
        async with self._loading:
            live = self.events.get(tournament_id)
            if live is not None:
                return live

            def load() -> tuple[StoredTournament, dict[int, tuple[str, str]], str]:
                stored = self.store.load(tournament_id)
                return stored, self.store.pads(tournament_id), _doc_text(stored.doc)

            try:
                stored, pads, text = await self.runner.store(load)
            except StoreError as err:
                raise RoomError(
                    "no_tournament", "This event does not exist", "この大会はありません", status=404
                ) from err
            except StoreUnavailable as err:
                raise store_unavailable() from err
            event = Tournament.from_dict(stored.doc)
            live = LiveTournament(
                stored.id,
                event,
                dict(stored.live),
                stored.seq,
                stored.director_hash,
                self.store,
                self.runner,
                text,
            )
            live.pads = pads
            return self._loaded(live)

    async def resume(self) -> None:
        """Load every event with a match called or being played, so that the listeners of
        :meth:`on_event` watch its scoring pads and online rooms again after a restart (a
        result that arrives before anyone opens the event is not lost), and every event in
        automatic mode, which carries on calling and closing pools once loaded."""
        in_play = await self.runner.store(self.store.in_play)
        auto = await self.runner.store(self.store.auto_on)
        for tournament_id in dict.fromkeys([*in_play, *auto]):
            try:
                await self.get(tournament_id)
            except (RoomError, TournamentError):
                log.exception("event %s could not be loaded", tournament_id)

    async def close(self) -> None:
        """Forget every event (they are all stored)."""
        for live in self.events.values():
            with contextlib.suppress(Exception):
                live.subscribers.clear()
            live.auto.stop()
        self.events.clear()
