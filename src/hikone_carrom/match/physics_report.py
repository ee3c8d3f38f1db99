"""From the physics' event log to the referee's :class:`ShotReport` (R3-R6).

The referee knows no physics; this is the one place that reads a :class:`ShotResult` for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match.pieces import STRIKER_ID, piece_of
from hikone_carrom.physics import Disk, ShotResult
from hikone_carrom.rules import ShotReport

__all__ = ["report_of", "unshootable_hit", "unshootable_pieces"]


def unshootable_pieces(
    board: BoardSpec, players: int, side: Side, layout: Sequence[Disk]
) -> tuple[str, ...]:
    """Ids of the pieces a shooter on ``side`` may not hit directly, in layout order: in doubles
    those lying wholly inside the shooter's own area (R4a); none in singles (R4e)."""
    if players != 4:
        return ()
    return tuple(
        d.id
        for d in layout
        if d.id != STRIKER_ID and board.wholly_inside_own_area(side, d.x, d.y, d.radius)
    )


def unshootable_hit(
    board: BoardSpec, side: Side, before: Sequence[Disk], result: ShotResult
) -> bool:
    """R4: did the striker touch, first-hand, a piece wholly inside the shooter's own area?

    "First-hand" means the striker's first disk contact is such a piece (R4a), with no bank off
    one of the three rails other than the shooter's own before it (R4b). A legal piece hit first
    may then carry on into it, and the striker may touch it after a legal piece (R4b).
    """
    contact = result.first_contact
    if contact is None or contact.disk_id is None:
        return False
    target = next((d for d in before if d.id == contact.disk_id), None)
    if target is None or not board.wholly_inside_own_area(side, target.x, target.y, target.radius):
        return False
    return all(rail == side for rail in contact.rails_before)


def report_of(
    board: BoardSpec,
    players: int,
    side: Side,
    before: Sequence[Disk],
    result: ShotResult,
) -> ShotReport:
    """The referee's view of a simulated shot: pocketed and flown-off pieces, the striker's fate,
    and in doubles (R4e: only there) whether an unshootable piece was hit first-hand (R4c)."""
    pocketed = [p[0] for p in result.pocketed]
    return ShotReport(
        pocketed=tuple(piece_of(i) for i in pocketed if i != STRIKER_ID),
        off_board=tuple(piece_of(i) for i in result.off_board if i != STRIKER_ID),
        striker_pocketed=STRIKER_ID in pocketed,
        striker_off_board=STRIKER_ID in result.off_board,
        unshootable_hit=players == 4 and unshootable_hit(board, side, before, result),
    )
