"""The director's setting up of an event: its entries, standing rules, draws and board plan.

Each change is checked by the pure library (:mod:`hikone_carrom.tournament`), then stored and
announced by the :class:`~.tournament_hub.LiveTournament` as a structural change (the spectators'
pages reload, the director's console gets the parts that changed), except a check-in or a
withdrawal: a numbered update of the entry, its matches and their tables.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.tournaments.hub_updates import knockout_sides
from hikone_carrom.tournament import (
    Entry,
    ImportReport,
    Person,
    Pool,
    Slot,
    StandingRules,
    TournamentError,
    parse_entries_csv,
)
from hikone_carrom.tournament.call_conflicts import status_conflicts
from hikone_carrom.tournament.codec import entry_to_dict, rules_to_dict

if TYPE_CHECKING:
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = ["TournamentSetup", "local_seconds", "refusal", "started"]


def local_seconds(moment: datetime | None = None) -> int:
    """Seconds since local midnight on the server's clock (the board plan's time scale)."""
    now = (moment or datetime.now(UTC)).astimezone()
    return now.hour * 3600 + now.minute * 60 + now.second


def refusal(err: TournamentError) -> RoomError:
    """The library's refusal of a change, as the server's (409: nothing changed)."""
    return RoomError(err.code, err.en, err.ja, status=409)


def started(live: LiveTournament) -> frozenset[str]:
    """Matches called, being played or played (a re-plan never moves them)."""
    return frozenset(live.live)


class TournamentSetup:
    """The director's changes to the entries, rules, draws and plan of ``live`` (each under
    the event's lock; see the methods of the same names on :class:`~.hub.LiveTournament`)."""

    def __init__(self, live: LiveTournament) -> None:
        self.live = live

    async def import_csv(self, data: bytes, who: str, *, apply: bool = True) -> ImportReport:
        """Read entries from CSV; when every row is right (and ``apply``), add them all."""
        live = self.live
        async with live.lock:
            try:
                report = parse_entries_csv(data, live.event)
            except TournamentError as err:
                raise refusal(err) from err
            if report.ok and apply and report.entries:
                for entry in report.entries:
                    live.event.add_entry(entry)
                await live._structural(
                    who,
                    "import",
                    "entries",
                    {"entries": len(report.entries), "encoding": report.encoding},
                )
            return report

    async def add_entry(
        self, division: str, members: list[Person], seed: int | None, who: str
    ) -> tuple[Entry, Pool | None]:
        """Enter one entry (checked as a CSV row is). After the division's draw it is a late
        entry: it joins the pool the library chooses and that pool's matches go into the board
        plan's free time from now (docs/tournament.md)."""
        live = self.live
        async with live.lock:
            try:
                entry = Entry(live.event.next_entry_id(division), division, tuple(members), seed)
                pool = live.event.add_entry(entry, started=started(live), now_s=local_seconds())
            except TournamentError as err:
                raise refusal(err) from err
            detail: dict[str, Any] = {"after": entry_to_dict(entry)}
            if pool is not None:
                detail["pool"] = pool.label
            await live._structural(who, "entry_add", entry.id, detail)
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
        live = self.live
        async with live.lock:
            try:
                before = live.event.entry(entry_id)
                after = live.event.update_entry(
                    entry_id,
                    members,
                    seed=seed,
                    division=division,
                    started=started(live),
                    now_s=local_seconds(),
                )
            except TournamentError as err:
                raise refusal(err) from err
            await live._structural(
                who,
                "entry_edit",
                entry_id,
                {"before": entry_to_dict(before), "after": entry_to_dict(after)},
            )
            return after

    async def set_rules(self, rules: StandingRules, who: str) -> None:
        """Change the match points and tie-breaks; every table is computed again (refused once
        a pool is closed)."""
        live = self.live
        async with live.lock:
            before = rules_to_dict(live.event.settings.rules)
            try:
                live.event.set_rules(rules)
            except TournamentError as err:
                raise refusal(err) from err
            after = rules_to_dict(live.event.settings.rules)
            await live._structural(who, "rules", "standings", {"before": before, "after": after})

    async def set_status(
        self,
        entry_id: str,
        status: Literal["entered", "checked_in", "withdrawn"],
        who: str,
        *,
        confirm: bool = False,
    ) -> None:
        """Check an entry in, withdraw it, or set it back; a withdrawal that makes a called
        match a forfeit is refused without ``confirm`` (:mod:`.hub_withdraw`)."""
        live = self.live
        async with live.lock:
            try:
                entry = live.event.entry(entry_id)
                sides = knockout_sides(live.event, entry.division)
                called = live.withdrawals.called()
                moved = live.withdrawals.check(
                    status_conflicts(live.event, called, entry_id, status), confirm
                )
                live.event.set_status(entry_id, status)
            except TournamentError as err:
                raise refusal(err) from err
            detail = {"before": entry.status, "after": status}
            pending = live.withdrawals.prepare(moved, entry_id)
            await live._commit(
                who, "status", entry_id, detail, removed=pending.removed, also=pending.audit(who)
            )
            # a withdrawal (or its undoing) forfeits the entry's matches: they, their tables and
            # boards change; a check-in changes the entry only
            forfeits = "withdrawn" in (entry.status, status)
            mine = [m.id for m in live.event.matches_of(entry_id)] if forfeits else []
            withdrawn = live.withdrawals.announce(pending, mine, sides, entries=[entry_id])
        await live.withdrawals.follow_up(withdrawn, who)

    async def draw(self, division: str, who: str, *, seeded: bool = True) -> None:
        """Draw a division's pools (and its bracket of pool places)."""
        live = self.live
        async with live.lock:
            try:
                pools = live.event.draw(division, seeded=seeded)
            except TournamentError as err:
                raise refusal(err) from err
            await live._structural(who, "draw", division, {"pools": len(pools), "seeded": seeded})

    async def make_plan(self, who: str) -> None:
        """Plan every drawn match on the boards, from the event's start time."""
        live = self.live
        async with live.lock:
            try:
                plan = await live.runner.simulate(live.event.make_plan)
            except TournamentError as err:
                raise refusal(err) from err
            await live._structural(who, "plan", "boards", {"matches": len(plan.slots)})

    async def replan(self, who: str, now_s: int, out_of_service: frozenset[int]) -> None:
        """Plan again from ``now_s`` (s from midnight): finished and running matches stay."""
        live = self.live
        async with live.lock:
            plan = live.event.plan
            if plan is None:
                raise RoomError(
                    "no_plan", "Make the board plan first", "先に台割りを作ってください"
                )
            at = plan.by_match()
            finished: dict[str, Slot] = {}
            running: dict[str, Slot] = {}
            for mid, state in live.live.items():
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
            for mid in live.event.results:
                if mid not in finished and mid in at:
                    s = at[mid]
                    finished[mid] = Slot(min(s.start_s, now_s), s.board, mid, min(s.end_s, now_s))
            try:
                new = await live.runner.simulate(
                    live.event.replan,
                    now_s,
                    finished=finished,
                    running=running,
                    out_of_service=out_of_service,
                )
            except TournamentError as err:
                raise refusal(err) from err
            await live._structural(
                who,
                "replan",
                "boards",
                {
                    "now_s": now_s,
                    "out_of_service": sorted(out_of_service),
                    "matches": len(new.slots),
                },
            )
