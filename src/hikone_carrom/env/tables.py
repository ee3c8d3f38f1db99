"""Many games of Hikone Carrom at once: layouts as arrays, one physics batch a step, the referee
per board.

:class:`Tables` is the engine under every environment of :mod:`hikone_carrom.env`. Each board is
a game exactly as :meth:`Match.play <hikone_carrom.match.Match.play>` plays it, shot for shot:
the placement checked and the hand's noise applied by the match's :class:`Placement`
(R2a, R2b), the physics seeded by :func:`~hikone_carrom.match.shot_seed`, the referee's
:func:`~hikone_carrom.rules.apply` (R3-R7) and the re-spotting of :mod:`hikone_carrom.match`
(R5h, R6c-R6e). The physics is batched (:func:`~hikone_carrom.physics.simulate_boards`, every
board's shot in one call), and so are the hand's move
(:func:`~hikone_carrom.match.hand.hands_moved`, the placement on the free line by
:func:`~hikone_carrom.match.placement.surely_free`), the
seeds, the shots' reports, the layouts' updates and the pieces put back
(:func:`~hikone_carrom.match.respot.stack_on_jack_spot_of`); the referee rules per board, its
transitions remembered by the state's number (:meth:`Tables.state_id`) and the report.
:meth:`Tables.match` replays a board's history through :class:`~hikone_carrom.match.Match`,
which gives the same game (tested) and its record.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from typing import Any, NamedTuple, TypeVar

import numpy as np

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match import (
    IllegalShotError,
    Match,
    Noise,
    NoPlacementError,
    Placement,
    PlacementKind,
    Shot,
    hand_moved,
    legal_placement,
    shot_seeds,
)
from hikone_carrom.match.hand import FEW, hands_moved
from hikone_carrom.match.pieces import STRIKER_ID, all_ids, disk_for, ids_of, piece_of
from hikone_carrom.match.respot import settle, stack_on_jack_spot, stack_on_jack_spot_of
from hikone_carrom.physics import BatchResult, BoardSet, Disk, simulate_boards
from hikone_carrom.rules import (
    Color,
    Piece,
    RefereeState,
    RuleOptions,
    Ruling,
    ShotReport,
    UntimedMatchError,
    apply,
    call_time,
    decide_lot,
    pass_turn,
)

__all__ = ["PIECES", "Stroke", "Tables"]

PIECES: tuple[str, ...] = all_ids()
"""The 25 pieces' ids: "J", "R0".."R11", "G0".."G11" (R1a)."""

_ON, _IN, _OFF = 0, 1, 2
_LAST = np.iinfo(np.int64).max
"""An order after every disk's that left the board."""
_GROUP = 1 << 16
"""More than the disks of a board: ranks the pocketed pieces, then those off the board, then
the striker, each group in the order they left."""
_SIDES = tuple(Side)
_REPORTED: tuple[Piece | None, ...] = (None, Piece.RED, Piece.GREEN, Piece.JACK)
"""The pieces of a shot's report codes (``None``: the striker)."""
_STATE_IDS = itertools.count()
"""The numbers given to referee states (:meth:`Tables.state_id`), never reused in a process."""
_SHARED: dict[tuple[object, ...], dict[Any, Any]] = {}


def shared_memo(*scope: object) -> dict[Any, Any]:
    """The memory of ``scope`` (what it remembers and for which game and board) shared by every
    environment of this process: what is remembered is a pure function of its key (a ruling of
    a state and report, a placement of the pieces near a line, an observation of a state), so
    a new environment starts from what earlier ones found."""
    return _SHARED.setdefault(scope, {})


_K = TypeVar("_K")
_V = TypeVar("_V")
MEMO = 100_000
"""Entries a memory holds before it is cleared (:func:`remember`)."""


def remember(memo: dict[_K, _V], key: _K, value: _V) -> _V:
    """``memo[key] = value``, the memory cleared first once it holds :data:`MEMO` entries (a
    long run meets more states than it should keep); returns ``value``."""
    if len(memo) >= MEMO:
        memo.clear()
    memo[key] = value
    return value


class Stroke(NamedTuple):
    """An entry of a board's history other than a shot: a pass (R3d), time called (R7b) or a
    lot decided (R7d, ``winner``)."""

    kind: str
    winner: Color | None = None


Entry = Stroke | np.ndarray
"""An entry of a board's history: a :class:`Stroke`, or a shot as an (8,) array: (x m, y m,
angle rad, speed m/s) as meant, then the hand's noise (dx m, dy m, dangle rad, speed factor), a
row of its batch's array (no object of its own for the garbage collector to follow)."""


class Tables:
    """``n`` boards of one kind of game (singles or doubles), each from its own seed.

    Args:
        n: number of boards. players: 2 or 4. options: the rule options; a timed match's
            clock is never read: the caller counts time (e.g. in shots) and calls
            :meth:`call_time` (R7b). board: the board. fly_off: as in :class:`Match`.

    Attributes:
        ids: the columns of the layout arrays (the pieces and the striker, the engine's order).
        present, x, y, layer: (n, len(ids)) the layout of every board at rest (m).
        states: each board's referee state. sids: the number of each board's state
            (:meth:`state_id`: equal for states equal but for the count of shots, on which no
            ruling depends). seeds: each board's match seed.
        shots: shots taken on each board (lost turns excluded).
        physics_time: wall time spent in the physics batches so far, s (the rest of a step is
            the referee, the placements and the observations).
    """

    def __init__(
        self,
        n: int,
        players: int = 2,
        options: RuleOptions | None = None,
        board: BoardSpec | None = None,
        fly_off: bool = True,
    ) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"the number of boards must be a positive int, got {n!r}")
        self.n = n
        self.players = players
        self.options = options or RuleOptions()
        self.board = board or BoardSpec()
        self.fly_off = fly_off
        opening = tuple(disk_for(self.board, p.id, p.x, p.y) for p in self.board.opening_layout())
        self.boardset = BoardSet(opening, self.board, STRIKER_ID)
        self.ids = self.boardset.ids
        col = {i: k for k, i in enumerate(self.ids)}
        self.columns = np.array([col[i] for i in PIECES])
        """Column of each of :data:`PIECES`."""
        pieces = [None if i == STRIKER_ID else piece_of(i) for i in self.ids]
        self._code = np.array([_REPORTED.index(p) for p in pieces], dtype=np.int64) << 1
        """Each column's piece as a report code (:data:`_REPORTED` index, doubled: the low bit
        tells a disk that flew off from a pocketed one)."""
        self._column = col
        kinds = {d.id: d for d in opening} | {STRIKER_ID: disk_for(self.board, STRIKER_ID, 0, 0)}
        self._kind = [(kinds[i].radius, kinds[i].mass) for i in self.ids]
        """Each column's radius (m) and mass (kg), as :func:`disk_for` gives them."""
        self._radius = np.array([r for r, _ in self._kind])
        self._piece_columns = {
            piece: [col[d] for d in ids_of(piece)] for piece in (Piece.RED, Piece.GREEN, Piece.JACK)
        }
        """The columns of each piece's disks in index order (the order they go back in)."""
        self._open_present = np.zeros(len(self.ids), dtype=bool)
        self._open_x = np.zeros(len(self.ids))
        self._open_y = np.zeros(len(self.ids))
        for d in opening:
            self._open_present[col[d.id]] = True
            self._open_x[col[d.id]] = d.x
            self._open_y[col[d.id]] = d.y
        k = len(self.ids)
        self.present = np.zeros((n, k), dtype=bool)
        self.x = np.zeros((n, k))
        self.y = np.zeros((n, k))
        self.layer = np.zeros((n, k), dtype=np.int64)
        self._sids: dict[tuple[object, ...], int] = shared_memo("state ids", players, self.options)
        initial = self._initial = RefereeState.initial(players, self.options)
        self.states: list[RefereeState] = [initial] * n
        self.sids: list[int] = [self.state_id(initial)] * n
        self.seeds = [0] * n
        self.actions = np.zeros(n, dtype=np.int64)
        self.shots = np.zeros(n, dtype=np.int64)
        self.physics_time = 0.0
        self.history: list[list[Entry]] = [[] for _ in range(n)]
        self._disks: list[dict[int, Disk]] = [{} for _ in range(n)]
        self._start: list[Match | None] = [None] * n
        self._ends = np.zeros((players, 4))
        for seat in range(players):
            segment = self.board.area_line(self.board.seat_side(seat, players))
            self._ends[seat] = (segment.a.x, segment.a.y, segment.b.x, segment.b.y)
        reach = self.boardset.radius + 2.0 * self.board.striker_radius + 1e-6
        self._reach2 = reach * reach
        self._rulings: dict[tuple[object, ...], tuple[RefereeState, Ruling, int]] = shared_memo(
            "rulings", players, self.options
        )
        self._placements: dict[tuple[int, bytes], Placement] = shared_memo(
            "placements", self.board, players, self.options.covered_area_line
        )
        self._first_shots: dict[int, bool] = shared_memo("first shots", players, self.options)
        """Whether the shooter of a state (by number) shoots from the tee spot (R2a)."""
        for i in range(n):
            self.reset(i, 0)

    # -- a board's game ---------------------------------------------------------------------

    def reset(self, i: int, seed: int) -> None:
        """Board ``i`` back to the R1a opening, its match seeded ``seed`` (>= 0)."""
        self.present[i] = self._open_present
        self.x[i] = self._open_x
        self.y[i] = self._open_y
        self.layer[i] = 0
        self._set_state(i, self._initial)
        self.seeds[i] = int(seed)
        self.actions[i] = 0
        self.shots[i] = 0
        self.history[i] = []
        self._start[i] = None

    def set_position(self, i: int, match: Match) -> None:
        """Board ``i`` continues from ``match``'s position (layout, referee state and seed), with
        no history: a set problem, or a curriculum's start."""
        self.reset(i, match.seed)
        self._set_state(i, match.referee.state)
        self._set_layout(i, match.layout)
        self._start[i] = match

    def layout(self, i: int) -> tuple[Disk, ...]:
        """Board ``i``'s pieces at rest as disks."""
        return self._disks_of(i, self.present[i])

    def _disks_of(self, i: int, columns: np.ndarray) -> tuple[Disk, ...]:
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

    def placements(self, boards: Sequence[int]) -> list[Placement | NoPlacementError]:
        """:meth:`placement` of each of ``boards`` (the pieces near each line found at once);
        a board whose striker has nowhere to go gives its :class:`NoPlacementError`."""
        rows = np.asarray(boards, dtype=np.int64)
        states, sids, firsts = self.states, self.sids, self._first_shots
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

    def _near_keys(self, rows: np.ndarray, near: np.ndarray) -> list[bytes]:
        """Each row's pieces near its line (which, where, on what layer) as bytes: what a later
        shot's placement depends on (with the seat); empty for a line no piece is near (most)."""
        keys = [b""] * len(rows)
        some = np.flatnonzero(near.any(axis=1))
        if some.size:
            near = near[some]
            at = rows[some]
            packed = np.concatenate(
                [
                    near,
                    np.where(near, self.x[at], 0.0),
                    np.where(near, self.y[at], 0.0),
                    np.where(near, self.layer[at], 0),
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
        ends = self._ends[seats]  # (M, 4): x0, y0, x1, y1
        x0, y0 = ends[:, 0:1], ends[:, 1:2]
        dx, dy = ends[:, 2:3] - x0, ends[:, 3:4] - y0
        px, py = self.x[rows] - x0, self.y[rows] - y0
        t = np.clip((px * dx + py * dy) / (dx * dx + dy * dy), 0.0, 1.0)
        ex, ey = px - t * dx, py - t * dy
        near: np.ndarray = self.present[rows] & (ex * ex + ey * ey <= self._reach2)
        return near

    def placement(self, i: int) -> Placement:
        """Where board ``i``'s shooter may put the striker now (R2a, R2b), as
        :meth:`Match.legal_placement` gives it.

        For a later shot (R2b) only the pieces that can reach a striker overlapping the area line
        are passed as obstacles first (centre within a piece's and two strikers' radii of the
        line): the others can block no place on the line or its lanes, and the placement's
        questions (free parts, nearest point, checks) then look at a handful of pieces, not 25.
        Only the rare point beyond a wholly covered line needs them all.

        Raises:
            NoPlacementError: the striker has nowhere to go (the reading
                ``covered_area_line = "pass"``): the turn passes (:meth:`pass_turn`).
        """
        rows = np.array([i])
        near = self._near_line(rows, np.array([self.states[i].shooter]))
        return self._placement(i, near[0], self._near_keys(rows, near)[0])

    def _placement(self, i: int, near: np.ndarray, near_key: bytes) -> Placement:
        state = self.states[i]
        seat = state.shooter
        reading = self.options.covered_area_line
        if not state.is_first_shot(seat):
            # remembered by the pieces near the line: the same few come back shot after shot
            key = (seat, near_key)
            placement = self._placements.get(key)
            if placement is None:
                placement = legal_placement(
                    self.board, seat, self.players, False, self._disks_of(i, near), reading
                )
                remember(self._placements, key, placement)
            if placement.kind is PlacementKind.LINE:
                return placement
        return legal_placement(
            self.board, seat, self.players, state.is_first_shot(seat), self.layout(i), reading
        )

    def is_over(self, i: int) -> bool:
        """Board ``i``'s game has a result (R7)."""
        return self.states[i].outcome is not None

    def play(
        self,
        boards: Sequence[int],
        shots: Sequence[Shot],
        noises: Sequence[Noise],
        placements: Sequence[Placement] | None = None,
    ) -> list[Ruling]:
        """Play one shot for the shooter of each of ``boards`` (one physics batch) and rule on it.

        Each shot must be legal now (R2a, R2b; speed in (0, max_speed] m/s); the noise moves it
        as :meth:`Match.play` does (placement to the nearest legal point). ``placements`` may
        pass each board's :meth:`placement` if the caller already has it.

        Raises:
            IllegalShotError: a shot is not legal; nothing changed on any board.
        """
        meant = np.array([(s.x, s.y, s.angle, s.speed) for s in shots], dtype=np.float64)
        hands = np.array([(n.dx, n.dy, n.dangle, n.speed_factor) for n in noises])
        return self.play_arrays(boards, meant.reshape(-1, 4), hands.reshape(-1, 4), placements)

    def play_arrays(
        self,
        boards: Sequence[int],
        meant: np.ndarray,
        hands: np.ndarray,
        placements: Sequence[Placement] | None = None,
        legal: bool = False,
    ) -> list[Ruling]:
        """:meth:`play` with the shots as an (M, 4) array of (x m, y m, angle rad, speed m/s) and
        the hand's noise as an (M, 4) array of (dx m, dy m, dangle rad, speed factor), as
        :class:`Noise` holds it. ``legal``: the caller made the shots legal for ``placements``
        (:func:`~hikone_carrom.env.actions.meant_of` does), so they are not checked again.

        Raises:
            IllegalShotError: a shot is not legal; nothing changed on any board.
        """
        if not boards:
            return []
        rows = np.asarray(boards, dtype=np.int64)
        max_speed = self.board.max_speed
        states = self.states
        speed = meant[:, 3]
        bad_speed = (~((speed > 0.0) & (speed <= max_speed))).tolist()
        found: list[Placement] = []
        meant_xy = None if legal else meant[:, :2].tolist()
        for k, i in enumerate(boards):
            state = states[i]
            if state.outcome is not None or state.awaiting_lot:
                raise IllegalShotError("The game is over", "ゲームは終了しています")
            if bad_speed[k]:
                raise IllegalShotError(
                    f"Speed must be above 0 and at most {max_speed} m/s",
                    f"速さは0より大きく{max_speed} m/sまでにしてください",
                )
            if placements is None:
                found.append(self.placement(i))
            if meant_xy is not None:
                placement = found[k] if placements is None else placements[k]
                problem = placement.why_not(*meant_xy[k])
                if problem is not None:
                    raise problem
        if placements is None:
            placements = found
        executed = self._executed(meant, hands, placements)
        seeds = shot_seeds([self.seeds[i] for i in boards], self.actions[rows])
        start = time.perf_counter()
        batch = simulate_boards(
            self.boardset,
            self.present[rows],
            self.x[rows],
            self.y[rows],
            self.layer[rows],
            executed,
            seeds,
            fly_off=self.fly_off,
        )
        self.physics_time += time.perf_counter() - start
        status = batch.status
        gone = status > _ON  # pocketed or off the board
        on = status == _ON
        on[:, self.boardset.striker_index] = False
        rulings = self._judge(boards, batch, gone)
        history = self.history
        for i, row in zip(boards, np.concatenate([meant, hands], axis=1), strict=True):
            history[i].append(row)
        self.actions[rows] += 1
        self.shots[rows] += 1
        kept = [k for k, r in enumerate(rulings) if r.restored]
        if len(kept) < len(rulings):
            # the layout each shot left (a board the referee restored keeps its own, R4c)
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
                self._set_layout(i, after)
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
        return rulings

    def _executed(
        self, meant: np.ndarray, hands: np.ndarray, placements: Sequence[Placement]
    ) -> np.ndarray:
        """(M, 4) the shots as struck, (x m, y m, vx m/s, vy m/s): moved by the hand's noise as
        :meth:`Match.play` moves them (the placement to the nearest legal point, R2b), the same
        numbers."""
        if len(meant) < FEW:
            rows = []
            max_speed = self.board.max_speed
            for p, shot, noise in zip(placements, meant.tolist(), hands.tolist(), strict=True):
                x, y, angle, speed = shot
                if noise[0] != 0.0 or noise[1] != 0.0 or noise[2] != 0.0 or noise[3] != 0.0:
                    x, y, angle, speed = hand_moved(p, (x, y, angle, speed), noise, max_speed)
                rows.append((x, y, speed * math.cos(angle), speed * math.sin(angle)))
            return np.array(rows, dtype=np.float64).reshape(-1, 4)
        out = hands_moved(placements, meant, hands, self.board.max_speed)
        angles = out[:, 2].tolist()
        speeds = out[:, 3].tolist()
        out[:, 2] = [s * math.cos(a) for s, a in zip(speeds, angles, strict=True)]
        out[:, 3] = [s * math.sin(a) for s, a in zip(speeds, angles, strict=True)]
        return out

    def _judge(self, boards: Sequence[int], batch: BatchResult, gone: np.ndarray) -> list[Ruling]:
        """The referee's ruling on each row of ``batch`` (board ``boards[k]``); the states move
        on. A shot is reported as the codes (:attr:`_code`) of the disks that left the board: the
        pieces pocketed, then those off the board, each in the order they left, then the
        striker; rulings are remembered by the state's number and that report."""
        reports: list[tuple[int, ...]] = [()] * len(boards)
        left = np.flatnonzero(gone.any(axis=1))
        if left.size:
            g = gone[left]
            off = batch.status[left] == _OFF
            # what the report says: the pieces pocketed in order, those off the board in order,
            # the striker's fate (so shots reported alike share a ruling)
            rank = batch.order[left] + _GROUP * (off + 2 * (self._code == 0))
            order = np.argsort(np.where(g, rank, _LAST), axis=1, kind="stable")
            codes = self._code + off
            width = codes.shape[1]
            in_order = codes.ravel()[order + width * np.arange(len(left))[:, None]].tolist()
            for k, row, n in zip(left.tolist(), in_order, g.sum(axis=1).tolist(), strict=True):
                reports[k] = tuple(row[:n])
        memo, states, sids = self._rulings, self.states, self.sids
        doubles = self.players == 4
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

    def _rested_on_striker(self, batch: BatchResult, on: np.ndarray) -> np.ndarray:
        """(M,) did a disk of each row come to rest on the striker (then it drops when the
        striker is lifted off the board, R6e)?"""
        s = self.boardset.striker_index
        upper = on & (batch.layer > 0)
        rows = np.flatnonzero((batch.status[:, s] == _ON) & upper.any(axis=1))
        out = np.zeros(len(batch), dtype=bool)
        if rows.size:
            reach = self.boardset.radius + self.boardset.radius[s]
            dx = batch.x[rows] - batch.x[rows, s : s + 1]
            dy = batch.y[rows] - batch.y[rows, s : s + 1]
            out[rows] = (upper[rows] & (dx * dx + dy * dy < reach * reach)).any(axis=1)
        return out

    @staticmethod
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

    def state_id(self, state: RefereeState) -> int:
        """The number of ``state``'s :meth:`state_key`, given the first time it is met and shared
        by every environment of the process (a number is never given twice: one forgotten when
        the memory is cleared still names its state)."""
        key = self.state_key(state)
        sid = self._sids.get(key)
        if sid is None:
            sid = remember(self._sids, key, next(_STATE_IDS))
        return sid

    def _remember(
        self, key: tuple[object, ...], known: tuple[RefereeState, Ruling]
    ) -> tuple[RefereeState, Ruling, int]:
        """Remember a transition of the referee by ``key`` with the number of the state it leads
        to."""
        entry = (known[0], known[1], self.state_id(known[0]))
        return remember(self._rulings, key, entry)

    def _set_state(self, i: int, state: RefereeState) -> None:
        self.states[i] = state
        self.sids[i] = self.state_id(state)

    def _unshootable_hit(self, i: int, batch: BatchResult, k: int) -> bool:
        """R4a-R4c (doubles): the striker's first contact was wholly inside the shooter's own
        area, with no bank off another rail before it (as :func:`report_of` reads it)."""
        c = int(batch.first_contact[k])
        if c < 0:
            return False
        side = self.board.seat_side(self.states[i].shooter, self.players)
        rails = batch.rails_before[k, : batch.n_rails_before[k]]
        if any(_SIDES[int(r)] is not side for r in rails):
            return False
        return self.board.wholly_inside_own_area(
            side, float(self.x[i, c]), float(self.y[i, c]), float(self.boardset.radius[c])
        )

    def _set_layout(self, i: int, layout: Sequence[Disk]) -> None:
        self.present[i] = False
        self.x[i] = 0.0
        self.y[i] = 0.0
        self.layer[i] = 0
        for d in layout:
            c = self._column[d.id]
            self.present[i, c] = True
            self.x[i, c] = d.x
            self.y[i, c] = d.y
            self.layer[i, c] = d.layer

    def pass_turn(self, i: int) -> Ruling:
        """Board ``i``'s shooter takes no shot and the turn passes without penalty (R3d), as
        :meth:`Match.pass_turn`: forced when the striker has nowhere to go (R2b reading
        ``covered_area_line = "pass"``), else a pass the rules leave to practice (the empty
        seat of a solo clear)."""
        return self.pass_turns([i])[0]

    def pass_turns(self, boards: Sequence[int]) -> list[Ruling]:
        """:meth:`pass_turn` on each of ``boards``."""
        states, sids, memo, history = self.states, self.sids, self._rulings, self.history
        check = self.options.covered_area_line == "pass"
        rulings = []
        for i in boards:
            state = states[i]
            forced = False
            if check:
                try:
                    self.placement(i)
                except NoPlacementError:
                    forced = True
            key = (sids[i], "pass", forced)
            known = memo.get(key)
            if known is None:
                known = self._remember(key, pass_turn(state, no_placement=forced))
            states[i] = _counted(known[0], state.shots)
            sids[i] = known[2]
            history[i].append(_PASS)
            rulings.append(known[1])
        self.actions[np.asarray(boards, dtype=np.int64)] += 1
        return rulings

    def call_time(self, i: int) -> None:
        """R7b on board ``i``: time is up; the round is finished, then the game decided.

        Raises:
            UntimedMatchError: the options set no time limit (as :meth:`Match.call_time`).
        """
        if not self.options.timed:
            raise UntimedMatchError(
                "call_time: this match has no time limit, so there is no R7b "
                "(RuleOptions.match_time_s is None)",
                "call_time：この試合には試合時間がないためR7bは使えません"
                "（RuleOptions.match_time_s が None）",
            )
        self._set_state(i, call_time(self.states[i]))
        self.actions[i] += 1
        self.history[i].append(_CALL_TIME)

    def decide_lot(self, i: int, winner: Color) -> None:
        """R7d (``deadlock="lot"``) on board ``i``: the rock-paper-scissors winner."""
        self._set_state(i, decide_lot(self.states[i], winner))
        self.actions[i] += 1
        self.history[i].append(Stroke("lot", winner=winner))

    def match(self, i: int) -> Match:
        """Board ``i``'s game replayed through :class:`Match` (for its record, replay, hints)."""
        start = self._start[i]
        if start is None:
            match = Match(self.players, self.options, self.board, self.seeds[i], self.fly_off)
        else:
            layout, state = start.layout, start.referee.state
            match = Match.from_position(
                layout, state, board=self.board, seed=self.seeds[i], fly_off=self.fly_off
            )
        for stroke in self.history[i]:
            if isinstance(stroke, np.ndarray):
                x, y, angle, speed, dx, dy, dangle, factor = stroke.tolist()
                match.play(Shot(x, y, angle, speed), Noise(dx, dy, dangle, factor))
            elif stroke.kind == "pass":
                match.pass_turn()
            elif stroke.kind == "call_time":
                match.call_time()
            else:
                assert stroke.winner is not None
                match.decide_lot(stroke.winner)
        return match

    def position(self, i: int) -> Match:
        """A match starting from board ``i``'s position now (no history): what a computer player
        decides on."""
        return Match.from_position(
            self.layout(i),
            self.states[i],
            board=self.board,
            seed=self.seeds[i],
            fly_off=self.fly_off,
        )


_PASS = Stroke("pass")
_CALL_TIME = Stroke("call_time")


def _counted(state: RefereeState, shots: int) -> RefereeState:
    """``state`` with ``shots`` shots counted. Only the count (>= 0) differs from a validated
    state, so the copy needs no new validation."""
    if state.shots == shots:
        return state
    fields = state.__dict__.copy()
    fields["shots"] = shots
    counted = object.__new__(RefereeState)
    object.__setattr__(counted, "__dict__", fields)  # frozen: set as dataclasses do
    return counted


def _report_of(codes: tuple[int, ...], unshootable: bool) -> ShotReport:
    """The referee's report of a shot whose disks left the board as ``codes`` say (in the order
    they left; :attr:`Tables._code`)."""
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
