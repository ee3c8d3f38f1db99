"""What a shot produced: events, disk states, the striker's first contact and fate, tracks."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from hikone_carrom.board import Side

__all__ = [
    "DiskState",
    "Event",
    "EventKind",
    "FirstContact",
    "StrikerFate",
    "Track",
    "TrackSegment",
]


class EventKind(StrEnum):
    """Kinds of logged event."""

    DISK_DISK = "disk_disk"
    DISK_RAIL = "disk_rail"
    POCKETED = "pocketed"
    STOPPED = "stopped"
    DROPPED = "dropped"
    FLEW_OFF = "flew_off"
    CARRIED = "carried"
    """A stacked disk's motion changed through friction with the disk under it (it started to
    ride along, caught up with it, slipped), or a support's motion changed with its load."""
    TIPPED = "tipped"
    """A stacked disk no longer held up by the disks under it (its centre past the hull of their
    contacts, R6e) starts to slide off their edge; it drops where it stops, clear of them."""


class StrikerFate(StrEnum):
    """Where the striker ended (R5a striker pocketed, R5c striker off the board)."""

    ON_BOARD = "on_board"
    POCKETED = "pocketed"
    FLEW_OFF = "flew_off"


@dataclass(frozen=True)
class DiskState:
    """A disk's centre (m), velocity (m/s), layer and spin (rad/s, counter-clockwise seen from
    above) at some moment."""

    id: str
    x: float
    y: float
    vx: float
    vy: float
    layer: int
    spin: float = 0.0


@dataclass(frozen=True)
class Event:
    """One event of a shot at ``time`` s with the states of ``ids`` just after it.

    ``side``: the rail of a disk_rail or flew_off event. ``pocket``: the pocket index of a
    pocketed event (see BoardSpec.pocket_centres). ``dropped`` events give the new layer in
    their state.
    """

    time: float
    kind: EventKind
    ids: tuple[str, ...]
    states: tuple[DiskState, ...]
    side: Side | None = None
    pocket: int | None = None


@dataclass(frozen=True)
class FirstContact:
    """The striker's first disk contact (None if it touched none) at ``time`` s (inf if none),
    and the rails (by side) it touched before it, in order (R4b banks; the first 16 are kept)."""

    disk_id: str | None
    time: float
    rails_before: tuple[Side, ...]


@dataclass(frozen=True)
class TrackSegment:
    """From ``t_start`` s the disk starts at (x, y) m with velocity (vx, vy) m/s on ``layer``.

    Straight (``curved`` False): it decelerates at ``decel`` m/s^2 against its velocity until it
    stops (or the next segment starts). Curved (a disk sliding on a moving support): it moves at
    the constant acceleration (ax, ay) m/s^2 until the next segment starts. ``spin`` in rad/s.
    """

    t_start: float
    x: float
    y: float
    vx: float
    vy: float
    layer: int
    decel: float = 0.0
    ax: float = 0.0
    ay: float = 0.0
    curved: bool = False
    spin: float = 0.0

    @property
    def acceleration(self) -> tuple[float, float]:
        """(ax, ay) m/s^2 while the disk moves in this segment."""
        if self.curved:
            return self.ax, self.ay
        sp = math.hypot(self.vx, self.vy)
        if sp == 0.0:
            return 0.0, 0.0
        return -self.decel * self.vx / sp, -self.decel * self.vy / sp

    @property
    def stop_time(self) -> float:
        """Time (s) at which a straight segment comes to rest (inf for a curved one: it ends
        with the next segment)."""
        if self.curved:
            return math.inf
        sp = math.hypot(self.vx, self.vy)
        if sp == 0.0:
            return self.t_start
        return self.t_start + sp / self.decel if self.decel > 0.0 else math.inf


@dataclass(frozen=True)
class Track:
    """A disk's whole motion: its segments, and when/how it left the board (None if it stayed).

    ``end_kind`` is pocketed or flew_off, ``end_time`` in s.
    """

    id: str
    radius: float
    segments: tuple[TrackSegment, ...]
    end_time: float | None
    end_kind: EventKind | None
