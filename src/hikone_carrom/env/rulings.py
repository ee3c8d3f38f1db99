"""The referee of every board of :class:`~.tables.Tables`: each shot reported as the codes of
the disks that left the board, and the referee's transitions (:func:`~hikone_carrom.rules.apply`,
:func:`~hikone_carrom.rules.pass_turn`) remembered by the state's number and that report, shared
by every environment of the process."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from hikone_carrom.board import Side
from hikone_carrom.env.layouts import OFF
from hikone_carrom.env.memory import remember, shared_memo
from hikone_carrom.match.pieces import STRIKER_ID, piece_of
from hikone_carrom.physics import BatchResult
from hikone_carrom.rules import Piece, RefereeState, Ruling, ShotReport, apply, pass_turn

if TYPE_CHECKING:
    from hikone_carrom.env.tables import Tables

__all__ = ["Known", "Rulings", "state_key"]

_LAST = np.iinfo(np.int64).max
"""An order after every disk's that left the board."""
_GROUP = 1 << 16
"""More than the disks of a board: ranks the pocketed pieces, then those off the board, then
the striker, each group in the order they left."""
_SIDES = tuple(Side)
_REPORTED: tuple[Piece | None, ...] = (None, Piece.RED, Piece.GREEN, Piece.JACK)
"""The pieces of a shot's report codes (``None``: the striker)."""
_STATE_IDS = itertools.count()
"""The numbers given to referee states (:meth:`Rulings.state_id`), never reused in a process."""

Known = tuple[RefereeState, Ruling, int]
"""A remembered transition: the state it leads to, the ruling, the new state's number."""


def state_key(state: RefereeState) -> tuple[object, ...]:
    """What a ruling depends on besides the report: all of the state but the count of shots
    (the options are the tables'; a finished game keys its outcome, and the referee refuses
    it the first time, so it is never remembered). The rulings are remembered by it: they
    depend on the state only through its counts and turn, and a game meets the same few
    again and again."""
    return (
        state.shooter,
        state.pocketed,
        state.debt,
        state.jack,
        state.has_shot,
        state.time_called,
        state.extra_round,
        state.awaiting_lot,
        state.outcome,
    )


class Rulings:
    """The rulings on the boards of ``tables`` (their states move on in ``tables.states`` and
    ``tables.sids``)."""

    def __init__(self, tables: Tables) -> None:
        self._tables = tables
        players, options = tables.players, tables.options
        pieces = [None if i == STRIKER_ID else piece_of(i) for i in tables.ids]
        self.code = np.array([_REPORTED.index(p) for p in pieces], dtype=np.int64) << 1
        """Each column's piece as a report code (:data:`_REPORTED` index, doubled: the low bit
        tells a disk that flew off from a pocketed one)."""
        self._sids: dict[tuple[object, ...], int] = shared_memo("state ids", players, options)
        self._memo: dict[tuple[object, ...], Known] = shared_memo("rulings", players, options)

    def state_id(self, state: RefereeState) -> int:
        """The number of ``state``'s :func:`state_key`, given the first time it is met and
        shared by every environment of the process (a number is never given twice: one
        forgotten when the memory is cleared still names its state)."""
        key = state_key(state)
        sid = self._sids.get(key)
        if sid is None:
            sid = remember(self._sids, key, next(_STATE_IDS))
        return sid

    def judge(self, boards: Sequence[int], batch: BatchResult, gone: np.ndarray) -> list[Ruling]:
        """The referee's ruling on each row of ``batch`` (board ``boards[k]``); the states move
        on. A shot is reported as the codes (:attr:`code`) of the disks that left the board: the
        pieces pocketed, then those off the board, each in the order they left, then the
        striker; rulings are remembered by the state's number and that report."""
        t = self._tables
        reports = self._reports(len(boards), batch, gone)
        memo, states, sids = self._memo, t.states, t.sids
        doubles = t.players == 4
        rulings = []
        for k, i in enumerate(boards):
            unshootable = doubles and self._unshootable_hit(i, batch, k)
            key = (sids[i], reports[k], unshootable)
            known = memo.get(key)
            state = states[i]
            if known is None:
                known = self._remember(key, apply(state, _report_of(reports[k], unshootable)))
            states[i] = _counted(known[0], state.shots + 1)
            sids[i] = known[2]
            rulings.append(known[1])
        return rulings

    def passed(self, i: int, forced: bool) -> Ruling:
        """The turn of board ``i`` passes (R3d; ``forced``: the striker had nowhere to go)."""
        t = self._tables
        state = t.states[i]
        key = (t.sids[i], "pass", forced)
        known = self._memo.get(key)
        if known is None:
            known = self._remember(key, pass_turn(state, no_placement=forced))
        t.states[i] = _counted(known[0], state.shots)
        t.sids[i] = known[2]
        return known[1]

    def _reports(self, n: int, batch: BatchResult, gone: np.ndarray) -> list[tuple[int, ...]]:
        """Each row's report: the codes of the disks that left, in the report's order."""
        reports: list[tuple[int, ...]] = [()] * n
        left = np.flatnonzero(gone.any(axis=1))
        if left.size:
            g = gone[left]
            off = batch.status[left] == OFF
            # what the report says: the pieces pocketed in order, those off the board in order,
            # the striker's fate (so shots reported alike share a ruling)
            rank = batch.order[left] + _GROUP * (off + 2 * (self.code == 0))
            order = np.argsort(np.where(g, rank, _LAST), axis=1, kind="stable")
            codes = self.code + off
            width = codes.shape[1]
            in_order = codes.ravel()[order + width * np.arange(len(left))[:, None]].tolist()
            for k, row, m in zip(left.tolist(), in_order, g.sum(axis=1).tolist(), strict=True):
                reports[k] = tuple(row[:m])
        return reports

    def _remember(self, key: tuple[object, ...], known: tuple[RefereeState, Ruling]) -> Known:
        """Remember a transition of the referee by ``key`` with the number of the state it leads
        to."""
        entry = (known[0], known[1], self.state_id(known[0]))
        return remember(self._memo, key, entry)

    def _unshootable_hit(self, i: int, batch: BatchResult, k: int) -> bool:
        """R4a-R4c (doubles): the striker's first contact was wholly inside the shooter's own
        area, with no bank off another rail before it (as :func:`report_of` reads it)."""
        c = int(batch.first_contact[k])
        if c < 0:
            return False
        t = self._tables
        side = t.board.seat_side(t.states[i].shooter, t.players)
        rails = batch.rails_before[k, : batch.n_rails_before[k]]
        if any(_SIDES[int(r)] is not side for r in rails):
            return False
        return t.board.wholly_inside_own_area(
            side, float(t.x[i, c]), float(t.y[i, c]), float(t.boardset.radius[c])
        )


def _counted(state: RefereeState, shots: int) -> RefereeState:
    """``state`` with ``shots`` shots counted. Only the count (>= 0) differs from a validated
    state, so the copy needs no new validation."""
    if state.shots == shots:
        return state
    fields = state.__dict__.copy()
    fields["shots"] = shots
    copy = object.__new__(RefereeState)
    object.__setattr__(copy, "__dict__", fields)  # frozen: set as dataclasses do
    return copy


def _report_of(codes: tuple[int, ...], unshootable: bool) -> ShotReport:
    """The referee's report of a shot whose disks left the board as ``codes`` say (in the order
    they left; :attr:`Rulings.code`)."""
    pocketed: tuple[Piece, ...] = ()
    off: tuple[Piece, ...] = ()
    striker_in = striker_off = False
    for code in codes:
        piece = _REPORTED[code >> 1]
        if piece is None:
            striker_off = bool(code & 1)
            striker_in = not striker_off
        elif code & 1:
            off += (piece,)
        else:
            pocketed += (piece,)
    return ShotReport(pocketed, off, striker_in, striker_off, unshootable)
