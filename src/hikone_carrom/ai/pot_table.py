"""Chances of pocketing a lone piece from the area line: a table over the board.

For a puck or the jack alone on the board at (x, y) (m, origin at the jack spot,
docs/architecture.md), the table holds for each of the four pockets the best chance that one
strike from the south area line (R2b) pockets it there and keeps the turn (R3a): from 17 points
of the area line, at 6 speeds, every direction 0.5 degree apart is simulated as meant, and each
success is scored by the share of its neighbouring directions that succeed too, weighted by a
Gaussian of the 1x hand's angle sigma (1.0 degree; the sweep's estimate,
:mod:`hikone_carrom.ai.sweep`). Other pieces are left out, so it is an upper bound of what a
real layout allows, and a map of where a piece is hard to pocket, and in which pocket.

The tables for the default board and for the legacy physics (``BoardSpec.legacy()``, the
board the stored evaluation results were measured on) are stored in the package
(``ai/data/pot_chances.npz`` and ``pot_chances_legacy.npz``, one grid point every 10 mm; the
board is mirror-symmetric, so ``x >= 0`` only) and rebuilt with ``hikone-carrom pot-table``
(``--board legacy`` for the other; about 6 minutes on two cores).
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import IO

import numpy as np

from hikone_carrom.ai.geometry import line_points
from hikone_carrom.ai.sweep import smoothed
from hikone_carrom.board import DEFAULT_BOARD, BoardSpec, PieceKind, Side
from hikone_carrom.board_file import board_from_args
from hikone_carrom.match.pieces import JACK_ID, STRIKER_ID, disk_for
from hikone_carrom.match.placement import legal_placement
from hikone_carrom.physics import simulate_batch

__all__ = [
    "ACROSS_CPUS",
    "FLOOR",
    "KINDS",
    "STEP",
    "PotTable",
    "build",
    "chance",
    "grid",
    "load",
    "pot_table",
    "save",
]

KINDS = (PieceKind.PUCK, PieceKind.JACK)
STEP = 0.010
"""Grid spacing of the stored table, m."""
_PLACEMENTS = 17
_DIRECTIONS = 720
_SPEEDS = (0.5, 0.8, 1.2, 1.8, 2.6, 3.6)
_ANGLE_SIGMA_DEG = 1.0
ACROSS_CPUS = 1e-12
"""Relative agreement of a table computed on another CPU with the stored one: the Gaussian
weights and the shot directions go through numpy's vectorised ``exp``, ``cos`` and ``sin``,
whose last bits depend on the CPU's vector unit (AVX-512 or AVX2; measured differences 1e-16);
the physics itself is the same on every x86-64 CPU (docs/record-format.md)."""
FLOOR = 0.15
"""Lowest chance a cost in strikes is taken from (a cost is at most 1 / FLOOR strikes)."""
_DATA = "pot_chances.npz"
_LEGACY_DATA = "pot_chances_legacy.npz"
_POCKETS = 4
_MIRROR = np.array([1, 0, 3, 2])
"""Pocket seen in the mirror x -> -x (south-west <-> south-east, north-east <-> north-west)."""
_TURN = {Side.SOUTH: 0, Side.EAST: 1, Side.NORTH: 2, Side.WEST: 3}
"""Clockwise quarter turns that bring the seat's rail south; also the board pocket index of
the seat's south-west pocket."""


def chance(board: BoardSpec, kind: PieceKind, x: float, y: float) -> np.ndarray:
    """The best chance of pocketing a lone ``kind`` at (x, y) m in each pocket (4,: board pocket
    index) with one strike from the south area line, keeping the turn (R2b, R3a), as the
    module docstring describes."""
    piece = JACK_ID if kind is PieceKind.JACK else "R01"
    layout = (disk_for(board, piece, x, y),)
    points = line_points(legal_placement(board, 0, 2, False, layout), _PLACEMENTS)
    angles = np.arange(_DIRECTIONS) * (2.0 * math.pi / _DIRECTIONS) - math.pi
    velocity = np.concatenate(
        [
            np.column_stack(
                [
                    np.full(_DIRECTIONS, px),
                    np.full(_DIRECTIONS, py),
                    speed * np.cos(angles),
                    speed * np.sin(angles),
                ]
            )
            for px, py in points
            for speed in _SPEEDS
        ]
    )
    batch = simulate_batch(
        layout,
        velocity,
        board=board,
        seeds=np.arange(len(velocity)),
        fly_off=True,
        striker=STRIKER_ID,
    )
    ok = (batch.status[:, 0] == 1) & (batch.striker_fate == 0)
    # the pocket of each success, -1 for a failure: a row per placement and speed
    pocket = np.where(ok, batch.pocket[:, 0], -1).reshape(-1, _DIRECTIONS)
    sigma = _ANGLE_SIGMA_DEG / (360.0 / _DIRECTIONS)
    return np.array(
        [smoothed((pocket == k).astype(np.float64), sigma).max() for k in range(_POCKETS)]
    )


@dataclass(frozen=True)
class PotTable:
    """Chances (0-1) of pocketing a lone piece on a grid: ``chances[kind][i, j, k]`` at
    (``xs[i]``, ``ys[j]``) m in pocket ``k`` (board pocket index), ``xs`` from 0 (mirror
    symmetry), for the board ``board``."""

    board: BoardSpec
    xs: np.ndarray
    ys: np.ndarray
    chances: dict[PieceKind, np.ndarray]

    @cached_property
    def costs(self) -> dict[PieceKind, np.ndarray]:
        """Strikes per grid point and pocket: one over the chance, at least ``FLOOR``."""
        return {kind: 1.0 / np.maximum(p, FLOOR) for kind, p in self.chances.items()}

    def strikes(self, kind: PieceKind, x: np.ndarray, y: np.ndarray, side: Side) -> np.ndarray:
        """Strikes a lone ``kind`` at (x, y) m costs the seat on ``side`` by its best pocket."""
        out: np.ndarray = self.pocket_strikes(kind, x, y, side).min(axis=-1)
        return out

    def pocket_strikes(
        self, kind: PieceKind, x: np.ndarray, y: np.ndarray, side: Side
    ) -> np.ndarray:
        """Strikes a lone ``kind`` at (x, y) m costs the seat on ``side`` in each pocket
        (shape of ``x`` + (4,), board pocket index): one over its chance (at least
        ``FLOOR``), interpolated between grid points."""
        for _ in range(_TURN[side]):  # turn the board so that the seat's rail is south
            x, y = y, -x
        xs, ys, cost = self.xs, self.ys, self.costs[kind]
        ax = np.clip(np.abs(x), xs[0], xs[-1])
        ay = np.clip(y, ys[0], ys[-1])
        i = np.clip(np.searchsorted(xs, ax) - 1, 0, len(xs) - 2)
        j = np.clip(np.searchsorted(ys, ay) - 1, 0, len(ys) - 2)
        tx = ((ax - xs[i]) / (xs[i + 1] - xs[i]))[..., None]
        ty = ((ay - ys[j]) / (ys[j + 1] - ys[j]))[..., None]
        seat = (
            cost[i, j] * (1 - tx) * (1 - ty)
            + cost[i + 1, j] * tx * (1 - ty)
            + cost[i, j + 1] * (1 - tx) * ty
            + cost[i + 1, j + 1] * tx * ty
        )
        seat = np.where((x < 0)[..., None], seat[..., _MIRROR], seat)
        out: np.ndarray = np.roll(seat, _TURN[side], axis=-1)
        return out


def grid(board: BoardSpec, step: float = STEP) -> tuple[np.ndarray, np.ndarray]:
    """The table's grid (m): ``xs`` from 0 to the rail less a puck, ``ys`` mirrored."""
    limit = board.half_width - board.puck_radius - 0.001
    xs = np.arange(0.0, limit + 1e-9, step)
    return xs, np.concatenate([-xs[::-1][:-1], xs])


def build(board: BoardSpec = DEFAULT_BOARD, step: float = STEP) -> PotTable:
    """Compute the table for ``board`` (every grid point simulated; minutes)."""
    xs, ys = grid(board, step)
    chances = {}
    for kind in KINDS:
        p = np.zeros((len(xs), len(ys), _POCKETS))
        for i, x in enumerate(xs):
            for j, y in enumerate(ys):
                over = board.pocket_at(float(x), float(y))
                if over is None:
                    p[i, j] = chance(board, kind, float(x), float(y))
                else:
                    p[i, j, over] = 1.0
        chances[kind] = p
    return PotTable(board, xs, ys, chances)


def save(table: PotTable, path: Path) -> None:
    """Write ``table`` as a NumPy archive (with its board's figures as JSON)."""
    np.savez_compressed(
        path,
        board=json.dumps(table.board.to_dict(), sort_keys=True),
        xs=table.xs,
        ys=table.ys,
        puck=table.chances[PieceKind.PUCK],
        jack=table.chances[PieceKind.JACK],
    )


def load(file: IO[bytes] | Path) -> PotTable:
    """A table written by :func:`save`."""
    with np.load(file) as data:
        board = BoardSpec.from_dict(json.loads(str(data["board"])))
        chances = {kind: np.array(data[kind.value]) for kind in KINDS}
        return PotTable(board, np.array(data["xs"]), np.array(data["ys"]), chances)


@cache
def _stored(name: str) -> PotTable:
    with resources.files("hikone_carrom.ai").joinpath("data", name).open("rb") as f:
        return load(f)


def pot_table(board: BoardSpec = DEFAULT_BOARD) -> PotTable:
    """The stored table for ``board`` (the default board's or the legacy physics'); for any
    other board the default board's, whose ``board`` then differs (callers check it)."""
    legacy = _stored(_LEGACY_DATA)
    return legacy if board == legacy.board else _stored(_DATA)


def main(argv: list[str] | None = None) -> int:
    """``hikone-carrom pot-table [--board legacy|FILE] [--output PATH]``: rebuild a stored table."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom pot-table",
        description="Rebuild the table of lone-piece pot chances the expert uses alone on the "
        "board (minutes) / 達人がひとりで使うポット確率表を作り直す（数分）",
    )
    data = Path(__file__).with_name("data")
    parser.add_argument(
        "--output", type=Path, help=f"default: {data / _DATA} ({_LEGACY_DATA} for legacy)"
    )
    parser.add_argument(
        "--step", type=float, default=STEP, help=f"grid spacing, m (default {STEP})"
    )
    parser.add_argument(
        "--board",
        metavar="legacy|FILE",
        help="the legacy physics, or a board file; default: the standard board / 盤",
    )
    args = parser.parse_args(argv)
    if not 0.001 <= args.step <= 0.1:
        parser.error("--step must be between 0.001 and 0.1 m / --step は 0.001〜0.1 m")
    if args.board == "legacy":
        board, default = BoardSpec.legacy(), data / _LEGACY_DATA
    else:
        board, default = board_from_args(parser, args), data / _DATA
    output = args.output or default
    save(build(board, step=args.step), output)
    print(f"wrote {output}")
    return 0
