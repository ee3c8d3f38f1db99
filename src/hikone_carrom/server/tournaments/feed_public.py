"""What every spectator's page holds of an event, and the compact update that brings a page up to
date after a change.

Every page holds the matches of the board tiles and of the newest calls (its snapshot has them,
and each update sends those that come into view). A changed match every page holds is sent as
its changed fields only (``patches``: ``{"id": ..., field: value}``, a field that became empty as
``null``); any other changed match whole, without its empty fields (``matches``). Tiles and
divisions' places are sent when they change. A page applies them to what it holds
(``web/js/tourney-deltas.js``) and ignores a patch of a match it does not hold. A page showing
a division's pools is sent the tables of that division that changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hikone_carrom.server.tournaments.views import board_tiles, compact, match_view

if TYPE_CHECKING:
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = ["PublicState", "patch", "trimmed_view"]

DIRECTOR_ONLY = ("entries", "audit")
"""Keys of an update that only the director's console is sent."""


def patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The fields of compact match view ``new`` that differ from ``old`` (None: gone)."""
    out: dict[str, Any] = {"id": new["id"]}
    out |= {k: v for k, v in new.items() if old.get(k) != v}
    out |= {k: None for k in old if k not in new}
    return out


def trimmed_view(view: dict[str, Any]) -> dict[str, Any]:
    """A page's first view (:func:`~.views.public_view`) for a page that shows no board: the
    matches of the calls only (the call banner), not those of the board tiles (the tiles stay:
    its updates keep them). Patches of matches it does not hold it ignores; when it turns to the
    boards it watches ``all`` and asks for a whole snapshot."""
    called = {c["match"] for c in view["calls"]}
    return {**view, "matches": [m for m in view["matches"] if m["id"] in called]}


class PublicState:
    """The tiles, places and compact views of the matches every page of ``live`` holds, as of
    the last update sent (rebuilt after a change of structure, whose pages reload)."""

    def __init__(self, live: LiveTournament) -> None:
        self.live = live
        self._held: dict[str, dict[str, Any]] | None = None
        self._tiles: dict[int, list[Any]] = {}
        self._places: dict[str, Any] = {}
        self._pools: dict[tuple[str, int], dict[str, Any]] = {}
        self._called: set[str] = set()
        self.newly_called: list[dict[str, Any]] = []
        """The matches the last update called that it sent as patches (or not at all): a page
        with a trimmed snapshot does not hold them, so its update has them whole."""

    def reset(self) -> None:
        """Forget what pages hold (they take a new snapshot)."""
        self._held = None
        self._tiles = {}
        self._places = {}
        self._pools = {}
        self._called = set()
        self.newly_called = []

    def pools(self, tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The pool tables of an update that changed since they were last sent (a page showing
        a division's pools holds them all as they were last sent)."""
        changed = [p for p in tables if self._pools.get((p["division"], p["number"])) != p]
        self._pools.update(((p["division"], p["number"]), p) for p in changed)
        return changed

    def update(self, whole: dict[str, Any]) -> dict[str, Any]:
        """The spectators' form of the numbered update ``whole`` (made after the change, with the
        director's views), without pool tables (the feed adds a division's to the pages that
        show it)."""
        views = [compact(m) for m in whole.get("matches", ())]
        out: dict[str, Any] = {
            k: v for k, v in whole.items() if k not in (*DIRECTOR_ONLY, "matches", "pools")
        }
        if self._held is None:
            out["matches"] = views
            self._rebuild()
            return _without_empty(out)
        held = self._held
        full = [v for v in views if v["id"] not in held]
        out["patches"] = [patch(held[v["id"]], v) for v in views if held.get(v["id"], v) != v]
        out["tiles"] = [t for t in whole.get("tiles", ()) if self._tiles.get(t[0]) != t]
        places = whole.get("places", {})
        out["places"] = {d: p for d, p in places.items() if self._places.get(d) != p}
        self._tiles.update((t[0], t) for t in whole.get("tiles", ()))
        self._places.update(places)
        shown = self._shown()
        sent = {v["id"] for v in views}
        event = self.live.event
        # a match that comes into view without being in the update is sent whole too
        full += [compact(match_view(self.live, event.match(m))) for m in sorted(shown - sent)
                 if m not in held]  # fmt: skip
        out["matches"] = full
        for v in [*views, *full]:
            if v["id"] in shown:
                held[v["id"]] = v
        for m in set(held) - shown:
            del held[m]
        called = {c["match"] for c in self.live.calls}
        whole_ids = {v["id"] for v in full}
        self.newly_called = [held[m] for m in sorted(called - self._called - whole_ids)]
        self._called = called
        return _without_empty(out)

    def trimmed(self, update: dict[str, Any]) -> dict[str, Any]:
        """The form of spectators' update ``update`` for a page with a trimmed snapshot: the
        matches newly called whole too."""
        if not self.newly_called:
            return update
        return {**update, "matches": [*update.get("matches", ()), *self.newly_called]}

    def _shown(self) -> set[str]:
        tiles = {m for _, now, nxt in self._tiles.values() for m in (now, nxt) if m}
        return tiles | {c["match"] for c in self.live.calls}

    def _rebuild(self) -> None:
        live = self.live
        self._tiles = {t[0]: list(t) for t in board_tiles(live)}
        self._places = {}
        self._held = {
            m: compact(match_view(live, live.event.match(m))) for m in sorted(self._shown())
        }
        self._called = {c["match"] for c in live.calls}
        self.newly_called = []


def _without_empty(update: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in update.items() if v or k in ("seq", "type")}
