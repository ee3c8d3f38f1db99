"""Conversion between Disk objects / BoardSpec and the engine's arrays, with input checks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import chain
from operator import attrgetter

import numpy as np

from hikone_carrom.board import BoardSpec
from hikone_carrom.physics import _engine as E
from hikone_carrom.physics.disk import Disk, finite_number
from hikone_carrom.physics.errors import InvalidLayoutError

__all__ = ["board_params", "check_count", "pack", "seed_bits"]

_LAYOUT_ERRORS = {
    5: "disk {a!r}: every number must be finite / {a!r} の数値が有限ではありません",
    6: "disk {a!r}: radius and mass must be > 0 / {a!r} の半径と質量は正の数です",
    7: "disk {a!r}: layer must be an int >= 0 / {a!r} の層は0以上の整数です",
    1: "disk {a!r} lies beyond the rails / 駒 {a!r} が壁の外にあります",
    2: "disks {a!r} and {b!r} overlap on one layer / {a!r} と {b!r} が重なっています",
    3: "disk {a!r} on a layer >= 1 has nothing under it (R6e) / {a!r} の下に支えがありません",
    4: "disk {a!r} on a layer >= 1 cannot move / 重なった {a!r} は動かせません",
}


def _short(value: object) -> str:
    """repr of a value, cut short (a 400-digit int is not worth printing)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@lru_cache(maxsize=64)
def board_params(board: BoardSpec) -> np.ndarray:
    """The engine's parameter vector for ``board`` (one array per board, shared: the engine only
    reads it; not flagged read-only, which would slow numba's dispatch)."""
    p = np.empty(E.N_PARAMS)
    p[E.P_DECEL] = board.friction * board.gravity
    p[E.P_E_DISK] = board.restitution_disk
    p[E.P_E_RAIL] = board.restitution_rail
    p[E.P_HALF] = board.half_width
    p[E.P_POCKET_R] = board.pocket_radius
    p[E.P_FLY_V0] = board.fly_off_speed
    p[E.P_FLY_V1] = board.fly_off_full_speed
    p[E.P_FLY_PMAX] = board.fly_off_max_probability
    p[E.P_STACK] = board.stack_friction * board.gravity
    p[E.P_MU_DISK] = board.disk_friction
    p[E.P_MU_RAIL] = board.rail_friction
    p[E.P_MERGE_ALL] = 1.0 if board.merge_grazing_pairs else 0.0
    return p


def seed_bits(seed: int) -> np.uint64:
    """A seed (any int) as the engine's 64-bit unsigned seed."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise InvalidLayoutError(f"seed must be an int, got {seed!r}")
    return np.uint64(int(seed) % (1 << 64))


def check_count(name: str, value: int, limit: int) -> int:
    """A positive int argument (e.g. max_events) up to ``limit``, or InvalidLayoutError."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise InvalidLayoutError(f"{name} must be a positive int, got {value!r}")
    if value > limit:
        raise InvalidLayoutError(f"{name} must be at most {limit:,}, got {_short(value)}")
    return int(value)


_NUMBERS = frozenset({float, int, np.float64})
_DISK = {Disk}
_STR = {str}
_ID = attrgetter("id")
_ROW = attrgetter("x", "y", "vx", "vy", "radius", "mass", "layer")


def pack(
    disks: Iterable[Disk], board: BoardSpec, params: np.ndarray
) -> tuple[tuple[Disk, ...], np.ndarray, np.ndarray]:
    """Disks sorted by id (the canonical order) and their state arrays S, L; checks the layout.

    The numbers are checked on whole arrays (in the compiled ``unpack``); only a layout whose
    types fail is gone through disk by disk for the sentence that names the fault.
    """
    items = tuple(disks)
    n = len(items)
    try:
        if n and (set(map(type, items)) != _DISK or set(map(type, map(_ID, items))) != _STR):
            raise ValueError
        items = tuple(sorted(items, key=_ID))
        ids = set(map(_ID, items))
        rows = list(map(_ROW, items))
        if len(ids) != n or "" in ids or not _NUMBERS.issuperset(map(type, chain(*rows))):
            raise ValueError
    except (ValueError, TypeError, AttributeError):
        _refuse(items)  # names the fault; a layout of odd but valid types passes on
        items = tuple(sorted(items, key=_ID))
        rows = list(map(_ROW, items))
    try:
        arr = np.array(rows, dtype=float).reshape(n, 7)
    except OverflowError:
        _refuse(items)
        raise
    S, L, code, a, b = E.unpack(arr, params)
    if code:
        ida = items[a].id
        idb = items[b].id if b >= 0 else ""
        raise InvalidLayoutError(_LAYOUT_ERRORS[int(code)].format(a=ida, b=idb))
    return items, S, L


def _refuse(items: Sequence[Disk]) -> None:
    """Raise InvalidLayoutError for the first fault of a layout that failed pack's checks."""
    seen: set[str] = set()
    for d in items:
        if not isinstance(d, Disk):
            raise InvalidLayoutError(f"expected Disk, got {type(d).__name__}")
        if not isinstance(d.id, str) or not d.id:
            raise InvalidLayoutError(f"disk ids must be non-empty strings, got {_short(d.id)}")
        if d.id in seen:
            raise InvalidLayoutError(f"duplicate disk id {d.id!r} / ID {d.id!r} が重複しています")
        seen.add(d.id)
        for name in ("x", "y", "vx", "vy", "radius", "mass"):
            if not finite_number(getattr(d, name)):
                raise InvalidLayoutError(
                    f"disk {d.id!r}: {name} must be a finite number, got {_short(getattr(d, name))}"
                )
        if d.radius <= 0.0 or d.mass <= 0.0:
            raise InvalidLayoutError(f"disk {d.id!r}: radius and mass must be > 0")
        if isinstance(d.layer, bool) or not isinstance(d.layer, int) or d.layer < 0:
            raise InvalidLayoutError(
                f"disk {d.id!r}: layer must be an int >= 0, got {_short(d.layer)}"
            )
        if d.layer >= len(items):
            raise InvalidLayoutError(_LAYOUT_ERRORS[3].format(a=d.id, b=""))
