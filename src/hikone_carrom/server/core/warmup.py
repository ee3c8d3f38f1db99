"""Readying a server process before it takes players: the physics engine loaded, and the garbage
collector kept away from what lives as long as the process and from the large messages it
builds and drops.

A full collection of Python's cyclic garbage collector looks at every object the process holds
and holds every thread meanwhile: with the libraries a server loads (several hundred thousand
objects) that is a pause of a large fraction of a second for every room at once. Moving what
exists after start-up out of its sight (:func:`gc.freeze`) leaves it only the rooms' own objects
to look at. A shot's event is a tree of about 1,500 dicts and lists, built, encoded and dropped
within a millisecond (a client parses one as large from every event): with Python's default
threshold a young collection catches it half-built and moves it into the older generations,
whose collections then come several times a minute; with a higher threshold reference counting
frees it first. Cyclic garbage is still collected.
"""

from __future__ import annotations

import gc
import math

from hikone_carrom.board import BoardSpec
from hikone_carrom.match import Match, Shot
from hikone_carrom.rules import RuleOptions

__all__ = ["YOUNG_THRESHOLD", "quiet_collector", "warm_up"]

YOUNG_THRESHOLD = 10_000
"""Allocations (net of frees) between two collections of the youngest generation (Python's
default is 700)."""


def warm_up(board: BoardSpec) -> None:
    """Simulate one shot (the engine loads its compiled code now, not on a player's first shot),
    then freeze every object made so far out of the collector's sight."""
    match = Match(2, RuleOptions(), board, seed=0)
    x, y = match.legal_placement().nearest(0.0, 0.0)
    match.play(Shot(x, y, math.atan2(-y, -x), 2.0))
    quiet_collector()


def quiet_collector() -> None:
    """Freeze every object made so far out of the collector's sight and make young collections
    come after :data:`YOUNG_THRESHOLD` new containers (a server, the load's client processes)."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
