"""Exact event-driven physics of sliding disks on the Hikone board (knows no rules).

Model (SI units; figures in :class:`hikone_carrom.board.BoardSpec`):

- Between events every disk slides on a straight line, decelerating at mu*g against its velocity
  until it stops. No spin is modelled.
- Disk-disk impacts: impulse along the line of centres with restitution ``restitution_disk``, no
  tangential friction. A pair meeting slower than 0.1 mm/s while friction presses it together
  (inelastic collapse) moves on as one body (common centre-of-mass velocity).
- Rails: the lines |x|, |y| = half_width - radius for the centre; the normal velocity reverses
  times ``restitution_rail``, the tangential one is kept. Corner double hits are two events.
- Pockets: a disk on layer 0 falls when its centre is over a corner quarter-circle hole.
- Stacks (R6e): a disk on layer k >= 1 rests on the disks of layer k-1 under its footprint and
  never moves with them (no coupling). Only disks of one layer collide. When the last support's
  footprint slides off (centre distance reaches the sum of radii, a quadratic root) the disk drops,
  at rest and where it stands, to the highest layer that supports it (``dropped``); the disks it
  held are checked in turn. A disk dropping to layer 0 over a hole falls in.
- Flying off (R5c/R5d/R6c): at a rail impact with normal speed v above ``fly_off_speed`` the disk
  leaves the board with probability ``fly_off_max_probability`` * min(1, (v - fly_off_speed) /
  (fly_off_full_speed - fly_off_speed)); the draw is splitmix64(seed, event counter), so it is the
  same with and without the JIT. ``fly_off=False`` switches it off.
- Contact tolerance 1e-10 m: touching-and-closing is an impact at once, touching-and-separating
  none. Simultaneous events run in a fixed order (own events by disk, then pairs, by sorted id).
- Event guard: after ``max_events`` handled events every moving disk stops where it stands and
  ``ShotResult.truncated`` is set (no exception, so batches never fail half-way).
"""

from hikone_carrom.physics.batch import BatchResult, shots_from_angles, simulate_batch
from hikone_carrom.physics.boards import ABSENT, BoardSet, simulate_boards
from hikone_carrom.physics.disk import Disk, opening_disks, resting_layer
from hikone_carrom.physics.errors import InvalidLayoutError, InvalidShotError, PhysicsError
from hikone_carrom.physics.events import (
    DiskState,
    Event,
    EventKind,
    FirstContact,
    StrikerFate,
    Track,
    TrackSegment,
)
from hikone_carrom.physics.result import Pocketed, ShotResult
from hikone_carrom.physics.simulate import DEFAULT_MAX_EVENTS, simulate

__all__ = [
    "ABSENT",
    "DEFAULT_MAX_EVENTS",
    "BatchResult",
    "BoardSet",
    "Disk",
    "DiskState",
    "Event",
    "EventKind",
    "FirstContact",
    "InvalidLayoutError",
    "InvalidShotError",
    "PhysicsError",
    "Pocketed",
    "ShotResult",
    "StrikerFate",
    "Track",
    "TrackSegment",
    "opening_disks",
    "resting_layer",
    "shots_from_angles",
    "simulate",
    "simulate_batch",
    "simulate_boards",
]
