"""Exact event-driven physics of sliding disks on the Hikone board (knows no rules).

Model (docs/physics.md; SI units; figures in :class:`hikone_carrom.board.BoardSpec`):

- Between events every disk moves by a closed-form law: on the board it slides straight,
  decelerating at mu*g (more while it carries a pile whose top slides on it); a disk sliding on a
  moving support moves at a constant acceleration. Spin decays linearly and acts only through
  the friction of impacts.
- Disk-disk impacts: an impulse along the line of centres with ``restitution_disk`` and a
  tangential friction impulse of at most ``disk_friction`` times it (the throw of a cut; spins
  change). A pair meeting slower than 0.1 mm/s while friction presses it together moves on as
  one body, unless its disks slide past each other fast enough to part by themselves.
- Rails: the lines |x|, |y| = half_width - radius for the centre; the normal velocity reverses
  times ``restitution_rail``, the tangential one loses at most ``rail_friction`` times the normal
  impulse. Corner double hits are two events.
- Pockets: a disk on layer 0 falls when its centre is over a corner quarter-circle hole.
- Stacks (R6e): a disk on layer k >= 1 rests on the disks of layer k-1 under its footprint. One
  whose centre is over a support rides on it by friction (``stack_friction``), leaves it when
  its centre reaches the support's rim, and drops where it stands when the support has slid
  from under it. One whose centre has left the hull of its supports' contacts slides off their
  edge (``tipped``) and drops where it stops, clear of them: no disk ever jumps. Only disks of
  one layer collide. ``stack_friction = 0``: stacked disks never move with their support.
- Flying off (R5c/R5d/R6c): at a rail impact with normal speed v above ``fly_off_speed`` the disk
  leaves the board with probability ``fly_off_max_probability`` * min(1, (v - fly_off_speed) /
  (fly_off_full_speed - fly_off_speed)); the draw is splitmix64(seed, event counter), so it is the
  same with and without the JIT. ``fly_off=False`` switches it off.
- Contact tolerance 1e-10 m: touching-and-closing is an impact at once, touching-and-separating
  none. Simultaneous events run in a fixed order (own events by disk, then pairs, by sorted id).
- Event guard: after ``max_events`` handled events every moving disk stops where it stands and
  ``ShotResult.truncated`` is set (no exception, so batches never fail half-way).
- ``BoardSpec.legacy()`` gives the physics of record format 1 (no friction models) bit for bit.
"""

from hikone_carrom.physics.batch import BatchResult, batch_seeds, shots_from_angles, simulate_batch
from hikone_carrom.physics.boards import ABSENT, BoardSet, simulate_boards
from hikone_carrom.physics.disk import Disk, opening_disks, resting_layer, resting_layer_of
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
    "batch_seeds",
    "opening_disks",
    "resting_layer",
    "resting_layer_of",
    "shots_from_angles",
    "simulate",
    "simulate_batch",
    "simulate_boards",
]
