"""The numbered update an event's spectators get after a change of its matches: the matches
changed, the tables of their pools, the knockout matches whose entrants changed, the
divisions' places, the board tiles and (for the director's console) the entries changed. The
feed sends it whole to the console and as what changed to the spectators' pages
(:mod:`.feed_public`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from hikone_carrom.server.tournaments.views import board_tiles, entry_row, match_view, pool_view
from hikone_carrom.tournament import Tournament

if TYPE_CHECKING:
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = ["KnockoutSides", "knockout_sides", "updates"]

KnockoutSides = dict[str, tuple[str | None, str | None]]
"""The entrants of a division's knockout matches, by match id."""


def knockout_sides(event: Tournament, division: str) -> KnockoutSides:
    """Who is in each knockout match of ``division`` now."""
    return {m.id: m.sides for m in event.matches(division) if m.stage == "knockout"}


def updates(
    live: LiveTournament,
    match_ids: Iterable[str],
    before: KnockoutSides | None = None,
    entries: Iterable[str] = (),
) -> dict[str, Any]:
    """Changed matches, with the tables of their pools, the knockout matches whose entrants
    changed since ``before`` (the division's knockout sides before the change), the
    division's places and the rows of the changed ``entries`` (as :func:`~.views.event_view`
    lists them)."""
    event = live.event
    ids = set(match_ids)
    pools: set[tuple[str, int]] = set()
    divisions: set[str] = set()
    for mid in ids:
        m = event.match(mid)
        divisions.add(m.division)
        if m.pool is not None:
            pools.add((m.division, m.pool))
    if before is not None:
        for division in divisions:
            after = knockout_sides(event, division)
            ids |= {mid for mid, sides in after.items() if before.get(mid) != sides}
    plan = event.plan
    boards: set[int] = set()
    for mid in ids:
        state = live.live.get(mid)
        slot = plan.slot(mid) if plan else None
        boards |= {b for b in (state and state.board, slot and slot.board) if b}
    tiles = board_tiles(live, boards)
    shown = ids | {m for _, a, b in tiles for m in (a, b) if m}
    update = {
        "type": "update",
        "matches": [match_view(live, event.match(i)) for i in sorted(shown)],
        "pools": [pool_view(live, event.pool(d, n)) for d, n in sorted(pools)],
        "places": {d: _places(event, d) for d in sorted(divisions)},
        "tiles": [list(t) for t in tiles],
    }
    rows = [entry_row(event.entry(e)) for e in dict.fromkeys(entries)]
    if rows:
        update["entries"] = rows
    return update


def _places(event: Tournament, division: str) -> dict[str, list[str]]:
    return {str(k): v for k, v in event.final_places(division).items()}
