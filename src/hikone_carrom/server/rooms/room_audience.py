"""Who is at a room: the clients it serves (``subscribers``), who else other processes serve
for it, which seats are online (presence), and the unnumbered messages they all get."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from hikone_carrom.server.core import wire
from hikone_carrom.server.core.errors import CloseCode
from hikone_carrom.server.rooms.presence import Presence
from hikone_carrom.server.rooms.room_config import RoomSubscriber

if TYPE_CHECKING:
    from hikone_carrom.server.rooms.room import Room

__all__ = ["RoomAudience"]


class RoomAudience:
    """The clients of ``room`` and the presence of its seats. ``told`` counts the unnumbered
    messages sent so far (other processes relay each exactly once, and only to clients whose
    snapshot is older)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.subscribers: set[RoomSubscriber] = set()
        self.presence = Presence()
        self.told = 0

    def join(self, sub: RoomSubscriber, seats: frozenset[int]) -> None:
        """Say hello for ``sub`` holding ``seats``: a snapshot, then every event of the room;
        the others learn that its seats are online."""
        sub.seats = seats
        changed = self.presence.connect(sub, seats)
        sub.send(wire.dumps(self.room.snapshot(seats)))
        if changed:
            self.tell_presence()
        self.attach(sub)

    def connect(self, client: object, seats: frozenset[int]) -> None:
        """``client`` holds ``seats`` now; everyone is told if a seat came online."""
        if self.presence.connect(client, seats):
            self.tell_presence()

    def disconnect(self, client: object) -> None:
        """``client`` left; everyone is told if it was the last holding a seat."""
        if self.presence.disconnect(client):
            self.tell_presence()
        self.room.last_active = time.monotonic()

    def forget_nodes(self, nodes: set[str]) -> None:
        """These processes stopped: the seats only their clients held go offline now."""
        changed = False
        for node in nodes:
            changed |= self.presence.forget_node(node)
        if changed:
            self.tell_presence()

    def attach(self, sub: RoomSubscriber) -> None:
        """From now on ``sub`` gets every event of the room."""
        self.subscribers.add(sub)
        self.room.last_active = time.monotonic()

    def detach(self, sub: RoomSubscriber) -> None:
        """``sub`` gets no more events; if it was the last client holding a seat, everyone is
        told."""
        if sub in self.subscribers:
            self.subscribers.discard(sub)
            if self.presence.disconnect(sub):
                self.tell_presence()
        self.room.last_active = time.monotonic()

    def drop_everyone(self) -> None:
        """Disconnect every client (another process serves the room now): they reconnect."""
        for sub in list(self.subscribers):
            sub.drop(CloseCode.ROOM_MOVED)

    def send(self, text: str) -> None:
        """Queue ``text`` for every client served here."""
        for sub in list(self.subscribers):
            sub.send(text)

    def broadcast(self, message: dict[str, Any]) -> None:
        """Send one unnumbered message to every client, here and through the other processes
        relaying the room."""
        text = wire.dumps(message)
        self.send(text)
        self.told += 1
        tell = self.room.services.tell
        if tell is not None:
            tell(self.room.config.id, self.told, text)

    def view(self) -> list[dict[str, Any]]:
        """Per seat: a client holding it is connected (``online``), since when (``since``)."""
        return self.presence.view([s.kind for s in self.room.seats])

    def watched(self) -> bool:
        """True while any client watches the room, here or through another process."""
        return bool(self.subscribers or self.presence.relayed())

    def tell_presence(self) -> None:
        """Send the presence of every seat to the clients of an online room, here and through
        the other processes, and keep it for a next owner (on one device and against the
        computer nobody else is at the table)."""
        room = self.room
        if room.config.mode == "online":
            seats = self.view()
            if room.services.keep is not None:  # kept before other processes are told
                room.services.keep(room.config.id, wire.dumps(seats))
            self.broadcast({"type": "presence", "seats": seats})
