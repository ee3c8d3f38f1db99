"""What the tournament pages show: JSON views of an event, and the results CSV.

The director's console takes the whole event (:func:`event_view`). A spectator's page takes
only what it shows: the compact :func:`public_view` (the event's header, every board's current
and next match, the calls) and, on request, one division's pools or bracket
(:func:`division_view`) or one entry's matches (:func:`entry_view`).

Times of the board plan are seconds from local midnight (s); live times are ISO 8601 (UTC).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from hikone_carrom.export_text import csv_text
from hikone_carrom.tournament import BYE, Division, Entry, Fixture, Pool, Standing
from hikone_carrom.tournament.standings import TIEBREAK_NAMES

if TYPE_CHECKING:
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = [
    "board_tiles",
    "clock",
    "compact",
    "division_view",
    "entry_row",
    "entry_view",
    "event_view",
    "match_view",
    "pool_view",
    "public_view",
    "results_csv",
    "search_view",
]


def clock(seconds: int | float) -> str:
    """ "09:30" for 34200 s from midnight."""
    s = int(seconds)
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}"


def _side(live: LiveTournament, side: str | None) -> dict[str, Any] | None:
    if side is None:
        return None
    if side == BYE:
        return {"id": BYE, "name": "不戦"}
    return {"id": side, "name": live.event.entry(side).name}


def match_view(live: LiveTournament, m: Fixture) -> dict[str, Any]:
    """A match: who, what, where and when (planned and live), and its result."""
    slot = live.event.plan.slot(m.id) if live.event.plan else None
    state = live.live.get(m.id)
    result = live.event.results.get(m.id)
    division = live.event.division(m.division)
    return {
        "id": m.id,
        "division": m.division,
        "stage": m.stage,
        "pool": m.pool,
        "round": m.round,
        "final": m.final,
        "name": {"ja": m.name_ja, "en": m.name_en},
        "sides": [_side(live, s) for s in m.sides],
        "planned": None
        if slot is None
        else {
            "board": slot.board,
            "start": clock(slot.start_s),
            "start_s": slot.start_s,
            "end_s": slot.end_s,
        },
        "status": "finished"
        if result is not None
        else ("forfeit" if live.event.forfeited(m) else (state.status if state else "planned")),
        "board": state.board if state and state.board else (slot.board if slot else None),
        "called_at": None if not state or not state.called_at else state.called_at.isoformat(),
        "started_at": None if not state or not state.started_at else state.started_at.isoformat(),
        "match_time_s": None if m.final and division.final_untimed else division.match_time_s,
        "result": None if result is None else result.to_dict(),
        "source": state.source if state else None,
        "room": None
        if not state or state.room is None
        else {"id": state.room, "record": f"/api/games/{state.room}-1/record"},
        "pad": None
        if not state or state.pad_board is None
        else {
            "board": state.pad_board,
            "match": state.pad_match,
            "record": f"/api/boards/{state.pad_board}/matches/{state.pad_match}/record",
            "sheet": f"/api/boards/{state.pad_board}/matches/{state.pad_match}/sheet.pdf",
        },
    }


CONSOLE_ONLY = ("pad", "source")
"""Fields of a match view only the director's console shows (the pad's links, where the result
came from)."""


def compact(match: dict[str, Any]) -> dict[str, Any]:
    """A match view without its empty fields and those only the console shows (what a
    spectator's page is sent)."""
    return {k: v for k, v in match.items() if v is not None and k not in CONSOLE_ONLY}


def _standing(live: LiveTournament, s: Standing) -> dict[str, Any]:
    return {
        "entry": s.entry,
        "name": live.event.entry(s.entry).name,
        "place": s.place,
        "played": s.played,
        "won": s.won,
        "drawn": s.drawn,
        "lost": s.lost,
        "points": s.match_points,
        "scored": s.scored,
        "conceded": s.conceded,
        "difference": s.difference,
        "pucks": s.pucks,
        "withdrawn": s.withdrawn,
        "decided_by": None
        if s.decided_by is None
        else {
            "key": s.decided_by,
            "en": TIEBREAK_NAMES[s.decided_by][0],
            "ja": TIEBREAK_NAMES[s.decided_by][1],
        },
    }


def pool_view(live: LiveTournament, pool: Pool) -> dict[str, Any]:
    """A pool: its entries, its table, whether it is complete and closed."""
    event = live.event
    return {
        "division": pool.division,
        "number": pool.number,
        "label": pool.label,
        "entries": list(pool.entries),
        "standings": [_standing(live, s) for s in event.standings(pool.division, pool.number)],
        "complete": event.pool_complete(pool.division, pool.number),
        "closed": (pool.division, pool.number) in event.closed,
    }


def _division(live: LiveTournament, d: Division, *, pools: bool) -> dict[str, Any]:
    event = live.event
    bracket = event.brackets.get(d.id)
    return {
        "id": d.id,
        "name": {"ja": d.name_ja, "en": d.name_en},
        "format": d.format,
        "pool_size": d.pool_size,
        "advance": d.advance,
        "match_time_s": d.match_time_s,
        "third_place": d.third_place,
        "final_untimed": d.final_untimed,
        "drawn": d.id in event.pools,
        "entries": sum(1 for e in event.entries.values() if e.division == d.id),
        "pools": [pool_view(live, p) for p in event.pools.get(d.id, ())] if pools else [],
        "bracket": None
        if bracket is None
        else {
            "rounds": bracket.rounds,
            "lines": [None if p is None else p.label for p in bracket.lines],
        },
        "places": {str(k): v for k, v in event.final_places(d.id).items()},
    }


def _header(live: LiveTournament) -> dict[str, Any]:
    s = live.event.settings
    return {
        "id": live.id,
        "name": s.name,
        "date": s.date,
        "boards": s.boards,
        "start": clock(s.start_s),
        "golden_board": s.golden_board,
        "online": s.online,
        "tiebreaks": [
            {"key": k, "en": TIEBREAK_NAMES[k][0], "ja": TIEBREAK_NAMES[k][1]}
            for k in s.rules.order
        ],
        "points": {"win": s.rules.win, "draw": s.rules.draw, "loss": s.rules.loss},
        "planned": live.event.plan is not None,
    }


def entry_row(e: Entry) -> dict[str, Any]:
    """An entry as the director's console lists it."""
    return {
        "id": e.id,
        "division": e.division,
        "name": e.name,
        "reading": e.reading,
        "club": e.club,
        "status": e.status,
    }


def event_view(live: LiveTournament) -> dict[str, Any]:
    """Everything the director's console shows: every division with its pools, every entry,
    every match."""
    event = live.event
    return {
        **_header(live),
        "divisions": [_division(live, d, pools=True) for d in event.divisions.values()],
        "entries": [entry_row(e) for e in event.entries.values()],
        "matches": [match_view(live, m) for m in event.matches()],
        "calls": live.calls,
    }


def board_tiles(
    live: LiveTournament, boards: Iterable[int] | None = None
) -> list[tuple[int, str | None, str | None]]:
    """(board, current match, next match) of each board (all, or ``boards``): the current one is
    called or being played; the next is the first planned there that is not called, played or
    forfeited."""
    event = live.event
    wanted = set(range(1, event.settings.boards + 1) if boards is None else boards)
    now: dict[int, str] = {}
    for state in live.live.values():
        if state.status in ("called", "playing") and state.board in wanted:
            now[state.board] = state.match_id
    upcoming: dict[int, str] = {}
    if event.plan is not None:
        for slot in event.plan.slots:
            if (
                slot.board in wanted
                and slot.board not in upcoming
                and slot.match not in live.live
                and slot.match not in event.results
            ):
                match = event.match(slot.match)
                if BYE not in match.sides and not event.forfeited(match):
                    upcoming[slot.board] = slot.match
    return [(b, now.get(b), upcoming.get(b)) for b in sorted(wanted)]


def public_view(live: LiveTournament) -> dict[str, Any]:
    """What a spectator's page needs on connecting: the event's header, the divisions without
    their pools, every board's current and next match (``tiles``: [board, current, next]) and
    those matches, the newest calls. Pools, brackets and an entry's matches come on request."""
    event = live.event
    tiles = board_tiles(live)
    shown = {m for _, a, b in tiles for m in (a, b) if m}
    shown |= {c["match"] for c in live.calls}
    return {
        **_header(live),
        "divisions": [_division(live, d, pools=False) for d in event.divisions.values()],
        "entries": [],
        "tiles": [list(t) for t in tiles],
        "matches": [compact(match_view(live, event.match(m))) for m in sorted(shown)],
        "calls": live.calls,
    }


def division_view(live: LiveTournament, division: str, part: str) -> dict[str, Any]:
    """One division for a spectator: ``part`` "pools" (every pool's table) or "bracket" (the
    knockout's matches and places)."""
    event = live.event
    d = event.division(division)
    view = _division(live, d, pools=part == "pools")
    matches = (
        [compact(match_view(live, m)) for m in event.matches(division) if m.stage == "knockout"]
        if part == "bracket"
        else []
    )
    return {"division": view, "part": part, "matches": matches}


def entry_view(live: LiveTournament, entry_id: str) -> dict[str, Any]:
    """One entry and its matches (a player's own page, a name search)."""
    e = live.event.entry(entry_id)
    return {
        "id": e.id,
        "name": e.name,
        "reading": e.reading,
        "club": e.club,
        "division": e.division,
        "status": e.status,
        "matches": [compact(match_view(live, m)) for m in live.event.matches_of(e.id)],
    }


def search_view(live: LiveTournament, query: str) -> dict[str, Any]:
    """ "Where and when is my next match": entries whose name or kana reading has ``query``,
    each with its matches and the next one (called or being played first)."""
    found = []
    for entry in live.event.search(query):
        view = entry_view(live, entry.id)
        rank = {"playing": 0, "called": 1, "planned": 2}
        upcoming = [m for m in view["matches"] if m["status"] in rank]
        upcoming.sort(key=lambda m: rank[m["status"]])
        view["next"] = upcoming[0] if upcoming else None
        found.append(view)
    return {"query": query, "entries": found}


def results_csv(live: LiveTournament) -> str:
    """Every match with its result, one row each (UTF-8 with BOM so spreadsheets read it;
    formulas neutralised)."""
    rows: list[list[object]] = [
        ["試合ID match", "部門 division", "段階 stage", "試合 match", "台 board", "開始 start",
         "サイド1 side 1", "サイド2 side 2", "得点1 score 1", "得点2 score 2",
         "パック1 pucks 1", "パック2 pucks 2", "勝者 winner", "不戦 forfeit", "入力 source",
         "記録 record"]
    ]  # fmt: skip
    event = live.event
    for m in event.matches():
        view = match_view(live, m)
        result = event.results.get(m.id)
        a, b = event.side_names(m, "ja")
        planned = view["planned"]
        winner = "" if result is None or result.winner is None else (a, b)[result.winner]
        rows.append(
            [
                m.id,
                event.division(m.division).name_ja,
                "予選" if m.stage == "pool" else "決勝T",
                m.name_ja,
                view["board"] or "",
                planned["start"] if planned else "",
                a,
                b,
                *(result.scores if result else ("", "")),
                *(result.pucks if result else ("", "")),
                winner if result else ("不戦" if view["status"] == "forfeit" else ""),
                "" if result is None or result.forfeit is None else (a, b)[result.forfeit],
                view["source"] or "",
                view["pad"]["record"]
                if view["pad"] and view["source"] == "pad"
                else (
                    view["room"]["record"] if view["room"] and view["source"] == "online" else ""
                ),
            ]
        )
    return "\ufeff" + csv_text(rows)
