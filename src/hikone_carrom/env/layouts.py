"""The layouts of :class:`~.tables.Tables`: every board's pieces at rest as arrays, one column
a disk in the engine's order, moved by a batch of shots and by the pieces put back (R5h,
R6c-R6e) as :class:`~hikone_carrom.match.Match` moves its layout."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hikone_carrom.board import BoardSpec
from hikone_carrom.match.pieces import STRIKER_ID, disk_for, ids_of
from hikone_carrom.match.respot import settle, stack_on_jack_spot, stack_on_jack_spot_of
from hikone_carrom.physics import BatchResult, BoardSet, Disk
from hikone_carrom.rules import Piece, Ruling

__all__ = ["IN", "OFF", "ON", "Layouts"]

ON, IN, OFF = 0, 1, 2
"""A disk's status after a shot (:attr:`BatchResult.status`): on the board, pocketed, off."""


class Layouts:
    """The layouts of ``n`` boards of ``board``, each at the R1a opening to begin with.

    Attributes:
        boardset: the engine's set of disks. ids: the columns (the pieces and the striker).
        column: each id's column. present, x, y, layer: (n, len(ids)) every board at rest (m).
    """

    def __init__(self, n: int, board: BoardSpec) -> None:
        self.board = board
        opening = tuple(disk_for(board, p.id, p.x, p.y) for p in board.opening_layout())
        self.boardset = BoardSet(opening, board, STRIKER_ID)
        self.ids = self.boardset.ids
        col = self.column = {i: k for k, i in enumerate(self.ids)}
        kinds = {d.id: d for d in opening} | {STRIKER_ID: disk_for(board, STRIKER_ID, 0, 0)}
        self._kind = [(kinds[i].radius, kinds[i].mass) for i in self.ids]
        """Each column's radius (m) and mass (kg), as :func:`disk_for` gives them."""
        self._radius = np.array([r for r, _ in self._kind])
        self._piece_columns = {
            piece: [col[d] for d in ids_of(piece)] for piece in (Piece.RED, Piece.GREEN, Piece.JACK)
        }
        """The columns of each piece's disks in index order (the order they go back in)."""
        k = len(self.ids)
        self._open_present = np.zeros(k, dtype=bool)
        self._open_x = np.zeros(k)
        self._open_y = np.zeros(k)
        for d in opening:
            self._open_present[col[d.id]] = True
            self._open_x[col[d.id]] = d.x
            self._open_y[col[d.id]] = d.y
        self.present = np.zeros((n, k), dtype=bool)
        self.x = np.zeros((n, k))
        self.y = np.zeros((n, k))
        self.layer = np.zeros((n, k), dtype=np.int64)
        self._disks: list[dict[int, Disk]] = [{} for _ in range(n)]

    def open(self, i: int) -> None:
        """Board ``i`` at the R1a opening."""
        self.present[i] = self._open_present
        self.x[i] = self._open_x
        self.y[i] = self._open_y
        self.layer[i] = 0

    def layout(self, i: int) -> tuple[Disk, ...]:
        """Board ``i``'s pieces at rest as disks."""
        return self.disks_of(i, self.present[i])

    def disks_of(self, i: int, columns: np.ndarray) -> tuple[Disk, ...]:
        """The disks of board ``i`` in the masked columns; a disk is rebuilt only after it
        moved."""
        disks = self._disks[i]
        xs, ys, ls = self.x[i], self.y[i], self.layer[i]
        out = []
        for k in np.flatnonzero(columns).tolist():
            x, y, layer = float(xs[k]), float(ys[k]), int(ls[k])
            d = disks.get(k)
            if d is None or d.x != x or d.y != y or d.layer != layer:
                radius, mass = self._kind[k]
                d = disks[k] = Disk(self.ids[k], x, y, 0.0, 0.0, radius, mass, layer)
            out.append(d)
        return tuple(out)

    def set_layout(self, i: int, layout: Sequence[Disk]) -> None:
        """Board ``i``'s pieces at rest are ``layout``."""
        self.present[i] = False
        self.x[i] = 0.0
        self.y[i] = 0.0
        self.layer[i] = 0
        for d in layout:
            c = self.column[d.id]
            self.present[i, c] = True
            self.x[i, c] = d.x
            self.y[i, c] = d.y
            self.layer[i, c] = d.layer

    def move(
        self, rows: np.ndarray, rulings: Sequence[Ruling], batch: BatchResult, on: np.ndarray
    ) -> None:
        """The layout each shot of ``batch`` left on board ``rows[k]``, but where the referee
        restored the layout (R4c): that board keeps its own. ``on``: the disks left on the
        board, the striker not among them."""
        kept = [k for k, r in enumerate(rulings) if r.restored]
        if len(kept) == len(rulings):
            return
        moved: slice | np.ndarray = slice(None)
        if kept:
            moved = np.ones(len(rulings), dtype=bool)
            moved[kept] = False
        rows_moved = rows[moved]
        on_moved = on[moved]
        self.present[rows_moved] = on_moved
        self.x[rows_moved] = np.where(on_moved, batch.x[moved], 0.0)
        self.y[rows_moved] = np.where(on_moved, batch.y[moved], 0.0)
        self.layer[rows_moved] = np.where(on_moved, batch.layer[moved], 0)

    def put_back(
        self,
        boards: Sequence[int],
        rulings: Sequence[Ruling],
        batch: BatchResult,
        gone: np.ndarray,
        on: np.ndarray,
    ) -> None:
        """The pieces the rulings return go back to the jack spot (R5h, R6c-R6e), and disks
        resting on the striker drop when it is lifted (R6e), on each moved board."""
        striker = self.boardset.striker_index
        lifted_rows = self._rested_on_striker(batch, on).tolist()
        for k, (i, ruling) in enumerate(zip(boards, rulings, strict=True)):
            if ruling.restored or not (ruling.returned or lifted_rows[k]):
                continue
            left = [c for c in np.flatnonzero(gone[k]).tolist() if c != striker]
            left.sort(key=lambda c: int(batch.order[k, c]))
            if lifted_rows[k]:
                # As the match does: disks rest on what is under them once the striker is lifted
                # (only a disk resting on the striker moves), then pieces go back to the jack
                # spot (R5h, R6c-R6e); with disks, as it is rare.
                after = stack_on_jack_spot(
                    self.board, settle(self.layout(i)), ruling.returned, [self.ids[c] for c in left]
                )
                self.set_layout(i, after)
            else:
                stack_on_jack_spot_of(
                    self.present[i],
                    self.x[i],
                    self.y[i],
                    self.layer[i],
                    self._radius,
                    self._piece_columns,
                    ruling.returned,
                    left,
                )

    def _rested_on_striker(self, batch: BatchResult, on: np.ndarray) -> np.ndarray:
        """(M,) did a disk of each row come to rest on the striker (then it drops when the
        striker is lifted off the board, R6e)?"""
        s = self.boardset.striker_index
        upper = on & (batch.layer > 0)
        rows = np.flatnonzero((batch.status[:, s] == ON) & upper.any(axis=1))
        out = np.zeros(len(batch), dtype=bool)
        if rows.size:
            reach = self.boardset.radius + self.boardset.radius[s]
            dx = batch.x[rows] - batch.x[rows, s : s + 1]
            dy = batch.y[rows] - batch.y[rows, s : s + 1]
            out[rows] = (upper[rows] & (dx * dx + dy * dy < reach * reach)).any(axis=1)
        return out
