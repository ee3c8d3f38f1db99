"""What an agent observes: fixed-size arrays, seen from its own seat.

Coordinates are turned by quarter turns so that the observer's rail is always the south one
(y < 0; its area line at y = -0.21 m) whatever its seat (R1c): a policy learnt from one seat
plays from any. The 25 pieces have fixed slots: 0 the jack, 1-12 the observer's pucks, 13-24
the other colour's (R1b; doubles partners share a colour).

Keys of the ``Dict`` observation (every value float32; the flat ``Box`` is their concatenation
in this order, as :func:`gymnasium.spaces.flatten` gives it):

============ ======= =================================================================
key          shape   meaning
============ ======= =================================================================
color        (1,)    the observer's colour: 0 red, 1 green (R1b)
counts       (6,)    own pucks pocketed, own debt (R5i), own pucks on the board, then
                     the same three for the other colour (pucks; at most 255)
extra_round  (1,)    0, or k during the k-th extra round after time (R7c; at most 255)
first_shot   (1,)    1 when the observer's next shot is from the tee spot (R2a)
jack_pile    (1,)    disks lying on other disks: the pile on the jack spot (R5h, R6e)
kind         (25,)   0 the jack, 1 own puck, 2 the other colour's puck (the slots)
layer        (25,)   0 on the board, k on a disk of layer k - 1 (R6e); 0 when not on it
on_board     (25,)   1 while the piece is on the board, 0 in a pocket
position     (50,)   centre (x, y) in m of each slot in turn, in the observer's frame;
                     0 when not on the board
seat         (4,)    the observer's seat, one-hot (seats 2 and 3 only in doubles)
strikes_left (1,)    share of the episode's strike cap left
time_called  (1,)    1 once time has been called (R7b)
time_left    (1,)    share of the shots left before time is called (R7b); 1 when untimed,
                     0 once called
turn         (1,)    1 when the observer shoots now
============ ======= =================================================================

Every value is one-dimensional, as Stable-Baselines3's ``MultiInputPolicy`` expects.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.env.memory import remember, shared_memo
from hikone_carrom.env.tables import PIECES, Tables
from hikone_carrom.rules import Color, RefereeState
from hikone_carrom.rules.pieces import PUCKS_PER_COLOR

__all__ = ["FLAT_SIZE", "KEYS", "Observer", "observation_space", "slots"]

N_PIECES = len(PIECES)
COUNT_CAP = 255.0
"""Counts (debt can grow without end, R5i) are clipped to this."""
SEATS = 4
KEYS = (
    "color",
    "counts",
    "extra_round",
    "first_shot",
    "jack_pile",
    "kind",
    "layer",
    "on_board",
    "position",
    "seat",
    "strikes_left",
    "time_called",
    "time_left",
    "turn",
)
"""The keys in the order of :class:`gymnasium.spaces.Dict` (sorted) and of the flat ``Box``."""
_SHAPES = {
    "color": (1,),
    "counts": (6,),
    "extra_round": (1,),
    "first_shot": (1,),
    "jack_pile": (1,),
    "kind": (N_PIECES,),
    "layer": (N_PIECES,),
    "on_board": (N_PIECES,),
    "position": (2 * N_PIECES,),
    "seat": (SEATS,),
    "strikes_left": (1,),
    "time_called": (1,),
    "time_left": (1,),
    "turn": (1,),
}
# the referee's part of a row (Observer._row): counts, first shot, turn, colour, time called,
# extra round, seat one-hot
_ROW = 6 + 5 + SEATS
FLAT_SIZE = sum(int(np.prod(s)) for s in _SHAPES.values())
_KIND = np.array([0.0] + [1.0] * PUCKS_PER_COLOR + [2.0] * PUCKS_PER_COLOR, dtype=np.float32)
# (cos, sin) of the quarter turn that brings each side to the south
_TURN = {
    Side.SOUTH: (1.0, 0.0),
    Side.WEST: (0.0, 1.0),
    Side.NORTH: (-1.0, 0.0),
    Side.EAST: (0.0, -1.0),
}


def observation_space(board: BoardSpec, flat: bool = False) -> spaces.Space[Any]:
    """The ``Dict`` space of the table above, or the flat ``Box`` of its concatenation."""
    h = board.half_width
    low = {
        "color": 0.0,
        "extra_round": 0.0,
        "seat": 0.0,
        "strikes_left": 0.0,
        "time_called": 0.0,
        "counts": 0.0,
        "first_shot": 0.0,
        "jack_pile": 0.0,
        "kind": 0.0,
        "layer": 0.0,
        "on_board": 0.0,
        "position": -h,
        "time_left": 0.0,
        "turn": 0.0,
    }
    high = {
        "color": 1.0,
        "extra_round": COUNT_CAP,
        "seat": 1.0,
        "strikes_left": 1.0,
        "time_called": 1.0,
        "counts": COUNT_CAP,
        "first_shot": 1.0,
        "jack_pile": float(N_PIECES),
        "kind": 2.0,
        "layer": float(N_PIECES),
        "on_board": 1.0,
        "position": h,
        "time_left": 1.0,
        "turn": 1.0,
    }
    boxes: dict[str, spaces.Space[Any]] = {
        k: spaces.Box(low[k], high[k], _SHAPES[k], dtype=np.float32) for k in KEYS
    }
    if not flat:
        return spaces.Dict(boxes)
    lo = np.concatenate([np.full(int(np.prod(_SHAPES[k])), low[k]) for k in KEYS])
    hi = np.concatenate([np.full(int(np.prod(_SHAPES[k])), high[k]) for k in KEYS])
    return spaces.Box(lo.astype(np.float32), hi.astype(np.float32), dtype=np.float32)


def slots(tables: Tables, color: Color) -> np.ndarray:
    """The layout columns of the 25 slots for an observer of ``color``."""
    own, other = ("R", "G") if color is Color.RED else ("G", "R")
    order = ["J"] + [f"{own}{k}" for k in range(PUCKS_PER_COLOR)]
    order += [f"{other}{k}" for k in range(PUCKS_PER_COLOR)]
    return np.array([tables.ids.index(i) for i in order])


class Observer:
    """Builds the observations of several boards at once, each seen from one seat.

    Args:
        tables: the boards. flat: give the flat ``Box`` instead of the ``Dict``.
    """

    def __init__(self, tables: Tables, flat: bool = False) -> None:
        self.tables = tables
        self.flat = flat
        self.space = observation_space(tables.board, flat)
        self._slots = np.stack([slots(tables, c) for c in Color])  # by Color.index
        self._turns = np.array(
            [_TURN[tables.board.seat_side(seat, tables.players)] for seat in range(tables.players)]
        )
        self._rows: dict[tuple[int, int], tuple[int, tuple[float, ...]]] = shared_memo(
            "observations", tables.players, tables.options
        )
        # each board's last observed state (number) and seat, with its colour and scalars
        self._seen = [(-1, -1)] * tables.n
        self._colors = np.zeros(tables.n, dtype=np.int64)
        self._scalars = np.zeros((tables.n, _ROW), dtype=np.float32)

    def observe(
        self,
        boards: Sequence[int],
        seats: Sequence[int],
        strikes_left: Sequence[float] | np.ndarray,
        time_left: Sequence[float] | np.ndarray,
    ) -> dict[str, np.ndarray] | np.ndarray:
        """Observations of ``boards`` (stacked on a first axis), board k seen from ``seats[k]``
        with ``strikes_left[k]`` of its strike cap and ``time_left[k]`` of its shots before time
        left (shares in [0, 1])."""
        t = self.tables
        board_rows = np.asarray(boards, dtype=np.int64)
        rows = board_rows[:, None]
        m = len(rows)
        memo, sids, seen = self._rows, t.sids, self._seen
        for i, seat in zip(boards, seats, strict=True):
            key = (sids[i], seat)
            if seen[i] != key:
                color, row = memo.get(key) or self._row(i, seat)
                self._colors[i] = color
                self._scalars[i] = row
                seen[i] = key
        # (board, slot) -> index into the flattened layout arrays
        at = rows * t.present.shape[1] + self._slots[self._colors[board_rows]]
        present = t.present.ravel()[at]
        layer = t.layer.ravel()[at]
        turn = self._turns[np.asarray(seats, dtype=np.int64)].reshape(m, 2)
        c, s = turn[:, :1], turn[:, 1:]
        x, y = t.x.ravel()[at], t.y.ravel()[at]
        position = np.empty((m, N_PIECES, 2), dtype=np.float32)
        position[:, :, 0] = c * x - s * y
        position[:, :, 1] = s * x + c * y
        position[~present] = 0.0
        scalars = self._scalars[board_rows]
        budget = np.empty((m, 2), dtype=np.float32)
        budget[:, 0] = strikes_left
        budget[:, 1] = time_left
        obs = {
            "color": scalars[:, 8:9],
            "counts": scalars[:, :6],
            "extra_round": scalars[:, 10:11],
            "first_shot": scalars[:, 6:7],
            "jack_pile": (layer > 0).sum(axis=1, keepdims=True, dtype=np.float32),
            "kind": np.repeat(_KIND[None], m, axis=0),
            "layer": layer.astype(np.float32),
            "on_board": present.astype(np.float32),
            "position": position.reshape(m, 2 * N_PIECES),
            "seat": scalars[:, 11:],
            "strikes_left": budget[:, :1],
            "time_called": scalars[:, 9:10],
            "time_left": budget[:, 1:],
            "turn": scalars[:, 7:8],
        }
        if self.flat:
            return np.concatenate([obs[k].reshape(m, -1) for k in KEYS], axis=1)
        return {k: np.ascontiguousarray(v) for k, v in obs.items()}

    def _row(self, i: int, seat: int) -> tuple[int, tuple[float, ...]]:
        """The observer's colour (index) and the referee's part of its observation of board
        ``i`` (counts, first shot, turn, colour, time called, extra round, seat), found and
        remembered by the state's key (:meth:`Tables.state_id`: all of the state but the count
        of shots, which is not observed)."""
        state: RefereeState = self.tables.states[i]
        color = state.color(seat)
        own, other = color.index, 1 - color.index
        counts = (
            state.pocketed[own],
            state.debt[own],
            PUCKS_PER_COLOR - state.pocketed[own],
            state.pocketed[other],
            state.debt[other],
            PUCKS_PER_COLOR - state.pocketed[other],
        )
        row = (
            *(min(float(c), COUNT_CAP) for c in counts),
            float(state.is_first_shot(seat)),
            float(state.shooter == seat and state.outcome is None),
            float(color.index),
            float(state.time_called),
            min(float(state.extra_round), COUNT_CAP),
            *(float(k == seat) for k in range(SEATS)),
        )
        return remember(self._rows, (self.tables.sids[i], seat), (color.index, row))
