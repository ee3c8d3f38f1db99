"""simulate(): one shot, from disks in motion to the layout at rest (exact, deterministic)."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from contextlib import nullcontext

import numba
import numpy as np

from hikone_carrom.board import DEFAULT_BOARD, BoardSpec
from hikone_carrom.physics import _engine as E
from hikone_carrom.physics._pack import board_params, check_count, pack, seed_bits
from hikone_carrom.physics.disk import Disk
from hikone_carrom.physics.errors import InvalidLayoutError
from hikone_carrom.physics.result import ShotResult

__all__ = ["DEFAULT_MAX_EVENTS", "MAX_EVENTS_LIMIT", "simulate"]

DEFAULT_MAX_EVENTS = 20_000
"""Event guard per shot: beyond it the shot is cut short and ``ShotResult.truncated`` is set."""
MAX_EVENTS_LIMIT = 10_000_000
"""Largest accepted event guard: a shot of this many events is far beyond any real one."""
FIRST_LOG_ROWS = 1024
"""Rows of each thread's reusable event log; a longer shot is simulated again with room for its
whole log (same result: the engine is deterministic), so memory follows the events that happen,
never the guard."""
_SCRATCH = threading.local()
_QUIET = None if getattr(numba.config, "DISABLE_JIT", False) else nullcontext()
"""Compiled, the engine's unsigned seed arithmetic wraps silently; run as plain Python (tests of
bit-identity without the JIT), numpy's overflow warnings are silenced around it."""


def _log(rows: int) -> tuple[np.ndarray, np.ndarray]:
    """This thread's event log arrays, with at least ``rows`` rows."""
    log: tuple[np.ndarray, np.ndarray] | None = getattr(_SCRATCH, "log", None)
    if log is None or log[0].shape[0] < rows:
        log = (np.empty((rows, E.N_EVF)), np.empty((rows, E.N_EVI), dtype=np.int64))
        _SCRATCH.log = log
    return log


def simulate(
    disks: Iterable[Disk],
    board: BoardSpec = DEFAULT_BOARD,
    striker: str | None = "S",
    seed: int = 0,
    fly_off: bool = True,
    max_events: int = DEFAULT_MAX_EVENTS,
) -> ShotResult:
    """Simulate one shot until every disk rests (docs/physics.md; R5c/R5d/R6c, R6e).

    Args:
        disks: the disks on the board (SI units); any order (the engine sorts them by id).
        board: geometry and constants.
        striker: id of the striker whose first contact and fate are reported, or None.
        seed: seeds the fly-off draws (splitmix64 of seed and event counter).
        fly_off: False switches flying off the board off.
        max_events: guard on handled events (at most 10,000,000); when reached the shot stops
            with ``truncated``. Memory follows the events that happen, not this guard.

    Raises:
        InvalidLayoutError: bad disks, overlaps, unsupported stacks, unknown striker; nothing
            is simulated then.
    """
    params = board_params(board)
    max_events = check_count("max_events", max_events, MAX_EVENTS_LIMIT)
    bits = seed_bits(seed)
    ordered, S, L = pack(disks, board, params)
    ids = [d.id for d in ordered]
    if striker is None:
        s_index = -1
    elif striker in ids:
        s_index = ids.index(striker)
        if ordered[s_index].layer != 0:
            raise InvalidLayoutError(
                f"striker {striker!r} must lie on the board, not on a piece"
                " / ストライカーは盤面に置いてください"
            )
    else:
        raise InvalidLayoutError(
            f"no disk with the striker id {striker!r} / ストライカー {striker!r} がありません"
        )
    fly = bool(fly_off)
    capacity = FIRST_LOG_ROWS
    while True:
        EVf, EVi = _log(capacity)
        outi = np.zeros(E.N_OUTI, dtype=np.int64)
        outf = np.zeros(E.N_OUTF)
        rails = np.full(E.MAX_RAILS_BEFORE, -1, dtype=np.int64)
        with _QUIET or np.errstate(over="ignore"):
            E.run(S, L, params, s_index, bits, fly, max_events, EVf, EVi, outi, outf, rails)
        n_log = int(outi[0])
        if n_log <= EVf.shape[0]:
            break
        capacity = n_log
        _, S, L = pack(ordered, board, params)
    return ShotResult(
        board=board,
        seed=int(seed),
        striker=striker,
        initial=ordered,
        S=S,
        L=L,
        EVf=EVf[:n_log].copy(),
        EVi=EVi[:n_log].copy(),
        outi=outi,
        outf=outf,
        rails=rails,
    )
