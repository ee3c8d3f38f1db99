"""What a shot produced: events, disk states, the striker's first contact and fate, tracks."""

from __future__ import annotations

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


class StrikerFate(StrEnum):
    """Where the striker ended (R5a striker pocketed, R5c striker off the board)."""

    ON_BOARD = "on_board"
    POCKETED = "pocketed"
    FLEW_OFF = "flew_off"


@dataclass(frozen=True)
class DiskState:
    """A disk's centre (m), velocity (m/s) and layer at some moment."""

    id: str
    x: float
    y: float
    vx: float
    vy: float
    layer: int


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
    """From ``t_start`` s the disk starts at (x, y) m with velocity (vx, vy) m/s on ``layer`` and
    decelerates at mu*g against its velocity until it stops (or the next segment starts)."""

    t_start: float
    x: float
    y: float
    vx: float
    vy: float
    layer: int


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
