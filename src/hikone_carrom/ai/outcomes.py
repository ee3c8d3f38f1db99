"""Candidate shots through the physics batch entry point, read as the referee would read them.

Each simulated shot is condensed to a *report key*: the counts the referee's ruling depends on
(pucks of each colour and the jack pocketed or off the board, the striker's fate, and in doubles
whether an unshootable piece was hit first-hand, R4c). Equal keys get equal rulings, so rulings are
computed once per key (see :mod:`hikone_carrom.ai.value`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from hikone_carrom.ai.view import TableView
from hikone_carrom.board import Side
from hikone_carrom.match import Noise, Placement, PlacementKind
from hikone_carrom.match.pieces import JACK_ID, STRIKER_ID, disk_for
from hikone_carrom.match.respot import settle, stack_on_jack_spot
from hikone_carrom.physics import BatchResult, Disk, simulate_batch
from hikone_carrom.rules import Piece, Ruling, ShotReport

__all__ = [
    "KEY_FIELDS",
    "execute",
    "execute_many",
    "layout_after",
    "report_keys",
    "report_of_key",
    "run_shots",
]

KEY_FIELDS = (
    "red_in",
    "green_in",
    "jack_in",
    "red_off",
    "green_off",
    "jack_off",
    "striker_pocketed",
    "striker_off",
    "unshootable_hit",
    "missed",
)
"""Columns of a report key; the last, ``missed`` (the striker touched no disk), is not the
referee's business but a player's: a shot into nothing is a wasted turn."""

_IN, _OFF = 1, 2
_SIDES = tuple(Side)
_MARGIN = 1e-9
"""Distance (m) from a placement rule's boundary within which :func:`execute_many` leaves the
point to the scalar rule (:meth:`Placement.nearest`), so both give the same bits."""


def execute(
    placement: Placement, shot: Sequence[float], noise: Noise, max_speed: float
) -> tuple[float, float, float, float]:
    """The shot (x m, y m, angle rad, speed m/s) as a hand with ``noise`` executes it, exactly as
    :meth:`Match.play <hikone_carrom.match.Match.play>` does (placement moved to the nearest legal
    point, speed kept in [1e-3, max_speed] m/s)."""
    x, y, angle, speed = shot
    if noise.is_zero:
        return x, y, angle, speed
    if placement.kind is PlacementKind.POINT:
        nx, ny = placement.point
    else:
        nx, ny = placement.nearest(x + noise.dx, y + noise.dy)
    speed = min(max(speed * (1.0 + noise.speed_factor), 1e-3), max_speed)
    return nx, ny, math.remainder(angle + noise.dangle, 2.0 * math.pi), speed


def execute_many(
    placement: Placement, shots: np.ndarray, draws: np.ndarray, max_speed: float
) -> np.ndarray:
    """Every shot (S, 4: x m, y m, angle rad, speed m/s) under every draw (D, 4: dx m, dy m,
    dangle rad, speed factor), shot-major: (S * D, 4), bit for bit what :func:`execute` gives
    each pair. Points that are plainly legal (R2b) are kept as they are; only those near or past
    a boundary of the rule go through :meth:`Placement.nearest`."""
    n_shots, n_draws = len(shots), len(draws)
    shot = np.repeat(np.asarray(shots, dtype=np.float64), n_draws, axis=0)
    d = np.tile(np.asarray(draws, dtype=np.float64), (n_shots, 1))
    out = shot.copy()
    moved = ~np.all(d == 0.0, axis=1)  # a zero draw executes the shot exactly as meant
    if not moved.any():
        return out
    if placement.kind is PlacementKind.POINT:
        out[moved, 0], out[moved, 1] = placement.point
    else:
        x, y = shot[:, 0] + d[:, 0], shot[:, 1] + d[:, 1]
        plain = moved & _plainly_legal(placement, x, y)
        out[plain, 0], out[plain, 1] = x[plain], y[plain]
        for k in np.flatnonzero(moved & ~plain):
            out[k, 0], out[k, 1] = placement.nearest(float(x[k]), float(y[k]))
    speed = np.minimum(np.maximum(shot[:, 3] * (1.0 + d[:, 3]), 1e-3), max_speed)
    out[moved, 3] = speed[moved]
    out[moved, 2] = _remainder_2pi(shot[moved, 2] + d[moved, 2])
    return out


def _plainly_legal(placement: Placement, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Where the striker may surely stand (R2b): at least :data:`_MARGIN` inside every rule."""
    board, r = placement.board, placement.radius
    (x0, y0), (x1, y1) = placement.line
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    mx, my = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
    across = np.abs(-(x - mx) * uy + (y - my) * ux)  # distance from the line's axis
    along = np.abs((x - mx) * ux + (y - my) * uy) - 0.5 * length
    reach = np.hypot(across, np.maximum(along, 0.0))
    ok = reach <= r - _MARGIN
    limit = board.half_width - r - _MARGIN
    ok &= (np.abs(x) <= limit) & (np.abs(y) <= limit)
    for cx, cy, clearance in placement.obstacles:
        ok &= np.hypot(x - cx, y - cy) >= clearance + _MARGIN
    return ok


def _remainder_2pi(angle: np.ndarray) -> np.ndarray:
    """``math.remainder(a, 2 pi)`` for each angle (rad): exact for |a| < 3 pi (one subtraction,
    exact by Sterbenz's lemma), the scalar function beyond."""
    two_pi = 2.0 * math.pi
    out = np.where(angle > math.pi, angle - two_pi, angle)
    out = np.where(angle < -math.pi, angle + two_pi, out)
    for k in np.flatnonzero(np.abs(angle) >= 3.0 * math.pi):
        out[k] = math.remainder(float(angle[k]), two_pi)
    return out


def run_shots(
    view: TableView, shots: np.ndarray, seeds: Sequence[int] | np.ndarray, fly_off: bool
) -> BatchResult:
    """Simulate shots (M, 4: x m, y m, angle rad, speed m/s) from the view's layout."""
    velocity = np.empty_like(shots)
    velocity[:, 0] = shots[:, 0]
    velocity[:, 1] = shots[:, 1]
    velocity[:, 2] = shots[:, 3] * np.cos(shots[:, 2])
    velocity[:, 3] = shots[:, 3] * np.sin(shots[:, 2])
    return simulate_batch(
        view.disks,
        velocity,
        board=view.board,
        seeds=seeds if isinstance(seeds, np.ndarray) else list(seeds),
        fly_off=fly_off,
        striker=STRIKER_ID,
    )


def report_keys(view: TableView, batch: BatchResult) -> np.ndarray:
    """(M, 10) int report keys of the batch's shots (columns :data:`KEY_FIELDS`)."""
    ids = batch.ids
    red = np.array([i.startswith("R") for i in ids])
    green = np.array([i.startswith("G") for i in ids])
    jack = np.array([i == JACK_ID for i in ids])
    status = batch.status
    m = len(batch)
    keys = np.zeros((m, len(KEY_FIELDS)), dtype=np.int64)
    keys[:, 0] = (status[:, red] == _IN).sum(axis=1)
    keys[:, 1] = (status[:, green] == _IN).sum(axis=1)
    keys[:, 2] = (status[:, jack] == _IN).sum(axis=1)
    keys[:, 3] = (status[:, red] == _OFF).sum(axis=1)
    keys[:, 4] = (status[:, green] == _OFF).sum(axis=1)
    keys[:, 5] = (status[:, jack] == _OFF).sum(axis=1)
    keys[:, 6] = batch.striker_fate == _IN
    keys[:, 7] = batch.striker_fate == _OFF
    if view.players == 4 and view.unshootable.any():
        # R4: the first contact is an unshootable piece with no bank off another rail before it.
        unshootable = {view.ids[k] for k in np.flatnonzero(view.unshootable)}
        bad_cols = np.array([i in unshootable for i in ids] + [False])
        fc = batch.first_contact
        hit_bad = bad_cols[np.where(fc >= 0, fc, len(ids))]
        own = _SIDES.index(view.side)
        rails = batch.rails_before
        only_own = np.all((rails == own) | (rails < 0), axis=1)
        keys[:, 8] = hit_bad & only_own
    keys[:, 9] = batch.first_contact < 0
    return keys


def report_of_key(key: Sequence[int]) -> ShotReport:
    """The referee's :class:`ShotReport` for a report key."""
    red_in, green_in, jack_in, red_off, green_off, jack_off, s_in, s_off, unshoot = (
        int(v) for v in key[:9]
    )
    return ShotReport(
        pocketed=(Piece.RED,) * red_in + (Piece.GREEN,) * green_in + (Piece.JACK,) * jack_in,
        off_board=(Piece.RED,) * red_off + (Piece.GREEN,) * green_off + (Piece.JACK,) * jack_off,
        striker_pocketed=bool(s_in),
        striker_off_board=bool(s_off),
        unshootable_hit=bool(unshoot),
    )


def layout_after(view: TableView, batch: BatchResult, m: int, ruling: Ruling) -> tuple[Disk, ...]:
    """The layout shot ``m`` of ``batch`` leaves once ``ruling`` is applied (R4c, R5h, R6c-R6e)."""
    if ruling.restored:
        return view.disks
    rest: list[Disk] = []
    left: list[tuple[int, str]] = []
    for k, disk_id in enumerate(batch.ids):
        if disk_id == STRIKER_ID:
            continue
        if batch.status[m, k] == 0:
            rest.append(
                disk_for(
                    view.board,
                    disk_id,
                    float(batch.x[m, k]),
                    float(batch.y[m, k]),
                    int(batch.layer[m, k]),
                )
            )
        else:
            left.append((int(batch.order[m, k]), disk_id))
    left.sort()
    # As the match does: disks rest on what is under them once the striker is lifted (R6e).
    return stack_on_jack_spot(view.board, settle(rest), ruling.returned, [i for _, i in left])
