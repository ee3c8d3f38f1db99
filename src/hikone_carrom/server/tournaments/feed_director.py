"""The director's console after a change of the event's structure (entries imported, added or
corrected, a draw, a plan, the ranking rules): the parts of its whole view that changed, not the
whole event again.

The view as the console last had it is kept part by part (the header, each division with its
pools, each entry, each match, the order of the matches, the calls) as JSON text; a change of
structure builds the whole view once, compares it part by part and sends the parts that differ,
with the parts that numbered updates changed since (they may have changed back).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hikone_carrom.server.core.wire import dumps
from hikone_carrom.server.tournaments.views import event_view

if TYPE_CHECKING:
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = ["DirectorView"]

COLLECTIONS = ("divisions", "entries", "matches", "calls")
"""The parts of the whole view that are not its header."""


@dataclass
class _Parts:
    header: dict[str, str]
    divisions: dict[str, str]
    entries: dict[str, str]
    matches: dict[str, str]
    order: list[str]
    calls: str

    @classmethod
    def of(cls, view: dict[str, Any]) -> _Parts:
        return cls(
            header={k: dumps(v) for k, v in view.items() if k not in COLLECTIONS},
            divisions={d["id"]: dumps(d) for d in view["divisions"]},
            entries={e["id"]: dumps(e) for e in view["entries"]},
            matches={m["id"]: dumps(m) for m in view["matches"]},
            order=[m["id"] for m in view["matches"]],
            calls=dumps(view["calls"]),
        )


@dataclass
class _Touched:
    """What numbered updates changed since the last whole view."""

    divisions: set[str] = field(default_factory=set)
    entries: set[str] = field(default_factory=set)
    matches: set[str] = field(default_factory=set)
    calls: bool = False


class DirectorView:
    """The whole view of ``live`` as its directors' consoles last had it, by part."""

    def __init__(self, live: LiveTournament) -> None:
        self.live = live
        self._parts: _Parts | None = None
        self._touched = _Touched()

    def taken(self, view: dict[str, Any]) -> None:
        """A console took ``view`` whole (its snapshot): compare the next change with it."""
        self._parts = _Parts.of(view)
        self._touched = _Touched()

    def forget(self) -> None:
        """No console is connected: keep nothing."""
        self._parts = None
        self._touched = _Touched()

    def touched(self, update: dict[str, Any]) -> None:
        """A numbered update (the console's whole form) was sent."""
        if self._parts is None:
            return
        t = self._touched
        t.matches |= {m["id"] for m in update.get("matches", ())}
        t.entries |= {e["id"] for e in update.get("entries", ())}
        t.divisions |= {p["division"] for p in update.get("pools", ())}
        t.divisions |= set(update.get("places", {}))
        t.calls |= "call" in update

    def changes(self) -> dict[str, Any] | None:
        """The update that brings a console from the view it last had to the event now (its
        header fields, divisions, entries and matches that changed, the matches gone, the new
        order of the matches when it changed, the calls), or None if no console took one."""
        old, t = self._parts, self._touched
        view = event_view(self.live)
        new = _Parts.of(view)
        self._parts, self._touched = new, _Touched()
        if old is None:
            return None
        out: dict[str, Any] = {"type": "update"}
        header = {k: view[k] for k, v in new.header.items() if old.header.get(k) != v}
        if header:
            out["header"] = header
        for name in ("divisions", "entries", "matches"):
            was: dict[str, str] = getattr(old, name)
            now: dict[str, str] = getattr(new, name)
            again: set[str] = getattr(t, name)
            changed = [
                item
                for item in view[name]
                if item["id"] in again or was.get(item["id"]) != now[item["id"]]
            ]
            if changed:
                out[name] = changed
        removed = sorted(set(old.matches) - set(new.matches))
        if removed:
            out["removed"] = removed
        kept = [m for m in old.order if m in new.matches]
        if new.order != kept + [m for m in new.order if m not in old.matches]:
            out["order"] = new.order  # a console appends new matches: here they go elsewhere
        if t.calls or old.calls != new.calls:
            out["calls"] = view["calls"]
        return out
