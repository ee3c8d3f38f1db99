"""Who is at the table: for every seat of a room, whether a client holding it is connected, and
since when (online since, or disconnected since).

Presence lives in memory only: it describes connections, not the game, so it is neither stored
nor numbered; the room sends it to everyone when it changes (a ``presence`` message) and in
every snapshot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

__all__ = ["Presence"]


class Presence:
    """Connections per seat. ``clock`` gives the current time (UTC, injectable for tests)."""

    def __init__(self, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._clock = clock
        self._connections: Counter[int] = Counter()
        self._since: dict[int, datetime] = {}

    def join(self, seats: Iterable[int]) -> bool:
        """A client holding ``seats`` connected; True if a seat came online."""
        changed = False
        for seat in seats:
            if self._connections[seat] == 0:
                self._since[seat] = self._clock()
                changed = True
            self._connections[seat] += 1
        return changed

    def leave(self, seats: Iterable[int]) -> bool:
        """A client holding ``seats`` disconnected; True if a seat went offline."""
        changed = False
        for seat in seats:
            if self._connections[seat] <= 0:
                continue
            self._connections[seat] -= 1
            if self._connections[seat] == 0:
                self._since[seat] = self._clock()
                changed = True
        return changed

    def seat_taken(self, seat: int) -> None:
        """A seat was just taken: offline until its client connects, since now."""
        self._since.setdefault(seat, self._clock())

    def online(self, seat: int) -> bool:
        """Whether a client holding ``seat`` is connected."""
        return self._connections[seat] > 0

    def view(self, kinds: list[str]) -> list[dict[str, Any]]:
        """Per seat (``kinds``: "human", "computer" or "open" by seat): ``online`` and ``since``
        (ISO 8601, UTC; ``None`` for an open seat, a computer, or a seat nobody connected to
        since the server started)."""
        out = []
        for seat, kind in enumerate(kinds):
            since = self._since.get(seat)
            out.append(
                {
                    "seat": seat,
                    "online": kind == "computer" or (kind == "human" and self.online(seat)),
                    "since": None if kind != "human" or since is None else since.isoformat(),
                }
            )
        return out
