"""Disks: the pieces as the physics sees them (SI units, ids are strings)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from hikone_carrom.board import DEFAULT_BOARD, BoardSpec, PieceKind
from hikone_carrom.physics._engine import TOUCH
from hikone_carrom.physics.errors import InvalidLayoutError

__all__ = ["Disk", "opening_disks", "resting_layer", "resting_layer_of"]


def finite_number(value: object) -> bool:
    """Is ``value`` an int or float (not a bool) that is a finite float?"""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int beyond the float range
        return False


@dataclass(frozen=True)
class Disk:
    """A disk on the board: centre (x, y) in m, velocity (vx, vy) in m/s, radius m, mass kg.

    ``layer`` 0 lies on the board; layer k >= 1 lies on a disk of layer k-1 (R6e stacks).
    Id convention of the match layer: "J" jack, "R0".."R11" red, "G0".."G11" green, "S" striker.
    Use :meth:`puck`, :meth:`jack`, :meth:`striker` or :meth:`of_kind` rather than literals.
    """

    id: str
    x: float
    y: float
    vx: float = 0.0
    vy: float = 0.0
    radius: float = DEFAULT_BOARD.puck_radius
    mass: float = DEFAULT_BOARD.puck_mass
    layer: int = 0

    @classmethod
    def of_kind(
        cls,
        kind: PieceKind,
        id: str,
        x: float,
        y: float,
        vx: float = 0.0,
        vy: float = 0.0,
        *,
        layer: int = 0,
        board: BoardSpec = DEFAULT_BOARD,
    ) -> Disk:
        """A disk with the radius (m) and mass (kg) of ``kind`` on ``board``."""
        return cls(id, x, y, vx, vy, board.radius_of(kind), board.mass_of(kind), layer)

    @classmethod
    def puck(
        cls,
        id: str,
        x: float,
        y: float,
        vx: float = 0.0,
        vy: float = 0.0,
        *,
        layer: int = 0,
        board: BoardSpec = DEFAULT_BOARD,
    ) -> Disk:
        """A puck (パック) at (x, y) m moving at (vx, vy) m/s."""
        return cls.of_kind(PieceKind.PUCK, id, x, y, vx, vy, layer=layer, board=board)

    @classmethod
    def jack(
        cls,
        id: str,
        x: float,
        y: float,
        vx: float = 0.0,
        vy: float = 0.0,
        *,
        layer: int = 0,
        board: BoardSpec = DEFAULT_BOARD,
    ) -> Disk:
        """The jack (ジャック) at (x, y) m moving at (vx, vy) m/s."""
        return cls.of_kind(PieceKind.JACK, id, x, y, vx, vy, layer=layer, board=board)

    @classmethod
    def striker(
        cls,
        id: str,
        x: float,
        y: float,
        vx: float = 0.0,
        vy: float = 0.0,
        *,
        layer: int = 0,
        board: BoardSpec = DEFAULT_BOARD,
    ) -> Disk:
        """A striker (ストライカー) at (x, y) m moving at (vx, vy) m/s."""
        return cls.of_kind(PieceKind.STRIKER, id, x, y, vx, vy, layer=layer, board=board)

    @classmethod
    def shot(
        cls,
        id: str,
        x: float,
        y: float,
        angle: float,
        speed: float,
        *,
        board: BoardSpec = DEFAULT_BOARD,
    ) -> Disk:
        """A striker at (x, y) m flicked at ``speed`` m/s towards ``angle`` rad (0 = +x, CCW).

        Raises InvalidLayoutError when the angle or speed is not a finite number."""
        if not finite_number(angle) or not finite_number(speed):
            raise InvalidLayoutError(
                f"striker {id!r}: angle and speed must be finite numbers"
                " / 角度と速さは有限の数で指定してください"
            )
        return cls.striker(id, x, y, speed * math.cos(angle), speed * math.sin(angle), board=board)

    def at_rest(self) -> Disk:
        """The same disk with zero velocity."""
        return Disk(self.id, self.x, self.y, 0.0, 0.0, self.radius, self.mass, self.layer)

    @property
    def speed(self) -> float:
        """Speed, m/s."""
        return math.hypot(self.vx, self.vy)


def opening_disks(board: BoardSpec = DEFAULT_BOARD) -> tuple[Disk, ...]:
    """R1a: the opening layout as disks at rest (jack "J", pucks "R0".."R11", "G0".."G11")."""
    return tuple(Disk.of_kind(p.kind, p.id, p.x, p.y, board=board) for p in board.opening_layout())


def resting_layer(disks: Iterable[Disk], x: float, y: float, radius: float) -> int:
    """Layer a disk of ``radius`` (m) put down at (x, y) (m) comes to rest on (R6e pile).

    One above the highest disk its footprint overlaps by more than the engine's contact tolerance,
    or 0 if it overlaps none (touching is not overlapping), so a stack built with it is valid.
    """
    top = -1
    for d in disks:
        rr = d.radius + radius
        dx = d.x - x
        dy = d.y - y
        if dx * dx + dy * dy < rr * rr - 2.0 * rr * TOUCH and d.layer > top:
            top = d.layer
    return top + 1


def resting_layer_of(
    xs: np.ndarray,
    ys: np.ndarray,
    radii: np.ndarray,
    layers: np.ndarray,
    x: float,
    y: float,
    radius: float,
) -> int:
    """:func:`resting_layer` over disks given as arrays (centres and radii m, layers), the same
    number bit for bit."""
    rr = radii + radius
    dx = xs - x
    dy = ys - y
    over = dx * dx + dy * dy < rr * rr - 2.0 * rr * TOUCH
    return int(layers[over].max()) + 1 if over.any() else 0
