"""Putting pieces back on the jack spot (R5h, R5j, R6c-R6e).

Returned pieces are stacked on the jack spot in the ruling's order, bottom to top, on whatever
already lies there (R6e): each goes one layer above the highest disk its footprint overlaps.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from hikone_carrom.board import BoardSpec
from hikone_carrom.match.pieces import disk_for, missing_ids
from hikone_carrom.physics import Disk
from hikone_carrom.rules import Piece

__all__ = ["stack_on_jack_spot"]


def _layer_at_spot(layout: Sequence[Disk], radius: float) -> int:
    over = [d.layer for d in layout if math.hypot(d.x, d.y) < d.radius + radius]
    return max(over) + 1 if over else 0


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
        probe = disk_for(board, chosen, 0.0, 0.0)
        out.append(disk_for(board, chosen, 0.0, 0.0, _layer_at_spot(out, probe.radius)))
    return tuple(out)
