"""Checking a set position: pieces that can stand on the board as given (R1a, R6e).

A layout at rest is valid when every id is a jack or puck id and appears once, every number is
finite, every disk lies within the rails, no two disks of one layer overlap, and every disk of a
layer k >= 1 rests on a disk of layer k - 1 (R6e). Overlap is judged as the physics judges it
(:func:`hikone_carrom.physics.resting_layer`: touching is not overlapping).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from hikone_carrom.board import BoardSpec
from hikone_carrom.match.errors import IllegalLayoutError
from hikone_carrom.match.pieces import all_ids, disk_for
from hikone_carrom.physics import Disk, resting_layer

__all__ = ["check_layout"]

_IDS = frozenset(all_ids())


def _overlap(a: Disk, b: Disk) -> bool:
    return resting_layer((b,), a.x, a.y, a.radius) != 0


def check_layout(board: BoardSpec, layout: Sequence[Disk]) -> tuple[Disk, ...]:
    """The layout's disks at rest, with the board's radius and mass for each id (m, kg).

    Raises:
        IllegalLayoutError: the pieces cannot stand as given (see the module docstring).
    """
    seen: set[str] = set()
    rebuilt: list[Disk] = []
    for d in layout:
        if not isinstance(d, Disk):
            raise IllegalLayoutError(
                f"a layout holds Disk objects, not {type(d).__name__}",
                f"配置には Disk を並べます（{type(d).__name__} は不可）",
            )
        if not isinstance(d.id, str) or d.id not in _IDS:
            raise IllegalLayoutError(
                f"{d.id!r} is not the id of the jack or a puck (J, R0-R11, G0-G11)",
                f"{d.id!r} はジャックやパックのID（J、R0〜R11、G0〜G11）ではありません",
            )
        if d.id in seen:
            raise IllegalLayoutError(
                f"the id {d.id} appears twice in the layout", f"ID {d.id} が配置に2回あります"
            )
        seen.add(d.id)
        for name in ("x", "y"):
            value = getattr(d, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                finite = False
            else:
                try:
                    finite = math.isfinite(value)
                except OverflowError:  # an int too large for a float
                    finite = False
            if not finite:
                raise IllegalLayoutError(
                    f"{d.id}: {name} must be a finite number of metres, not {value!r}",
                    f"{d.id}：{name} はメートル単位の有限な数で指定してください",
                )
        if isinstance(d.layer, bool) or not isinstance(d.layer, int) or d.layer < 0:
            raise IllegalLayoutError(
                f"{d.id}: the layer must be an int >= 0, not {d.layer!r}",
                f"{d.id}：layer は0以上の整数で指定してください",
            )
        disk = disk_for(board, d.id, float(d.x), float(d.y), d.layer)
        if not board.inside_surface(disk.x, disk.y, disk.radius):
            raise IllegalLayoutError(f"{d.id} lies outside the rails", f"{d.id} が壁の外にあります")
        rebuilt.append(disk)
    for i, a in enumerate(rebuilt):
        for b in rebuilt[i + 1 :]:
            if a.layer == b.layer and _overlap(a, b):
                raise IllegalLayoutError(
                    f"{a.id} and {b.id} overlap on layer {a.layer}",
                    f"{a.id} と {b.id} が同じ段（{a.layer}）で重なっています",
                )
        if a.layer > 0 and not any(b.layer == a.layer - 1 and _overlap(a, b) for b in rebuilt):
            raise IllegalLayoutError(
                f"{a.id} lies on layer {a.layer} with nothing under it (R6e)",
                f"{a.id} は{a.layer}段目にありますが、下に支えるものがありません（R6e）",
            )
    return tuple(rebuilt)
