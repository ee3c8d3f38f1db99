"""Putting pieces back on the jack spot (R5h, R5j, R6c-R6e).

Returned pieces are stacked on the jack spot in the ruling's order, bottom to top, on whatever
already lies there (R6e): each goes one layer above the highest disk its footprint overlaps
(:func:`hikone_carrom.physics.resting_layer`). One mechanism serves the match's layouts of disks
(:func:`stack_on_jack_spot`) and the environments' layout arrays (:func:`stack_on_jack_spot_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache

import numpy as np

from hikone_carrom.board import BoardSpec
from hikone_carrom.match.pieces import disk_for, ids_of
from hikone_carrom.physics import Disk, resting_layer, resting_layer_of
from hikone_carrom.rules import Piece

__all__ = ["settle", "stack_on_jack_spot", "stack_on_jack_spot_of"]

_KINDS = {p: ids_of(p) for p in (Piece.RED, Piece.GREEN, Piece.JACK)}
"""Each piece's disk ids in index order (the order they go back in)."""


@cache
def _radius(board: BoardSpec, disk_id: str) -> float:
    """A piece's radius on ``board``, m."""
    return disk_for(board, disk_id, 0.0, 0.0).radius


def stack_on_jack_spot(
    board: BoardSpec,
    layout: Sequence[Disk],
    returned: Sequence[Piece],
    left_this_shot: Iterable[str],
) -> tuple[Disk, ...]:
    """The layout with ``returned`` pieces stacked on the jack spot, bottom to top (R6d, R6e).

    Which disk of a colour goes back is a choice the rules leave free; for determinism the match
    takes the disks that left the board in this shot first (in the order they left), then the
    lowest-numbered ones in the pockets.
    """
    if not returned:
        return tuple(layout)
    # the layout's disks, then every piece's disk not on the board, as columns of arrays
    ids = [d.id for d in layout]
    column = {i: c for c, i in enumerate(ids)}
    radius = [d.radius for d in layout]
    for disk_ids in _KINDS.values():
        for i in disk_ids:
            if i not in column:
                column[i] = len(ids)
                ids.append(i)
                radius.append(_radius(board, i))
    n = len(ids)
    present = np.zeros(n, dtype=bool)
    present[: len(layout)] = True
    x = np.zeros(n)
    y = np.zeros(n)
    layer = np.zeros(n, dtype=np.int64)
    for c, d in enumerate(layout):
        x[c], y[c], layer[c] = d.x, d.y, d.layer
    columns = {p: [column[i] for i in disk_ids] for p, disk_ids in _KINDS.items()}
    left = [column[i] for i in left_this_shot if i in column]
    put = stack_on_jack_spot_of(present, x, y, layer, np.array(radius), columns, returned, left)
    return (*layout, *(disk_for(board, ids[c], 0.0, 0.0, int(layer[c])) for c in put))


def stack_on_jack_spot_of(
    present: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    layer: np.ndarray,
    radius: np.ndarray,
    columns: Mapping[Piece, Sequence[int]],
    returned: Sequence[Piece],
    left: Sequence[int],
) -> list[int]:
    """:func:`stack_on_jack_spot` on one layout given as arrays over columns (``present``,
    centres ``x``, ``y`` m, ``layer``, ``radius`` m), changed in place; ``columns`` gives each
    piece's columns in index order, ``left`` the columns that left the board this shot in the
    order they left. Returns the columns put back, bottom to top.

    Raises:
        RuntimeError: a returned piece has no disk off the board (an accounting error).
    """
    put: list[int] = []
    for piece in returned:
        own = np.asarray(columns[piece])
        free = own[~present[own]].tolist()
        chosen = next((c for c in left if c in free), free[0] if free else None)
        if chosen is None:
            raise RuntimeError(f"no {piece.value} disk is off the board to return")
        on = np.flatnonzero(present)
        layer[chosen] = resting_layer_of(
            x[on], y[on], radius[on], layer[on], 0.0, 0.0, float(radius[chosen])
        )
        present[chosen] = True
        x[chosen] = 0.0
        y[chosen] = 0.0
        put.append(chosen)
    return put


def settle(layout: Iterable[Disk]) -> tuple[Disk, ...]:
    """Let every disk rest on what is under it now (R6e): from the lowest layer up, each disk
    goes to one layer above the highest disk it overlaps, so a disk whose support was taken away
    (the striker lifted off the board after a shot) drops where it stands."""
    placed: list[Disk] = []
    for d in sorted(layout, key=lambda d: (d.layer, d.id)):
        layer = resting_layer(placed, d.x, d.y, d.radius)
        placed.append(d if layer == d.layer else replace(d, layer=layer))
    return tuple(placed)
