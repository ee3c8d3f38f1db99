"""The Hikone board: geometry and physical constants (docs/architecture.md).

Origin at the jack spot (ジャックスポット), x to the right, y up, seen from above;
SI units (m, kg, s).
Every figure lives in :class:`BoardSpec` and is marked *sourced* or *estimate* in its docstring; no
other module repeats these literals.

Seats and sides (R1c): singles seat 0 south, seat 1 north; doubles clockwise seen from above:
seat 0 south, 1 west, 2 north, 3 east.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import NamedTuple

import numpy as np

__all__ = [
    "DEFAULT_BOARD",
    "LEGACY_FIGURES",
    "BoardError",
    "BoardSpec",
    "OpeningPiece",
    "PieceKind",
    "Point",
    "Segment",
    "Side",
]


class BoardError(ValueError):
    """A board figure or a board query is invalid (bad seat, bad side, non-finite figure)."""


class Side(StrEnum):
    """A side of the board (and of its rail), named from above with north = +y."""

    SOUTH = "south"
    WEST = "west"
    NORTH = "north"
    EAST = "east"


class PieceKind(StrEnum):
    """The three kinds of piece (R1a): jack (ジャック), puck (パック), striker (ストライカー)."""

    JACK = "jack"
    PUCK = "puck"
    STRIKER = "striker"


class Point(NamedTuple):
    """A point on the board (m)."""

    x: float
    y: float


class Segment(NamedTuple):
    """A straight segment on the board between two points (m)."""

    a: Point
    b: Point


class OpeningPiece(NamedTuple):
    """A piece of the opening layout (R1a): id, kind and centre (m)."""

    id: str
    kind: PieceKind
    x: float
    y: float


_FLAGS = frozenset({"merge_grazing_pairs"})
_MAY_BE_ZERO = ("fly_off_max_probability", "stack_friction", "disk_friction", "rail_friction")
_LARGEST = 1e6
"""No board figure (SI units) is anywhere near this; larger values are refused as absurd."""
LEGACY_FIGURES: dict[str, float | bool] = {
    "stack_friction": 0.0,
    "disk_friction": 0.0,
    "rail_friction": 0.0,
    "merge_grazing_pairs": True,
}
"""The figures that give the physics of record format 1 (no friction models, the old merge)."""

# Outward unit normal of each side: the rail of side s is the line n.(x, y) = half_width.
_NORMAL: dict[Side, tuple[float, float]] = {
    Side.SOUTH: (0.0, -1.0),
    Side.WEST: (-1.0, 0.0),
    Side.NORTH: (0.0, 1.0),
    Side.EAST: (1.0, 0.0),
}
_SINGLES = (Side.SOUTH, Side.NORTH)
_DOUBLES = (Side.SOUTH, Side.WEST, Side.NORTH, Side.EAST)


@dataclass(frozen=True)
class BoardSpec:
    """Geometry and physical constants of a Hikone board (SI units; docs/architecture.md).

    Attributes:
        half_width: rails at |x| = |y| = half_width, m. Sourced: JCA inner size 60 cm square.
        pocket_radius: radius of the quarter-circle hole about each corner, m. Estimate.
        centre_circle_radius: radius of the centre circle the 24 pucks stand on (R1a), m. Estimate:
            24 pucks of 30 mm alternate on it with ~1.3 mm gaps.
        area_line_offset: distance of each area line (エリアライン) from its rail, m. Estimate.
        area_line_length: length of each area line, centred on its side, m. Estimate.
        puck_radius: m. Sourced (about 30 mm across).
        puck_mass: kg. Estimate (8 mm of wood).
        puck_thickness: m. Estimate.
        striker_radius: m. Sourced (same size and shape as a puck).
        striker_mass: kg. Estimate (same as a puck).
        jack_radius: m. Sourced (about 34 mm across).
        jack_mass: kg. Estimate (same wood and thickness as a puck).
        friction: sliding friction coefficient mu of a disk on the powdered board (deceleration
            mu*g). Estimate inside the measured 0.07-0.20 of disks on flour and starch layers
            (docs/physics.md).
        gravity: m/s^2. Standard gravity.
        restitution_disk: disk-disk coefficient of restitution. Estimate.
        restitution_rail: disk-rail coefficient of restitution. Estimate.
        max_speed: fastest flick, m/s. Estimate.
        fly_off_speed: rail-normal impact speed below which no disk ever flies off (R5c/R5d/R6c),
            m/s. Estimate: gentle play never jumps a rail.
        fly_off_full_speed: rail-normal impact speed at which the fly-off probability reaches
            ``fly_off_max_probability``, m/s. Estimate.
        fly_off_max_probability: the fly-off rate: probability of flying off at a rail impact at
            or above ``fly_off_full_speed`` (linear from 0 at ``fly_off_speed``). Estimate: no
            published rate exists; set it from a club's own count (docs/physics.md).
        stack_friction: Coulomb friction coefficient between a stacked disk and the disk under it
            (R6e piles): a pile pushed gently rides together, a hard hit pulls the bottom disk
            out. 0 switches the coupling off (stacked disks never move with their support and
            load it not). Estimate (lacquered wood on wood, powdered).
        disk_friction: impact friction coefficient between two disks: the tangential impulse is
            at most this times the normal one (the throw of a cut; spins change). 0: impacts
            act along the line of centres only. Estimate.
        rail_friction: impact friction coefficient between a disk and a rail (same model).
            0: the tangential velocity is kept in full. Estimate.
        merge_grazing_pairs: True applies the merge of slowly meeting pressed pairs (below
            0.1 mm/s) also to pairs sliding past each other; only for replaying records of
            format 1, whose physics it reproduces (see :meth:`legacy`).
    """

    half_width: float = 0.300
    pocket_radius: float = 0.055
    centre_circle_radius: float = 0.120
    area_line_offset: float = 0.090
    area_line_length: float = 0.400
    puck_radius: float = 0.015
    puck_mass: float = 0.004
    puck_thickness: float = 0.008
    striker_radius: float = 0.015
    striker_mass: float = 0.004
    jack_radius: float = 0.017
    jack_mass: float = 0.0051
    friction: float = 0.15
    gravity: float = 9.80665
    restitution_disk: float = 0.85
    restitution_rail: float = 0.70
    max_speed: float = 5.0
    fly_off_speed: float = 3.0
    fly_off_full_speed: float = 5.0
    fly_off_max_probability: float = 0.2
    stack_friction: float = 0.25
    disk_friction: float = 0.10
    rail_friction: float = 0.15
    merge_grazing_pairs: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _FLAGS:
                if not isinstance(value, bool):
                    raise BoardError(f"BoardSpec.{f.name} must be true or false, got {value!r}")
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise BoardError(f"BoardSpec.{f.name} must be a number, got {value!r}")
            try:
                finite = math.isfinite(value)
            except OverflowError:
                finite = False
            if not finite or abs(value) > _LARGEST:
                shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
                raise BoardError(
                    f"BoardSpec.{f.name} must be a finite number of at most {_LARGEST:g}, "
                    f"got {shown}"
                )
            if isinstance(value, int):
                object.__setattr__(self, f.name, float(value))
        for f in fields(self):
            if f.name in _FLAGS or f.name in _MAY_BE_ZERO:
                continue
            if getattr(self, f.name) <= 0.0:
                raise BoardError(f"BoardSpec.{f.name} must be > 0, got {getattr(self, f.name)!r}")
        for name in _MAY_BE_ZERO:
            if getattr(self, name) < 0.0:
                raise BoardError(f"BoardSpec.{name} must be >= 0, got {getattr(self, name)!r}")
        if not 0.0 <= self.fly_off_max_probability <= 1.0:
            raise BoardError("BoardSpec.fly_off_max_probability must lie in [0, 1]")
        if self.fly_off_full_speed <= self.fly_off_speed:
            raise BoardError("BoardSpec.fly_off_full_speed must exceed fly_off_speed")
        if not 0.0 <= self.restitution_disk <= 1.0 or not 0.0 <= self.restitution_rail <= 1.0:
            raise BoardError("restitution coefficients must lie in [0, 1]")
        if self.area_line_offset >= self.half_width or self.area_line_length > 2 * self.half_width:
            raise BoardError("the area lines must lie on the board")

    @classmethod
    def legacy(cls, **changes: float) -> BoardSpec:
        """The physics of record format 1: no stack, disk or rail friction, and the merge of
        every slowly meeting pressed pair. Records of format 1 replay with it exactly; the
        frictionless setting of the differential checks. ``changes`` override other figures."""
        return cls(**{**LEGACY_FIGURES, **changes})  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, float | bool]:
        """Every figure by name (plain JSON: SI units, the flag a bool)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: object, *, complete: bool = True) -> BoardSpec:
        """A board from :meth:`to_dict`'s form. ``complete``: every figure must be given;
        otherwise missing ones take the defaults. Unknown names and bad values raise BoardError.
        """
        if not isinstance(data, dict):
            raise BoardError("a board is a JSON object of named figures")
        names = [f.name for f in fields(cls)]
        unknown = sorted(set(data) - set(names), key=str)
        if unknown:
            raise BoardError(f"unknown board figures: {', '.join(map(str, unknown))}")
        missing = [n for n in names if n not in data]
        if complete and missing:
            raise BoardError(f"the board lacks the figures {', '.join(missing)}")
        return cls(**data)

    # --- derived figures -------------------------------------------------------------------
    @property
    def deceleration(self) -> float:
        """Sliding deceleration mu*g of every disk, m/s^2."""
        return self.friction * self.gravity

    def radius_of(self, kind: PieceKind) -> float:
        """Radius of a piece kind, m."""
        kind = PieceKind(kind)
        if kind is PieceKind.JACK:
            return self.jack_radius
        return self.puck_radius if kind is PieceKind.PUCK else self.striker_radius

    def mass_of(self, kind: PieceKind) -> float:
        """Mass of a piece kind, kg."""
        kind = PieceKind(kind)
        if kind is PieceKind.JACK:
            return self.jack_mass
        return self.puck_mass if kind is PieceKind.PUCK else self.striker_mass

    # --- seats and sides -------------------------------------------------------------------
    @staticmethod
    def seat_side(seat: int, players: int) -> Side:
        """The side a seat sits at (R1c): singles 0 south, 1 north; doubles 0 S, 1 W, 2 N, 3 E."""
        if players not in (2, 4):
            raise BoardError(f"players must be 2 or 4, got {players!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise BoardError(f"seat must be an int in [0, {players}), got {seat!r}")
        return (_SINGLES if players == 2 else _DOUBLES)[seat]

    def rail_of(self, side: Side) -> Segment:
        """The inner face of a side's rail as a segment (m), running the whole side."""
        nx, ny = _NORMAL[Side(side)]
        h = self.half_width
        a = Point(nx * h - ny * h, ny * h - nx * h)
        return Segment(a, Point(nx * h + ny * h, ny * h + nx * h))

    def area_line(self, side: Side) -> Segment:
        """A side's area line (エリアライン, R2b): a segment (m) parallel to its rail, centred."""
        nx, ny = _NORMAL[Side(side)]
        d = self.half_width - self.area_line_offset
        half = 0.5 * self.area_line_length
        cx, cy = nx * d, ny * d
        return Segment(Point(cx - ny * half, cy - nx * half), Point(cx + ny * half, cy + nx * half))

    def tee_spot(self, side: Side) -> Point:
        """A side's tee spot (ティースポット, R2a): the midpoint of its area line (m)."""
        nx, ny = _NORMAL[Side(side)]
        d = self.half_width - self.area_line_offset
        return Point(nx * d, ny * d)

    def _depth_behind_line(self, side: Side, x: float, y: float) -> tuple[float, float]:
        """(signed distance of (x, y) past the area line towards the rail, lateral offset), m."""
        nx, ny = _NORMAL.get(side) or _NORMAL[Side(side)]  # a Side is found without a call
        along = nx * x + ny * y - (self.half_width - self.area_line_offset)
        lateral = -ny * x + nx * y
        return along, lateral

    def wholly_inside_own_area(self, side: Side, x: float, y: float, r: float) -> bool:
        """R4a: is a disk (centre x, y; radius r; m) wholly inside a side's own area?

        The own area is the rectangle between the area line, the perpendiculars at its two ends and
        the rail. "Wholly inside" means strictly behind the area line (not touching it: the centre
        is more than r past the line) and the footprint within the two end perpendiculars.
        """
        along, lateral = self._depth_behind_line(side, x, y)
        return along > r and abs(lateral) + r <= 0.5 * self.area_line_length

    def overlaps_area_line(self, side: Side, x: float, y: float, r: float) -> bool:
        """R2b: does a disk (centre x, y; radius r; m) overlap the side's area line seen from above?

        The line is a segment of zero width; the disk overlaps it when the distance from its centre
        to the segment is at most r. At the line's ends this is a rounded end: a disk beyond an end
        overlaps only if its footprint covers the end point.
        """
        along, lateral = self._depth_behind_line(side, x, y)
        excess = max(0.0, abs(lateral) - 0.5 * self.area_line_length)
        return along * along + excess * excess <= r * r

    def overlaps_area_line_array(
        self, side: Side, x: np.ndarray, y: np.ndarray, r: float
    ) -> np.ndarray:
        """:meth:`overlaps_area_line` of many disks of radius r (centres as arrays, m): the same
        answers, the same arithmetic."""
        nx, ny = _NORMAL[Side(side)]
        along = nx * x + ny * y - (self.half_width - self.area_line_offset)
        lateral = -ny * x + nx * y
        excess = np.abs(lateral) - 0.5 * self.area_line_length
        excess = np.where(excess > 0.0, excess, 0.0)  # max(0.0, excess)
        overlaps: np.ndarray = along * along + excess * excess <= r * r
        return overlaps

    # --- pockets -----------------------------------------------------------------------------
    def pocket_centres(self) -> tuple[Point, Point, Point, Point]:
        """Corner centres of the four pockets (m), index 0 south-west, 1 south-east, 2 north-east,
        3 north-west (counter-clockwise from south-west)."""
        h = self.half_width
        return (Point(-h, -h), Point(h, -h), Point(h, h), Point(-h, h))

    def pocket_at(self, x: float, y: float) -> int | None:
        """Index of the pocket whose hole lies under the point (x, y) (m), or None."""
        r2 = self.pocket_radius * self.pocket_radius
        for k, (cx, cy) in enumerate(self.pocket_centres()):
            dx, dy = x - cx, y - cy
            if dx * dx + dy * dy < r2:
                return k
        return None

    def is_over_pocket(self, x: float, y: float) -> bool:
        """Is the point (x, y) (m), e.g. a disk centre, over a corner hole? (a disk there falls)"""
        return self.pocket_at(x, y) is not None

    # --- the playing surface -----------------------------------------------------------------
    def inside_surface(self, x: float, y: float, r: float) -> bool:
        """Does a disk (centre x, y; radius r; m) lie within the rails? (touching one is inside)"""
        limit = self.half_width - r
        return abs(x) <= limit and abs(y) <= limit

    def inside_surface_array(self, x: np.ndarray, y: np.ndarray, r: float) -> np.ndarray:
        """:meth:`inside_surface` of many disks of radius r (centres as arrays, m)."""
        limit = self.half_width - r
        inside: np.ndarray = (np.abs(x) <= limit) & (np.abs(y) <= limit)
        return inside

    def clamp_to_surface(self, x: float, y: float, r: float) -> Point:
        """The nearest centre to (x, y) (m) where a disk of radius r (m) lies within the rails."""
        limit = self.half_width - r
        if limit < 0.0:
            raise BoardError(f"a disk of radius {r} m does not fit on the board")
        return Point(min(limit, max(-limit, x)), min(limit, max(-limit, y)))

    # --- the opening layout (R1a) ------------------------------------------------------------
    def opening_angle(self, k: int) -> float:
        """Angle (rad, 0 = +x, counter-clockwise) of the k-th puck place on the centre circle.

        Places sit at 7.5 deg + k * 15 deg (k = 0..23): half a step off the axes, so no puck stands
        on the line from any tee spot to the jack; a straight break from a tee spot meets two pucks
        symmetrically. Even k are red (R0..R11), odd k green (G0..G11).
        """
        return math.radians(7.5 + 15.0 * k)

    def opening_layout(self) -> tuple[OpeningPiece, ...]:
        """R1a: the jack on the jack spot and 24 pucks alternating red/green on the centre circle.

        Ids: "J" for the jack, "R0".."R11" red and "G0".."G11" green (see :meth:`opening_angle`).
        """
        pieces = [OpeningPiece("J", PieceKind.JACK, 0.0, 0.0)]
        rc = self.centre_circle_radius
        for k in range(24):
            a = self.opening_angle(k)
            pid = f"R{k // 2}" if k % 2 == 0 else f"G{k // 2}"
            pieces.append(OpeningPiece(pid, PieceKind.PUCK, rc * math.cos(a), rc * math.sin(a)))
        return tuple(pieces)


DEFAULT_BOARD = BoardSpec()
