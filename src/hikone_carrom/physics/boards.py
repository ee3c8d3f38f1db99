"""simulate_boards(): one shot on each of many boards with different layouts, in one batch.

:func:`~hikone_carrom.physics.simulate_batch` tries many shots from one layout (a player's
look-ahead); :func:`simulate_boards` steps many games at once (a vector of learning
environments): board m holds its own subset of a fixed set of disks, at its own positions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from hikone_carrom.board import DEFAULT_BOARD, BoardSpec
from hikone_carrom.physics import _engine as E
from hikone_carrom.physics._pack import board_params, check_count, pack, seed_bits
from hikone_carrom.physics.batch import BatchResult
from hikone_carrom.physics.disk import Disk
from hikone_carrom.physics.errors import InvalidLayoutError, InvalidShotError
from hikone_carrom.physics.simulate import _QUIET, DEFAULT_MAX_EVENTS, MAX_EVENTS_LIMIT

__all__ = ["ABSENT", "BoardSet", "simulate_boards"]

ABSENT = -1
"""``BatchResult.status`` (and layer, pocket, order) of a disk that was not on the board."""

_ERRORS = {
    1: "board {m}: disk {a!r} lies beyond the rails / 駒 {a!r} が壁の外にあります",
    2: "board {m}: disks {a!r} and {b!r} overlap on one layer / {a!r} と {b!r} が重なっています",
    3: "board {m}: disk {a!r} on a layer >= 1 has nothing under it (R6e)"
    " / {a!r} の下に支えがありません",
    4: "board {m}: disk {a!r} on a layer >= 1 cannot move / 重なった {a!r} は動かせません",
    7: "board {m}: disk {a!r}: layer must be an int >= 0 / {a!r} の層は0以上の整数です",
}


class BoardSet:
    """The disks that may appear on the boards of a batch (ids, radii, masses), packed once.

    Args:
        disks: every disk that may lie on a board (positions are ignored), without the striker.
        board: geometry and constants. striker: the striker's id (radius and mass of the board).

    Attributes:
        ids: the disks' ids and the striker's, sorted (the engine's order): the columns of every
            array of :func:`simulate_boards`. striker_index: the striker's column.
        radius: (N,) the disks' radii (m).
    """

    def __init__(
        self, disks: Sequence[Disk], board: BoardSpec = DEFAULT_BOARD, striker: str = "S"
    ) -> None:
        if any(d.id == striker for d in disks):
            raise InvalidLayoutError(f"the disks already hold one with the striker id {striker!r}")
        self.board = board
        self.params = board_params(board)
        proto = (*(Disk(d.id, 0.0, 0.0, 0.0, 0.0, d.radius, d.mass) for d in disks),)
        proto += (Disk.striker(striker, 0.0, 0.0, board=board),)
        ordered = tuple(sorted(proto, key=lambda d: d.id))
        if len({d.id for d in ordered}) != len(ordered):
            raise InvalidLayoutError("a disk id appears twice / ID が重複しています")
        rows = [pack((d,), board, self.params) for d in ordered]  # each disk alone: no overlaps
        self.S = np.concatenate([r[1] for r in rows])
        self.L = np.concatenate([r[2] for r in rows])
        self.ids: tuple[str, ...] = tuple(d.id for d in ordered)
        self.radius = np.array([d.radius for d in ordered])
        self.striker_index = self.ids.index(striker)

    def __len__(self) -> int:
        return len(self.ids)


def simulate_boards(
    boards: BoardSet,
    present: ArrayLike,
    x: ArrayLike,
    y: ArrayLike,
    layer: ArrayLike,
    shots: ArrayLike,
    seeds: Sequence[int] | np.ndarray,
    fly_off: bool = True,
    max_events: int = DEFAULT_MAX_EVENTS,
    parallel: bool = False,
) -> BatchResult:
    """One shot on each of M boards, each with its own layout of the disks of ``boards``.

    Args:
        boards: the disks (columns ``boards.ids``; the striker's column is ignored in the
            layout arrays).
        present: (M, N) bool, disk k lies on board m. x, y: (M, N) centres (m). layer: (M, N)
            int, 0 on the board, k >= 1 on a disk of layer k - 1 (R6e).
        shots: (M, 4) the striker's start (x, y) m and velocity (vx, vy) m/s on each board.
        seeds: (M,) ints, the fly-off draws of each board's shot.
        fly_off, max_events: as in :func:`~hikone_carrom.physics.simulate`.
        parallel: spread the boards over numba's threads (default: one thread, as
            :func:`~hikone_carrom.physics.simulate_batch`).

    Board m's outcome equals ``simulate(its disks + striker, seed=seeds[m])``, bit for bit. The
    result's arrays are (M, N) over ``boards.ids``, with status, layer, pocket and order
    :data:`ABSENT` and NaN positions for a disk not on the board.

    Raises:
        InvalidShotError: an array has the wrong shape, or a shot is not finite.
        InvalidLayoutError: a board's layout (striker included) is refused, as by ``simulate``.
    """
    n = len(boards)
    shot_arr = np.ascontiguousarray(shots, dtype=np.float64)
    if shot_arr.ndim != 2 or shot_arr.shape[1] != 4:
        raise InvalidShotError(f"shots must have shape (M, 4), got {shot_arr.shape}")
    m = shot_arr.shape[0]
    if not np.isfinite(shot_arr).all():
        raise InvalidShotError("shots must be finite")
    pres = np.ascontiguousarray(present, dtype=np.bool_)
    xy0 = np.ascontiguousarray(np.stack([np.asarray(x, float), np.asarray(y, float)]))
    lay = np.ascontiguousarray(layer, dtype=np.int64)
    for name, arr in (("present", pres), ("layer", lay), ("x, y", xy0[0]), ("x, y", xy0[1])):
        if arr.shape != (m, n):
            raise InvalidShotError(f"{name} must have shape ({m}, {n}), got {arr.shape}")
    if not np.isfinite(xy0[:, pres]).all():
        raise InvalidLayoutError("disk positions must be finite")
    if isinstance(seeds, np.ndarray) and seeds.dtype.kind in "iu":
        seed_arr = seeds.astype(np.uint64)  # two's complement: each seed modulo 2**64
    else:
        seed_arr = np.array([seed_bits(s) for s in seeds], dtype=np.uint64)
    if seed_arr.shape != (m,):
        raise InvalidShotError(f"{seed_arr.size} seeds for {m} boards")
    max_events = check_count("max_events", max_events, MAX_EVENTS_LIMIT)
    XYT = np.empty((3, m, n))
    LOUT = np.empty((4, m, n), dtype=np.int64)
    OUTi = np.zeros((m, E.N_OUTI), dtype=np.int64)
    OUTf = np.zeros((m, E.N_OUTF))
    RB = np.full((m, E.MAX_RAILS_BEFORE), -1, dtype=np.int64)
    ERR = np.zeros((m, 3), dtype=np.int64)
    if m:
        kernel = E.run_boards_parallel if parallel else E.run_boards_serial
        with _QUIET or np.errstate(over="ignore"):
            kernel(
                boards.S,
                boards.L,
                boards.params,
                boards.striker_index,
                pres,
                xy0,
                lay,
                shot_arr,
                seed_arr,
                bool(fly_off),
                max_events,
                XYT,
                LOUT,
                OUTi,
                OUTf,
                RB,
                ERR,
            )
    bad = np.flatnonzero(ERR[:, 0])
    if bad.size:
        k = int(bad[0])
        code, a, b = (int(v) for v in ERR[k])
        ida = boards.ids[a]
        idb = boards.ids[b] if b >= 0 else ""
        raise InvalidLayoutError(_ERRORS[code].format(m=k, a=ida, b=idb))
    status = LOUT[1].astype(np.int8)
    return BatchResult(
        ids=boards.ids,
        striker_index=boards.striker_index,
        status=status,
        pocket=LOUT[2],
        order=LOUT[3],
        time_out=XYT[2],
        x=XYT[0],
        y=XYT[1],
        layer=LOUT[0],
        first_contact=OUTi[:, 3].copy(),
        first_contact_time=OUTf[:, 0].copy(),
        rails_before=RB,
        n_rails_before=OUTi[:, 4].copy(),
        striker_fate=status[:, boards.striker_index].copy(),
        truncated=OUTi[:, 2].astype(bool),
        events_handled=OUTi[:, 1].copy(),
        seeds=seed_arr,
    )
