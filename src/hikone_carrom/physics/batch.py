"""simulate_batch(): many candidate shots from one layout, in parallel, for computer players."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from hikone_carrom.board import DEFAULT_BOARD, BoardSpec, Side
from hikone_carrom.physics import _engine as E
from hikone_carrom.physics._pack import board_params, check_count, pack, seed_bits
from hikone_carrom.physics.disk import Disk
from hikone_carrom.physics.errors import InvalidLayoutError, InvalidShotError
from hikone_carrom.physics.events import StrikerFate
from hikone_carrom.physics.simulate import _QUIET, DEFAULT_MAX_EVENTS, MAX_EVENTS_LIMIT

__all__ = ["BatchResult", "batch_seeds", "shots_from_angles", "simulate_batch"]

PARALLEL_MIN_SHOTS = 64
"""Batches this large run on numba's threads when asked (``parallel=True``); smaller ones, and
every batch by default, on the calling thread (same results). One thread by default because
numba's threads lose badly on a busy machine (docs/performance.md: 64-shot batches 11 times
slower on 2 threads than on 1 under load), and a server or player runs many batches at once."""
_SIDES = tuple(Side)
_FATES = (StrikerFate.ON_BOARD, StrikerFate.POCKETED, StrikerFate.FLEW_OFF)


@dataclass(frozen=True, eq=False)
class BatchResult:
    """Compact per-shot outcomes of :func:`simulate_batch` (M shots, N disks in ``ids`` order).

    Arrays: ``status`` (M, N) 0 on board / 1 pocketed / 2 flew off; ``pocket`` (M, N) pocket
    index or -1; ``order`` (M, N) rank among the disks that left the board or -1; ``time_out``
    (M, N) s (inf if it stayed); ``x``, ``y`` (M, N) m and ``layer`` (M, N) of the final layout;
    ``first_contact`` (M,) disk index or -1 and ``first_contact_time`` (M,) s; ``rails_before``
    (M, 16) side codes (Side order south, west, north, east; -1 padding) with ``n_rails_before``;
    ``striker_fate`` (M,) 0 on board / 1 pocketed / 2 flew off; ``truncated`` (M,) bool;
    ``events_handled`` (M,); ``seeds`` (M,) the fly-off seed of each shot (uint64: shot m equals
    ``simulate(..., seed=int(seeds[m]))``).
    """

    ids: tuple[str, ...]
    striker_index: int
    status: np.ndarray
    pocket: np.ndarray
    order: np.ndarray
    time_out: np.ndarray
    x: np.ndarray
    y: np.ndarray
    layer: np.ndarray
    first_contact: np.ndarray
    first_contact_time: np.ndarray
    rails_before: np.ndarray
    n_rails_before: np.ndarray
    striker_fate: np.ndarray
    truncated: np.ndarray
    events_handled: np.ndarray
    seeds: np.ndarray

    def __len__(self) -> int:
        return int(self.status.shape[0])

    def pocketed_ids(self, m: int) -> tuple[str, ...]:
        """Ids pocketed in shot m, in the order they fell."""
        cols = [k for k in range(len(self.ids)) if self.status[m, k] == E.IN_POCKET]
        return tuple(self.ids[k] for k in sorted(cols, key=lambda k: int(self.order[m, k])))

    def off_board_ids(self, m: int) -> tuple[str, ...]:
        """Ids that flew off in shot m, in order."""
        cols = [k for k in range(len(self.ids)) if self.status[m, k] == E.OFF_BOARD]
        return tuple(self.ids[k] for k in sorted(cols, key=lambda k: int(self.order[m, k])))

    def first_contact_id(self, m: int) -> str | None:
        """Id of the striker's first contact in shot m, or None."""
        k = int(self.first_contact[m])
        return self.ids[k] if k >= 0 else None

    def rails_before_sides(self, m: int) -> tuple[Side, ...]:
        """Rails the striker touched before its first contact in shot m."""
        return tuple(_SIDES[int(c)] for c in self.rails_before[m, : self.n_rails_before[m]])

    def fate(self, m: int) -> StrikerFate:
        """The striker's fate in shot m."""
        return _FATES[int(self.striker_fate[m])]


def batch_seeds(seed: int, count: int) -> np.ndarray:
    """``count`` per-shot seeds (uint64) derived from one seed (any int): splitmix64 of the seed
    and the shot's index, so that the shots of a batch draw their fly-offs independently."""
    m = np.arange(1, count + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = seed_bits(seed) + m * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        out: np.ndarray = z ^ (z >> np.uint64(31))
    return out


def shots_from_angles(x: ArrayLike, y: ArrayLike, angle: ArrayLike, speed: ArrayLike) -> np.ndarray:
    """Shots array (M, 4) of (x, y, vx, vy) from striker centres (m), angles (rad, 0 = +x,
    counter-clockwise) and speeds (m/s); scalars broadcast."""
    xs, ys, a, s = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (x, y, angle, speed)))
    return np.stack(
        [xs.ravel(), ys.ravel(), (s * np.cos(a)).ravel(), (s * np.sin(a)).ravel()], axis=1
    )


def simulate_batch(
    disks: Iterable[Disk],
    shots: ArrayLike,
    board: BoardSpec = DEFAULT_BOARD,
    seeds: int | Sequence[int] | np.ndarray = 0,
    fly_off: bool = True,
    max_events: int = DEFAULT_MAX_EVENTS,
    striker: str = "S",
    parallel: bool = False,
) -> BatchResult:
    """Simulate each shot from the same layout, on the calling thread or, when asked, on
    numba's threads (numba.prange).

    Args:
        disks: the layout at rest, without the striker.
        shots: (M, 4) striker start (x, y) m and velocity (vx, vy) m/s; see
            :func:`shots_from_angles`. The striker has the board's striker radius and mass.
        seeds: one seed from which each shot's own seed is derived (:func:`batch_seeds`), or
            one seed per shot (a sequence or an integer array); they seed the fly-off draws.
        fly_off, max_events: as in :func:`simulate`.
        striker: id given to the striker (must not be in ``disks``).
        parallel: spread a batch of at least :data:`PARALLEL_MIN_SHOTS` shots over numba's
            threads (default: one thread, see :data:`PARALLEL_MIN_SHOTS`).

    Each shot's outcome equals ``simulate(disks + [striker], ...)`` with the same seed.

    Raises:
        InvalidLayoutError: bad layout. InvalidShotError: a shot is non-finite, or its striker
            lies beyond the rails or overlaps a disk of layer 0.
    """
    layout = tuple(disks)
    if any(d.id == striker for d in layout):
        raise InvalidLayoutError(f"the layout already holds a disk with the striker id {striker!r}")
    arr = np.array(shots, dtype=float)
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise InvalidShotError(f"shots must have shape (M, 4), got {arr.shape}")
    if not np.isfinite(arr).all():
        raise InvalidShotError("shots must be finite")
    m = arr.shape[0]
    if isinstance(seeds, int | np.integer) and not isinstance(seeds, bool):
        seed_arr = batch_seeds(int(seeds), m)
    elif isinstance(seeds, np.ndarray) and seeds.dtype.kind in "iu":
        if seeds.shape != (m,):
            raise InvalidShotError(f"{seeds.size} seeds for {m} shots")
        seed_arr = seeds.astype(np.uint64)  # two's complement: each seed modulo 2**64
    else:
        seq = list(seeds)  # type: ignore[arg-type]
        if len(seq) != m:
            raise InvalidShotError(f"{len(seq)} seeds for {m} shots")
        seed_arr = np.array([seed_bits(s) for s in seq], dtype=np.uint64)
    max_events = check_count("max_events", max_events, MAX_EVENTS_LIMIT)
    params = board_params(board)
    layout_sorted, S_lay, L_lay = pack(layout, board, params)
    proto = Disk.striker(striker, 0.0, 0.0, board=board)
    _check_shots(arr, S_lay, L_lay, proto, params)
    ordered = tuple(sorted((*layout_sorted, proto), key=lambda d: d.id))
    s_index = [d.id for d in ordered].index(striker)
    S0 = np.zeros((len(ordered), E.N_SCOL))
    L0 = np.zeros((len(ordered), E.N_LCOL), dtype=np.int64)
    rows = [k for k in range(len(ordered)) if k != s_index]
    S0[rows] = S_lay
    L0[rows] = L_lay
    S0[s_index, E.RAD] = proto.radius
    S0[s_index, E.MASS] = proto.mass
    n = len(ordered)
    # Per shot, only what is reported: (x, y, time out) and (layer, status, pocket, order) of
    # every disk, each quantity contiguous over (M, N) so the result's arrays are views.
    XYT = np.zeros((3, m, n))
    LOUT = np.zeros((E.N_LOUT, m, n), dtype=np.int64)
    OUTi = np.zeros((m, E.N_OUTI), dtype=np.int64)
    OUTf = np.zeros((m, E.N_OUTF))
    RB = np.full((m, E.MAX_RAILS_BEFORE), -1, dtype=np.int64)
    if m:
        with _QUIET or np.errstate(over="ignore"):
            threads = parallel and m >= PARALLEL_MIN_SHOTS
            kernel = E.run_batch_parallel if threads else E.run_batch_serial
            kernel(
                S0,
                L0,
                params,
                s_index,
                arr,
                seed_arr,
                bool(fly_off),
                max_events,
                XYT,
                LOUT,
                OUTi,
                OUTf,
                RB,
            )
    status = LOUT[E.STATUS].astype(np.int8)
    return BatchResult(
        ids=tuple(d.id for d in ordered),
        striker_index=s_index,
        status=status,
        pocket=LOUT[E.POCKET],
        order=LOUT[E.ORDER],
        time_out=XYT[2],
        x=XYT[0],
        y=XYT[1],
        layer=LOUT[E.LAYER],
        first_contact=OUTi[:, 3].copy(),
        first_contact_time=OUTf[:, 0].copy(),
        rails_before=RB,
        n_rails_before=OUTi[:, 4].copy(),
        striker_fate=status[:, s_index].copy(),
        truncated=OUTi[:, 2].astype(bool),
        events_handled=OUTi[:, 1].copy(),
        seeds=seed_arr,
    )


def _check_shots(
    arr: np.ndarray, S: np.ndarray, L: np.ndarray, proto: Disk, params: np.ndarray
) -> None:
    """Every shot's striker within the rails and clear of layer-0 disks (as the engine checks)."""
    limit = params[E.P_HALF] - proto.radius + E.TOUCH
    bad = np.flatnonzero((np.abs(arr[:, 0]) > limit) | (np.abs(arr[:, 1]) > limit))
    if bad.size:
        raise InvalidShotError(
            f"shot {int(bad[0])}: the striker lies beyond the rails / ストライカーが壁の外です"
        )
    floor = L[:, E.LAYER] == 0
    if floor.any():
        rr = S[floor, E.RAD] + proto.radius
        dx = arr[:, 0:1] - S[floor, E.X][None, :]
        dy = arr[:, 1:2] - S[floor, E.Y][None, :]
        hit = dx * dx + dy * dy < rr * rr - 2.0 * rr * E.TOUCH
        rows = np.flatnonzero(hit.any(axis=1))
        if rows.size:
            raise InvalidShotError(
                f"shot {int(rows[0])}: the striker overlaps a piece"
                " / ストライカーが駒に重なっています"
            )
