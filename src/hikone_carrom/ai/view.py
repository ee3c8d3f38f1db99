"""What a computer player sees of a match before a shot: pieces as arrays, its seat, the rules.

A :class:`TableView` is an immutable snapshot; the search and the geometry read only this, so a
view can be built for any layout (the real one, or one a sampled shot would leave) and any seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match import Match, Placement, legal_placement
from hikone_carrom.match.pieces import JACK_ID
from hikone_carrom.physics import Disk
from hikone_carrom.rules import Color, RefereeState

__all__ = ["TableView", "color_prefix"]


def color_prefix(color: Color) -> str:
    """The first letter of a colour's puck ids: "R" (red) or "G" (green)."""
    return "R" if color is Color.RED else "G"


@dataclass(frozen=True)
class TableView:
    """A snapshot for one seat: the layout and what the rules allow it to aim at.

    Attributes:
        board: the board. players: 2 or 4. seat, side, color: who shoots and from where.
        state: the referee's state before the shot. placement: legal striker placements (R2).
        disks: the layout (at rest). ids, x, y, r, layer: the same as arrays (m).
        ground: mask of disks lying on the board (layer 0): only these meet the striker.
        unshootable: mask of pieces the shooter may not hit first-hand (R4a, doubles only).
    """

    board: BoardSpec
    players: int
    seat: int
    side: Side
    color: Color
    state: RefereeState
    placement: Placement
    disks: tuple[Disk, ...]
    ids: tuple[str, ...]
    x: np.ndarray
    y: np.ndarray
    r: np.ndarray
    layer: np.ndarray
    ground: np.ndarray
    unshootable: np.ndarray

    @classmethod
    def of_match(cls, match: Match, seat: int | None = None) -> TableView:
        """The view of ``seat`` (default: the shooter) on the match as it stands."""
        seat = match.shooter if seat is None else seat
        return cls.build(match.board, match.players, seat, match.referee.state, match.layout)

    @classmethod
    def build(
        cls,
        board: BoardSpec,
        players: int,
        seat: int,
        state: RefereeState,
        layout: Sequence[Disk],
    ) -> TableView:
        """The view of ``seat`` on ``layout`` with the referee in ``state``."""
        disks = tuple(layout)
        side = board.seat_side(seat, players)
        first = state.is_first_shot(seat)
        placement = legal_placement(board, seat, players, first, disks)
        x = np.array([d.x for d in disks], dtype=np.float64)
        y = np.array([d.y for d in disks], dtype=np.float64)
        r = np.array([d.radius for d in disks], dtype=np.float64)
        layer = np.array([d.layer for d in disks], dtype=np.int64)
        ground = layer == 0
        if players == 4:
            unshootable = np.array(
                [board.wholly_inside_own_area(side, d.x, d.y, d.radius) for d in disks], dtype=bool
            )
        else:
            unshootable = np.zeros(len(disks), dtype=bool)
        return cls(
            board=board,
            players=players,
            seat=seat,
            side=side,
            color=state.color(seat),
            state=state,
            placement=placement,
            disks=disks,
            ids=tuple(d.id for d in disks),
            x=x,
            y=y,
            r=r,
            layer=layer,
            ground=ground,
            unshootable=unshootable,
        )

    @property
    def jack_allowed(self) -> bool:
        """True when all own pucks are pocketed, so pocketing the jack wins (R6b, R7a)."""
        return self.state.pucks_on_board(self.color) == 0

    def index(self, disk_id: str) -> int:
        """Position of ``disk_id`` in the arrays; raises ``ValueError`` if absent."""
        return self.ids.index(disk_id)

    def targets(self) -> list[int]:
        """Indices of the pieces worth pocketing now: own pucks on the board surface, or the
        jack once every own puck is down (R5b, R6b); pieces in a stack (layer >= 1) are never
        aimed at."""
        if self.jack_allowed:
            return [i for i, d in enumerate(self.ids) if d == JACK_ID and self.ground[i]]
        prefix = color_prefix(self.color)
        return [i for i, d in enumerate(self.ids) if d.startswith(prefix) and self.ground[i]]
