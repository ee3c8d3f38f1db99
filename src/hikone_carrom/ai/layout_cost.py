"""What a layout costs the shooter in strikes: each own puck where it lies, and the jack once
it may be pocketed (R6b).

A piece's cost is the strikes a lone piece there takes, one over its chance from the pot
table (:mod:`hikone_carrom.ai.pot_table`); a layout's is the sum over the shooter's pucks on
the board, or the jack's once they are all down. The *gain* of a shot is the cost before it
less the cost of the layout it leaves: a pocketed own puck saves all of its cost, a puck moved
where it is easier some of it, one pushed where it is hard costs more. Alone on the board (the
solo clear) this values every outcome of a shot in the layout it leaves, a miss too, by a map
that does not depend on a noisy estimate of the next shot (docs/ai.md, the twenty-first push).
Before the last puck the jack is not counted: the map would draw it to a pocket's mouth, where
it blocks the pucks' way to that pocket and may fall early (R5b).

The map knows no other piece: a puck against a rail is cheap on it even when the jack blocks
its way to the pocket, and keeping such a puck where it is, is then all the map asks for. So
after :data:`STUCK` strikes in a row that passed the turn without a penalty (same pucks to
go), the player stops counting the layout's cost until a strike keeps the turn
(:func:`failed_in_a_row`).
"""

from __future__ import annotations

import numpy as np

from hikone_carrom.ai.pot_table import pot_table
from hikone_carrom.ai.view import TableView, color_prefix
from hikone_carrom.board import PieceKind
from hikone_carrom.match import Match
from hikone_carrom.match.pieces import JACK_ID
from hikone_carrom.physics import BatchResult

__all__ = ["STUCK", "failed_in_a_row", "layout_gain"]

_ON_BOARD = 0
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


def layout_gain(view: TableView, batch: BatchResult) -> np.ndarray:
    """Strikes each shot of ``batch`` (from ``view``'s layout) saves (M,): the layout's cost
    before it less after it. Pucks pocketed by a shot that owes a penalty (striker pocketed or
    off, R5a, R5c; the jack pocketed or off before the last puck, R5b, R5d) save nothing, since
    the referee may return them (R5h). The jack counts once it may be pocketed (R6b): then
    pocketing it saves its cost.
    Zero for a board other than the table's."""
    table = pot_table()
    if view.board != table.board:
        return np.zeros(len(batch))
    prefix = color_prefix(view.color)
    own = [k for k, disk_id in enumerate(view.ids) if disk_id.startswith(prefix)]
    cols = [batch.ids.index(view.ids[k]) for k in own]
    before = table.strikes(PieceKind.PUCK, view.x[own], view.y[own], view.side)
    after = table.strikes(PieceKind.PUCK, batch.x[:, cols], batch.y[:, cols], view.side)
    on = batch.status[:, cols] == _ON_BOARD
    saved = np.where(on, before[None, :] - after, before[None, :])
    penalized = batch.striker_fate != _ON_BOARD
    if JACK_ID in view.ids and not view.jack_allowed:
        penalized |= batch.status[:, batch.ids.index(JACK_ID)] != _ON_BOARD
    saved[penalized] = np.where(on[penalized], saved[penalized], 0.0)
    gain: np.ndarray = saved.sum(axis=1)
    if view.jack_allowed and JACK_ID in view.ids:
        k, col = view.index(JACK_ID), batch.ids.index(JACK_ID)
        jack_before = float(
            table.strikes(PieceKind.JACK, view.x[k : k + 1], view.y[k : k + 1], view.side)[0]
        )
        jack_after = table.strikes(PieceKind.JACK, batch.x[:, col], batch.y[:, col], view.side)
        jack_on = batch.status[:, col] == _ON_BOARD
        gain = gain + np.where(jack_on, jack_before - jack_after, jack_before)
    return gain
