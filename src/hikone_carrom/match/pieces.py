"""Disk ids of the match layer and the referee's pieces they stand for (R1a).

Ids: "J" the jack, "R0".."R11" red pucks, "G0".."G11" green pucks, "S" the striker on the board.
"""

from __future__ import annotations

from collections.abc import Iterable

from hikone_carrom.board import BoardSpec, PieceKind
from hikone_carrom.physics import Disk
from hikone_carrom.rules import Piece
from hikone_carrom.rules.pieces import PUCKS_PER_COLOR

__all__ = ["JACK_ID", "STRIKER_ID", "all_ids", "disk_for", "ids_of", "piece_of"]

JACK_ID = "J"
STRIKER_ID = "S"
_PREFIX = {Piece.RED: "R", Piece.GREEN: "G"}


def piece_of(disk_id: str) -> Piece:
    """The referee's piece a disk id stands for; raises ``ValueError`` for the striker or junk."""
    if disk_id == JACK_ID:
        return Piece.JACK
    for piece, prefix in _PREFIX.items():
        if disk_id.startswith(prefix) and disk_id[1:].isdigit():
            return piece
    raise ValueError(f"{disk_id!r} is not a jack or puck id")


def ids_of(piece: Piece) -> tuple[str, ...]:
    """Every disk id of a piece kind, in index order."""
    if piece is Piece.JACK:
        return (JACK_ID,)
    return tuple(f"{_PREFIX[piece]}{k}" for k in range(PUCKS_PER_COLOR))


def all_ids() -> tuple[str, ...]:
    """The 25 ids of the jack and the pucks."""
    return (JACK_ID, *ids_of(Piece.RED), *ids_of(Piece.GREEN))


def disk_for(board: BoardSpec, disk_id: str, x: float, y: float, layer: int = 0) -> Disk:
    """A disk at rest for a piece or striker id, with the board's radius and mass (m, kg)."""
    kind = (
        PieceKind.STRIKER
        if disk_id == STRIKER_ID
        else PieceKind.JACK
        if disk_id == JACK_ID
        else PieceKind.PUCK
    )
    return Disk.of_kind(kind, disk_id, x, y, layer=layer, board=board)


def missing_ids(piece: Piece, on_board: Iterable[str]) -> list[str]:
    """Ids of ``piece`` not on the board, in index order."""
    present = set(on_board)
    return [i for i in ids_of(piece) if i not in present]
