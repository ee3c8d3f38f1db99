"""Putting pieces back on the jack spot (R5h, R5j, R6c-R6e).

Returned pieces are stacked on the jack spot in the ruling's order, bottom to top, on whatever
already lies there (R6e): each goes one layer above the highest disk its footprint overlaps
(:func:`hikone_carrom.physics.resting_layer`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from hikone_carrom.board import BoardSpec
from hikone_carrom.match.pieces import disk_for, missing_ids
from hikone_carrom.physics import Disk, resting_layer
from hikone_carrom.rules import Piece

__all__ = ["settle", "stack_on_jack_spot"]


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
    out = list(layout)
    left = list(left_this_shot)
    for piece in returned:
        free = missing_ids(piece, (d.id for d in out))
        chosen = next((i for i in left if i in free), free[0] if free else None)
        if chosen is None:
            raise RuntimeError(f"no {piece.value} disk is off the board to return")
        radius = disk_for(board, chosen, 0.0, 0.0).radius
        out.append(disk_for(board, chosen, 0.0, 0.0, resting_layer(out, 0.0, 0.0, radius)))
    return tuple(out)


def settle(layout: Iterable[Disk]) -> tuple[Disk, ...]:
    """Let every disk rest on what is under it now (R6e): from the lowest layer up, each disk
    goes to one layer above the highest disk it overlaps, so a disk whose support was taken away
    (the striker lifted off the board after a shot) drops where it stands."""
    placed: list[Disk] = []
    for d in sorted(layout, key=lambda d: (d.layer, d.id)):
        layer = resting_layer(placed, d.x, d.y, d.radius)
        placed.append(d if layer == d.layer else replace(d, layer=layer))
    return tuple(placed)
