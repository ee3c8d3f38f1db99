"""Who is at the table: for every seat of a room, whether a client holding it is connected, and
since when (online since, or disconnected since).

Presence describes connections, not the game: it is neither stored with the games nor numbered;
the room sends it to everyone when it changes (a ``presence`` message) and in every snapshot. The
owner of a room counts every client of the room: its own connections, and the clients other
server processes serve through a relay (:class:`Relayed`, registered with the owner when they say
hello and removed when they leave or when their process stops).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any, NamedTuple

__all__ = ["Presence", "Relayed"]


class Relayed(NamedTuple):
    """A client another server process (``node``) serves, by that process's number for it."""

    node: str
    client: int


class Presence:
    """Connected clients and the seats each holds. ``clock`` gives the current time (UTC,
    injectable for tests)."""

    def __init__(self, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._clock = clock
        self._clients: dict[object, frozenset[int]] = {}
        self._connections: Counter[int] = Counter()
        self._since: dict[int, datetime] = {}

    def connect(self, client: object, seats: Iterable[int]) -> bool:
        """``client`` connected holding ``seats`` (or, saying hello again, holds them now);
        True if a seat came online or went offline."""
        new = frozenset(seats)
        old = self._clients.get(client, frozenset())
        self._clients[client] = new
        return self._leave(old - new) | self._join(new - old)

    def disconnect(self, client: object) -> bool:
        """``client`` disconnected; True if a seat went offline."""
        return self._leave(self._clients.pop(client, frozenset()))

    def relayed(self) -> list[Relayed]:
        """The connected clients that other processes serve."""
        return [c for c in self._clients if isinstance(c, Relayed)]

    def forget_node(self, node: str) -> bool:
        """Process ``node`` stopped: its clients are gone; True if a seat went offline."""
        changed = False
        for client in [c for c in self.relayed() if c.node == node]:
            changed |= self.disconnect(client)
        return changed

    def _join(self, seats: Iterable[int]) -> bool:
        changed = False
        for seat in seats:
            if self._connections[seat] == 0:
                self._since[seat] = self._clock()
                changed = True
            self._connections[seat] += 1
        return changed

    def _leave(self, seats: Iterable[int]) -> bool:
        changed = False
        for seat in seats:
            if self._connections[seat] <= 0:
                continue
            self._connections[seat] -= 1
            if self._connections[seat] == 0:
                self._since[seat] = self._clock()
                changed = True
        return changed

    def resume(self, seats: list[dict[str, Any]]) -> None:
        """Start from the presence a previous owner of the room last told (:meth:`view`): a seat
        that was offline stays so since the same time; one that was online went away now (its
        previous owner stopped; its clients' reconnection brings it back)."""
        now = self._clock()
        for entry in seats:
            seat, since = int(entry["seat"]), entry.get("since")
            if seat in self._since or since is None:
                continue
            self._since[seat] = now if entry.get("online") else datetime.fromisoformat(since)

    def seat_taken(self, seat: int) -> None:
        """A seat was just taken: offline until its client connects, since now."""
        self._since.setdefault(seat, self._clock())

    def online(self, seat: int) -> bool:
        """Whether a client holding ``seat`` is connected."""
        return self._connections[seat] > 0

    def view(self, kinds: list[str]) -> list[dict[str, Any]]:
        """Per seat (``kinds``: "human", "computer" or "open" by seat): ``online`` and ``since``
        (ISO 8601, UTC; ``None`` for an open seat, a computer, or a seat nobody connected to
        since the room was last loaded)."""
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
