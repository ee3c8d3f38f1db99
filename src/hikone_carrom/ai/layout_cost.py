"""What a layout costs the shooter in strikes: each own puck where it lies, and the jack once
it may be pocketed (R6b).

A piece's cost is the strikes a lone piece there takes, one over its chance from the pot
table (:mod:`hikone_carrom.ai.pot_table`) by its best pocket; a layout's is the sum over the
shooter's pucks on the board, or the jack's once they are all down. The *gain* of a shot is the
cost before it less the cost of the layout it leaves: a pocketed own puck saves all of its
cost, a puck moved where it is easier some of it, one pushed where it is hard costs more. Alone
on the board (the solo clear) the expert values every outcome of a shot this way, in the layout
it really leaves, a miss too: a smooth figure that does not depend on which noise draw happened
to fall, where the next shot's simulated chance is a noisy estimate in one as-meant layout.
Before the last puck the jack is not counted: the map would draw it to a pocket's mouth, where
it blocks the pucks' way to that pocket and may fall early (R5b).

Once at most :data:`OPEN` own pucks are left, a pocket another piece stands in the way to (its
centre within touching distance of the straight path from the puck to the pocket) keeps only
:data:`BLOCKED` of its chance: a puck against a rail with the jack between it and its pocket is
dear, and moving the jack or pocketing the puck in the way pays. With more pucks left they are
bunched, every path is blocked and any strike opens some, which the table cannot weigh (counted
from the first strike, the expert played the opening for the spread instead of a pot). The
straight path is all it checks, so after :data:`STUCK` strikes in a row that passed the turn
without a penalty (same pucks to go), the player stops counting the layout's cost until a
strike keeps the turn (:func:`failed_in_a_row`): a puck the map rates cheap but that is blocked
in a way it does not see could otherwise be left where it is, strike after strike.
"""

from __future__ import annotations

import numpy as np

from hikone_carrom.ai.pot_table import FLOOR, pot_table
from hikone_carrom.ai.view import TableView, color_prefix
from hikone_carrom.board import PieceKind
from hikone_carrom.match import Match
from hikone_carrom.match.pieces import JACK_ID
from hikone_carrom.physics import BatchResult

__all__ = ["BLOCKED", "OPEN", "STUCK", "failed_in_a_row", "layout_costs", "layout_gain"]

_ON_BOARD = 0
OPEN = 6
"""Own pucks to go from which a piece in the way to a pocket counts."""
BLOCKED = 0.5
"""Share of a pocket's chance left when a piece stands in the way to it."""
STUCK = 4
"""Strikes in a row that passed the turn after which the layout's cost is not counted."""


def failed_in_a_row(match: Match, seat: int) -> int:
    """How many of ``seat``'s last shots in a row passed the turn without a penalty (R3a, R5):
    strikes that left its pucks to go as they were."""
    count = 0
    for action in reversed(match.actions):
        if action.seat != seat or action.play is None:
            continue
        ruling = action.play.ruling
        if ruling.continues or ruling.penalty:
            break
        count += 1
    return count


def layout_costs(
    view: TableView,
    kind: PieceKind,
    pieces: list[int],
    x: np.ndarray,
    y: np.ndarray,
    on: np.ndarray,
) -> np.ndarray:
    """Strikes the ``pieces`` (indices into ``view``'s arrays) of ``kind`` cost in M layouts of
    the view's pieces (``x``, ``y`` m and ``on`` the board, each (M, N)): (M, len(pieces)). A
    piece's cost is its best pocket's in the pot table; with at most :data:`OPEN` of them, a
    pocket another piece on the board stands in the way to keeps :data:`BLOCKED` of its chance
    (at least the table's ``FLOOR``)."""
    table = pot_table(view.board)
    px, py = x[:, pieces], y[:, pieces]
    cost = table.pocket_strikes(kind, px, py, view.side)
    if len(pieces) <= OPEN:
        reach = (view.r[pieces][:, None] + view.r[None, :]) ** 2
        other = on[:, None, :] & (np.asarray(pieces)[:, None] != np.arange(len(view.ids)))
        rx, ry = x[:, None, :] - px[..., None], y[:, None, :] - py[..., None]
        for b, (cx, cy) in enumerate(view.board.pocket_centres()):
            dx, dy = (cx - px)[..., None], (cy - py)[..., None]
            t = (rx * dx + ry * dy) / (dx * dx + dy * dy)  # along the path: 0 puck, 1 pocket
            tc = np.minimum(t, 1.0)
            near = (rx - tc * dx) ** 2 + (ry - tc * dy) ** 2 < reach
            blocked = (other & near & (t > 0.0)).any(axis=-1)
            cost[..., b] = np.where(blocked, cost[..., b] / BLOCKED, cost[..., b])
    out: np.ndarray = np.minimum(cost.min(axis=-1), 1.0 / FLOOR)
    return out


def layout_gain(view: TableView, batch: BatchResult) -> np.ndarray:
    """Strikes each shot of ``batch`` (from ``view``'s layout) saves (M,): the layout's cost
    before it less after it (:func:`layout_costs`). Pucks pocketed by a shot that owes a penalty
    (striker pocketed or off, R5a, R5c; the jack pocketed or off before the last puck, R5b,
    R5d) save nothing, since the referee may return them (R5h). The jack counts once it may
    be pocketed (R6b): then pocketing it saves its cost.
    Zero for a board other than the table's."""
    if view.board != pot_table(view.board).board:
        return np.zeros(len(batch))
    prefix = color_prefix(view.color)
    own = [k for k, disk_id in enumerate(view.ids) if disk_id.startswith(prefix)]
    cols = [batch.ids.index(disk_id) for disk_id in view.ids]
    x0, y0, on0 = view.x[None], view.y[None], np.ones((1, len(view.ids)), dtype=bool)
    x1, y1 = batch.x[:, cols], batch.y[:, cols]
    on1 = batch.status[:, cols] == _ON_BOARD
    before = layout_costs(view, PieceKind.PUCK, own, x0, y0, on0)[0]
    after = layout_costs(view, PieceKind.PUCK, own, x1, y1, on1)
    on = on1[:, own]
    saved = np.where(on, before[None, :] - after, before[None, :])
    penalized = batch.striker_fate != _ON_BOARD
    if JACK_ID in view.ids and not view.jack_allowed:
        penalized |= batch.status[:, batch.ids.index(JACK_ID)] != _ON_BOARD
    saved[penalized] = np.where(on[penalized], saved[penalized], 0.0)
    gain: np.ndarray = saved.sum(axis=1)
    if view.jack_allowed and JACK_ID in view.ids:
        jack = [view.index(JACK_ID)]
        jack_before = layout_costs(view, PieceKind.JACK, jack, x0, y0, on0)[0, 0]
        jack_after = layout_costs(view, PieceKind.JACK, jack, x1, y1, on1)[:, 0]
        gain = gain + np.where(on1[:, jack[0]], jack_before - jack_after, jack_before)
    return gain
