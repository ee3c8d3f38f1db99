"""Where each board's shooter may put the striker (R2a, R2b), as
:meth:`Match.legal_placement <hikone_carrom.match.Match.legal_placement>` gives it, found for
many boards of :class:`~.tables.Tables` at once.

For a later shot (R2b) only the pieces that can reach a striker overlapping the area line are
passed as obstacles first (centre within a piece's and two strikers' radii of the line): the
others can block no place on the line or its lanes, and the placement's questions (free parts,
nearest point, checks) then look at a handful of pieces, not 25. Only the rare point beyond a
wholly covered line needs them all. Placements are remembered by the pieces near the line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from hikone_carrom.env.memory import remember, shared_memo
from hikone_carrom.match import NoPlacementError, Placement, PlacementKind, legal_placement

if TYPE_CHECKING:
    from hikone_carrom.env.tables import Tables

__all__ = ["LinePlacements"]


class LinePlacements:
    """The placements of the boards of ``tables``."""

    def __init__(self, tables: Tables) -> None:
        self._tables = tables
        board, players = tables.board, tables.players
        self._ends = np.zeros((players, 4))
        for seat in range(players):
            segment = board.area_line(board.seat_side(seat, players))
            self._ends[seat] = (segment.a.x, segment.a.y, segment.b.x, segment.b.y)
        reach = tables.boardset.radius + 2.0 * board.striker_radius + 1e-6
        self._reach2 = reach * reach
        self._placements: dict[tuple[int, bytes], Placement] = shared_memo(
            "placements", board, players, tables.options.covered_area_line
        )
        self._first_shots: dict[int, bool] = shared_memo("first shots", players, tables.options)
        """Whether the shooter of a state (by number) shoots from the tee spot (R2a)."""

    def of(self, boards: Sequence[int]) -> list[Placement | NoPlacementError]:
        """The placement of each of ``boards`` (the pieces near each line found at once), or
        the :class:`NoPlacementError` of a board whose striker has nowhere to go."""
        t = self._tables
        rows = np.asarray(boards, dtype=np.int64)
        states, sids, firsts = t.states, t.sids, self._first_shots
        seats = [states[i].shooter for i in boards]
        near = self._near_line(rows, np.array(seats, dtype=np.int64))
        keys = self._near_keys(rows, near)
        memo = self._placements
        out: list[Placement | NoPlacementError] = []
        for k, i in enumerate(boards):
            # most shots: a later shot (R2b) whose pieces near the line were met before
            found = memo.get((seats[k], keys[k]))
            if found is not None and found.kind is PlacementKind.LINE:
                first = firsts.get(sids[i])
                if first is None:
                    first = remember(firsts, sids[i], states[i].is_first_shot(seats[k]))
                if not first:
                    out.append(found)
                    continue
            try:
                out.append(self._placement(i, near[k], keys[k]))
            except NoPlacementError as err:
                out.append(err)
        return out

    def one(self, i: int) -> Placement:
        """The placement of board ``i``; raises :class:`NoPlacementError` when the striker has
        nowhere to go."""
        rows = np.array([i])
        near = self._near_line(rows, np.array([self._tables.states[i].shooter]))
        return self._placement(i, near[0], self._near_keys(rows, near)[0])

    def _near_keys(self, rows: np.ndarray, near: np.ndarray) -> list[bytes]:
        """Each row's pieces near its line (which, where, on what layer) as bytes: what a later
        shot's placement depends on (with the seat); empty for a line no piece is near (most)."""
        t = self._tables
        keys = [b""] * len(rows)
        some = np.flatnonzero(near.any(axis=1))
        if some.size:
            near = near[some]
            at = rows[some]
            packed = np.concatenate(
                [
                    near,
                    np.where(near, t.x[at], 0.0),
                    np.where(near, t.y[at], 0.0),
                    np.where(near, t.layer[at], 0),
                ],
                axis=1,
                dtype=np.float64,
            )
            for k, row in zip(some.tolist(), packed, strict=True):
                keys[k] = row.tobytes()
        return keys

    def _near_line(self, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """(len(rows), N) the pieces of each board that can reach a striker overlapping its
        shooter's area line: centre within a piece's and two strikers' radii of the line."""
        t = self._tables
        ends = self._ends[seats]  # (M, 4): x0, y0, x1, y1
        x0, y0 = ends[:, 0:1], ends[:, 1:2]
        dx, dy = ends[:, 2:3] - x0, ends[:, 3:4] - y0
        px, py = t.x[rows] - x0, t.y[rows] - y0
        tt = np.clip((px * dx + py * dy) / (dx * dx + dy * dy), 0.0, 1.0)
        ex, ey = px - tt * dx, py - tt * dy
        near: np.ndarray = t.present[rows] & (ex * ex + ey * ey <= self._reach2)
        return near

    def _placement(self, i: int, near: np.ndarray, near_key: bytes) -> Placement:
        t = self._tables
        state = t.states[i]
        seat = state.shooter
        reading = t.options.covered_area_line
        if not state.is_first_shot(seat):
            # remembered by the pieces near the line: the same few come back shot after shot
            key = (seat, near_key)
            placement = self._placements.get(key)
            if placement is None:
                placement = legal_placement(
                    t.board, seat, t.players, False, t.layouts.disks_of(i, near), reading
                )
                remember(self._placements, key, placement)
            if placement.kind is PlacementKind.LINE:
                return placement
        return legal_placement(
            t.board, seat, t.players, state.is_first_shot(seat), t.layout(i), reading
        )
