"""The action of every environment: three numbers in [-1, 1] mapped onto a legal shot (R2a, R2b).

``(place, aim, power)``:

- ``place``: where the striker stands, from -1 at the area line's left end (seen by the shooter,
  facing the board) to +1 at its right end, over the *free* parts of the placement's lane only
  (the area line, or a parallel within the striker's radius when pieces cover all of it: the
  match's :class:`~hikone_carrom.match.Placement`, R2b): the free lengths are laid end to end
  and ``place`` picks a point along them, so every value is a legal placement and the whole
  free lane is reachable. A first shot is from the tee spot (R2a; the free point nearest it
  when a piece covers it), and so is a shot when no free place overlaps the area line (the
  default reading of R2b); both ignore ``place``.
- ``aim``: the direction relative to the shooter's forward direction (straight at the opposite
  rail, perpendicular to its own): ``aim * 180`` degrees, positive to the shooter's left
  (counter-clockwise seen from above): 0 straight ahead, +-0.5 along the area line, +-1 straight
  back at the own rail (every direction: pucks behind the area line are played too).
- ``power``: the speed, linear from :data:`MIN_SPEED` at -1 to the board's fastest flick
  (``BoardSpec.max_speed``, 5 m/s) at +1.

Values outside [-1, 1] are clipped; NaN and infinite values are refused with
:class:`ActionError` before anything changes (:func:`finite_actions`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from hikone_carrom.board import BoardSpec
from hikone_carrom.match import Placement, PlacementKind, Shot
from hikone_carrom.match.hand import FEW, remainder_of_turns

__all__ = [
    "MAX_AIM",
    "MIN_SPEED",
    "ActionError",
    "action_of",
    "finite_actions",
    "forward_angle",
    "meant_of",
    "meant_of_many",
    "shot_of",
]

MIN_SPEED = 0.05
"""Speed of ``power`` = -1, m/s."""
MAX_AIM = math.pi
"""Angle of ``aim`` = +-1 from the forward direction, rad."""
_INSET = 1e-9
"""How far inside a free interval's ends (fraction of the line) a placement stays."""
_JOINT = 1e-12
"""Rounding allowed where two free parts join, as a fraction of the line."""


class ActionError(ValueError):
    """An action that stands for no shot: not three numbers, or NaN or infinite ones."""


def finite_actions(actions: Sequence[float] | np.ndarray, count: int) -> np.ndarray:
    """``actions`` as a (count, 3) float64 array, refused with :class:`ActionError` when it has
    another size or a NaN or infinite value (a NaN would otherwise be clipped to a shot)."""
    try:
        a = np.asarray(actions, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ActionError(f"an action is three numbers (place, aim, power): {exc}") from None
    if a.size != 3 * count:
        raise ActionError(
            f"expected {count} action(s) of three numbers (place, aim, power), got shape {a.shape}"
        )
    a = a.reshape(count, 3)
    bad = ~np.isfinite(a)
    if bad.any():
        row, col = (int(v) for v in np.argwhere(bad)[0])
        name = ("place", "aim", "power")[col]
        where = f"action {row}'s" if count > 1 else "the action's"
        raise ActionError(f"{where} {name} is {a[row, col]}: every value must be a finite number")
    return a


def forward_angle(placement: Placement) -> float:
    """The shooter's forward direction (rad; 0 = +x, counter-clockwise): from the middle of its
    area line towards the jack spot, perpendicular to its rail."""
    (x0, y0), (x1, y1) = placement.line
    return math.atan2(-(y0 + y1), -(x0 + x1))


def _left_first(placement: Placement) -> bool:
    """Does the placement's lane run from the shooter's left end to its right end?"""
    (x0, y0), (x1, y1) = placement.lane
    f = forward_angle(placement)
    return (x1 - x0) * -math.sin(f) + (y1 - y0) * math.cos(f) < 0.0


def _free(placement: Placement) -> list[tuple[float, float]]:
    """The free parts of the lane (fractions from its first end), each kept :data:`_INSET`
    inside its ends."""
    raw = placement.free_intervals()
    free = [(lo + _INSET, hi - _INSET) for lo, hi in raw if hi - lo > 2 * _INSET]
    return free or [(0.5 * (lo + hi), 0.5 * (lo + hi)) for lo, hi in raw[:1]]


class _Lane(NamedTuple):
    """What mapping ``place`` and ``aim`` needs of a placement: :func:`forward_angle`, the free
    parts (:func:`_free`), their total length and :func:`_left_first`; and the same as numbers
    for :func:`meant_of_many`: (forward, form, lo, length, left first, x0, dx, y0, dy), the
    form :data:`_ONE_PART` (a lane of one free part from ``lo``, ``length`` long, from (x0, y0)
    along (dx, dy)), :data:`_POINT` (at (x0, y0)) or :data:`_PARTS` (several free parts)."""

    forward: float
    free: list[tuple[float, float]]
    total: float
    left_first: bool
    row: tuple[float, ...]


_ONE_PART, _POINT, _PARTS = 0.0, 1.0, 2.0


_LANES: dict[int, tuple[Placement, _Lane]] = {}
""":func:`_lane` of recent placements by identity (each kept alive with its entry; environments
meet the same placements again and again)."""
_LANES_KEPT = 10_000


def _lane(placement: Placement) -> _Lane:
    entry = _LANES.get(id(placement))
    if entry is not None and entry[0] is placement:
        return entry[1]
    line = placement.kind is PlacementKind.LINE
    free = _free(placement) if line else []
    forward = forward_angle(placement)
    left_first = line and _left_first(placement)
    (x0, y0), (x1, y1) = placement.lane
    if not line:
        row = (forward, _POINT, 0.0, 0.0, 0.0, placement.point[0], 0.0, placement.point[1], 0.0)
    elif len(free) == 1:
        lo, hi = free[0]
        row = (forward, _ONE_PART, lo, hi - lo, float(left_first), x0, x1 - x0, y0, y1 - y0)
    else:
        row = (forward, _PARTS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    lane = _Lane(forward, free, sum(hi - lo for lo, hi in free), left_first, row)
    if len(_LANES) >= _LANES_KEPT:
        _LANES.clear()
    _LANES[id(placement)] = (placement, lane)
    return lane


def _point_of(placement: Placement, lane: _Lane, place: float) -> tuple[float, float]:
    """The point of the free lane that ``place`` in [-1, 1] stands for (R2b)."""
    if placement.kind is PlacementKind.POINT:
        return placement.point
    free = lane.free
    u = 0.5 * (place + 1.0)  # 0 at the shooter's left end, 1 at the right end
    g = u if lane.left_first else 1.0 - u
    target = g * lane.total
    f = free[-1][1]
    for lo, hi in free:
        if target <= hi - lo + _JOINT:  # a joint between two parts belongs to the first
            f = lo + min(target, hi - lo)
            break
        target -= hi - lo
    (x0, y0), (x1, y1) = placement.lane
    return (x0 + f * (x1 - x0), y0 + f * (y1 - y0))


def shot_of(placement: Placement, action: Sequence[float] | np.ndarray, board: BoardSpec) -> Shot:
    """The legal shot an action stands for (R2a, R2b)."""
    return Shot(*meant_of(placement, action, board))


def meant_of(
    placement: Placement, action: Sequence[float] | np.ndarray, board: BoardSpec
) -> tuple[float, float, float, float]:
    """:func:`shot_of` as plain numbers: (x m, y m, angle rad, speed m/s)."""
    place, aim, power = (min(1.0, max(-1.0, float(v))) for v in finite_actions(action, 1)[0])
    lane = _lane(placement)
    x, y = _point_of(placement, lane, place)
    angle = math.remainder(lane.forward + aim * MAX_AIM, 2.0 * math.pi)
    speed = MIN_SPEED + 0.5 * (power + 1.0) * (board.max_speed - MIN_SPEED)
    return (x, y, angle, speed)


def meant_of_many(
    placements: Sequence[Placement], actions: np.ndarray, board: BoardSpec
) -> np.ndarray:
    """:func:`meant_of` of many placements and actions (M, 3) at once: (M, 4) of (x m, y m,
    angle rad, speed m/s), the same numbers."""
    a = np.clip(finite_actions(actions, len(placements)), -1.0, 1.0)
    if len(a) < FEW:
        few = [meant_of(p, v, board) for p, v in zip(placements, a.tolist(), strict=True)]
        return np.array(few, dtype=np.float64).reshape(-1, 4)
    lanes = [_lane(p) for p in placements]
    numbers = itertools.chain.from_iterable(q.row for q in lanes)
    lane = np.fromiter(numbers, dtype=np.float64, count=9 * len(lanes)).reshape(-1, 9)
    place = a[:, 0]
    # _point_of for a lane of one free part
    u = 0.5 * (place + 1.0)
    g = np.where(lane[:, 4] != 0.0, u, 1.0 - u)
    f = lane[:, 2] + np.minimum(g * lane[:, 3], lane[:, 3])
    meant = np.empty((len(a), 4))
    meant[:, 0] = lane[:, 5] + f * lane[:, 6]
    meant[:, 1] = lane[:, 7] + f * lane[:, 8]
    point = lane[:, 1] == _POINT
    meant[point, 0] = lane[point, 5]
    meant[point, 1] = lane[point, 7]
    for k in np.flatnonzero(lane[:, 1] == _PARTS).tolist():
        meant[k, :2] = _point_of(placements[k], lanes[k], float(place[k]))
    meant[:, 2] = remainder_of_turns(lane[:, 0] + a[:, 1] * MAX_AIM)
    meant[:, 3] = MIN_SPEED + 0.5 * (a[:, 2] + 1.0) * (board.max_speed - MIN_SPEED)
    return meant


def action_of(placement: Placement, shot: Shot, board: BoardSpec) -> np.ndarray:
    """An action standing for ``shot`` (the inverse of :func:`shot_of`; a placement off the
    free line counts as the nearest free point)."""
    place = 0.0
    free = _free(placement) if placement.kind is PlacementKind.LINE else []
    if free:
        (x0, y0), (x1, y1) = placement.lane
        dx, dy = x1 - x0, y1 - y0
        t = ((shot.x - x0) * dx + (shot.y - y0) * dy) / (dx * dx + dy * dy)
        total = sum(hi - lo for lo, hi in free)
        # the part nearest t, and the free length before the point within it
        k = min(range(len(free)), key=lambda j: max(free[j][0] - t, t - free[j][1], 0.0))
        before = sum(hi - lo for lo, hi in free[:k])
        before += min(max(t - free[k][0], 0.0), free[k][1] - free[k][0])
        g = min(before / total, 1.0) if total > 0 else 0.5
        place = 2.0 * (g if _left_first(placement) else 1.0 - g) - 1.0
    aim = math.remainder(shot.angle - forward_angle(placement), 2.0 * math.pi) / MAX_AIM
    power = 2.0 * (shot.speed - MIN_SPEED) / (board.max_speed - MIN_SPEED) - 1.0
    return np.clip(np.array([place, aim, power], dtype=np.float32), -1.0, 1.0)
