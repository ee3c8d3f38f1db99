"""A board's history in :class:`~.tables.Tables`: its shots as arrays and its other strokes
(pass, time called, lot), and their replay through :class:`~hikone_carrom.match.Match`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from hikone_carrom.match import Match, Noise, Shot
from hikone_carrom.rules import Color

__all__ = ["CALL_TIME", "PASS", "Entry", "Stroke", "replay"]


class Stroke(NamedTuple):
    """An entry of a board's history other than a shot: a pass (R3d), time called (R7b) or a
    lot decided (R7d, ``winner``)."""

    kind: str
    winner: Color | None = None


PASS = Stroke("pass")
CALL_TIME = Stroke("call_time")

Entry = Stroke | np.ndarray
"""An entry of a board's history: a :class:`Stroke`, or a shot as an (8,) array: (x m, y m,
angle rad, speed m/s) as meant, then the hand's noise (dx m, dy m, dangle rad, speed factor), a
row of its batch's array (no object of its own for the garbage collector to follow)."""


def replay(match: Match, history: Iterable[Entry]) -> Match:
    """Play ``history`` on ``match`` (shots with their noise, passes, time called, lots);
    returns ``match``."""
    for stroke in history:
        if isinstance(stroke, np.ndarray):
            x, y, angle, speed, dx, dy, dangle, factor = stroke.tolist()
            match.play(Shot(x, y, angle, speed), Noise(dx, dy, dangle, factor))
        elif stroke.kind == "pass":
            match.pass_turn()
        elif stroke.kind == "call_time":
            match.call_time()
        else:
            assert stroke.winner is not None
            match.decide_lot(stroke.winner)
    return match
