"""Many games of Hikone Carrom at once: layouts as arrays, one physics batch a step, the referee
per board.

:class:`Tables` is the engine under every environment of :mod:`hikone_carrom.env`. Each board is
a game exactly as :meth:`Match.play <hikone_carrom.match.Match.play>` plays it, shot for shot:
the placement checked and the hand's noise applied by the match's :class:`Placement`
(R2a, R2b), the physics seeded by :func:`~hikone_carrom.match.shot_seed`, the referee's
:func:`~hikone_carrom.rules.apply` (R3-R7) and the re-spotting of :mod:`hikone_carrom.match`
(R5h, R6c-R6e). The physics is batched (:func:`~hikone_carrom.physics.simulate_boards`, every
board's shot in one call), and so are the hand's move (:mod:`~.hand`), the placement on the
free line (:mod:`~.placements`), the seeds, the shots' reports, the layouts' updates and the
pieces put back (:mod:`~.layouts`); the referee rules per board, its transitions remembered by
the state's number (:meth:`Tables.state_id`) and the report (:mod:`~.rulings`).
:meth:`Tables.match` replays a board's history (:mod:`~.history`) through
:class:`~hikone_carrom.match.Match`, which gives the same game (tested) and its record.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from hikone_carrom.board import BoardSpec
from hikone_carrom.env.hand import struck
from hikone_carrom.env.history import CALL_TIME, PASS, Entry, Stroke, replay
from hikone_carrom.env.layouts import ON, Layouts
from hikone_carrom.env.placements import LinePlacements
from hikone_carrom.env.rulings import Rulings, state_key
from hikone_carrom.match import (
    IllegalShotError,
    Match,
    Noise,
    NoPlacementError,
    Placement,
    Shot,
    shot_seeds,
)
from hikone_carrom.match.pieces import all_ids
from hikone_carrom.physics import BatchResult, Disk, simulate_boards
from hikone_carrom.rules import (
    Color,
    RefereeState,
    RuleOptions,
    Ruling,
    UntimedMatchError,
    call_time,
    decide_lot,
)

__all__ = ["PIECES", "Stroke", "Tables"]

PIECES: tuple[str, ...] = all_ids()
"""The 25 pieces' ids: "J", "R0".."R11", "G0".."G11" (R1a)."""


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
        layouts, lines, rulings: the boards' layouts (:class:`~.layouts.Layouts`), placements
            (:class:`~.placements.LinePlacements`) and referee (:class:`~.rulings.Rulings`).
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
        layouts = self.layouts = Layouts(n, self.board)
        self.boardset = layouts.boardset
        self.ids = layouts.ids
        self.columns = np.array([layouts.column[i] for i in PIECES])
        """Column of each of :data:`PIECES`."""
        self.present, self.x, self.y, self.layer = (
            layouts.present,
            layouts.x,
            layouts.y,
            layouts.layer,
        )
        self.rulings = Rulings(self)
        initial = self._initial = RefereeState.initial(players, self.options)
        self.states: list[RefereeState] = [initial] * n
        self.sids: list[int] = [self.state_id(initial)] * n
        self.seeds = [0] * n
        self.actions = np.zeros(n, dtype=np.int64)
        self.shots = np.zeros(n, dtype=np.int64)
        self.physics_time = 0.0
        self.history: list[list[Entry]] = [[] for _ in range(n)]
        self._start: list[Match | None] = [None] * n
        self.lines = LinePlacements(self)
        for i in range(n):
            self.reset(i, 0)

    # -- a board's game ---------------------------------------------------------------------

    def reset(self, i: int, seed: int) -> None:
        """Board ``i`` back to the R1a opening, its match seeded ``seed`` (>= 0)."""
        self.layouts.open(i)
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
        self.layouts.set_layout(i, match.layout)
        self._start[i] = match

    def layout(self, i: int) -> tuple[Disk, ...]:
        """Board ``i``'s pieces at rest as disks."""
        return self.layouts.layout(i)

    def placements(self, boards: Sequence[int]) -> list[Placement | NoPlacementError]:
        """:meth:`placement` of each of ``boards`` (the pieces near each line found at once);
        a board whose striker has nowhere to go gives its :class:`NoPlacementError`."""
        return self.lines.of(boards)

    def placement(self, i: int) -> Placement:
        """Where board ``i``'s shooter may put the striker now (R2a, R2b), as
        :meth:`Match.legal_placement` gives it (see :mod:`~.placements`).

        Raises:
            NoPlacementError: the striker has nowhere to go (the reading
                ``covered_area_line = "pass"``): the turn passes (:meth:`pass_turn`).
        """
        return self.lines.one(i)

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
        placements = self._checked(boards, meant, placements, legal)
        batch = self._simulate(boards, rows, struck(meant, hands, placements, self.board.max_speed))
        gone = batch.status > ON  # pocketed or off the board
        on = batch.status == ON
        on[:, self.boardset.striker_index] = False
        rulings = self.rulings.judge(boards, batch, gone)
        history = self.history
        for i, row in zip(boards, np.concatenate([meant, hands], axis=1), strict=True):
            history[i].append(row)
        self.actions[rows] += 1
        self.shots[rows] += 1
        self.layouts.move(rows, rulings, batch, on)
        self.layouts.put_back(boards, rulings, batch, gone, on)
        return rulings

    def _checked(
        self,
        boards: Sequence[int],
        meant: np.ndarray,
        placements: Sequence[Placement] | None,
        legal: bool,
    ) -> Sequence[Placement]:
        """The placements of ``boards`` (``placements``, or found now), once every board is
        playing and every shot legal (unless ``legal`` says it is); raises
        :class:`IllegalShotError` otherwise."""
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
        return found if placements is None else placements

    def _simulate(
        self, boards: Sequence[int], rows: np.ndarray, executed: np.ndarray
    ) -> BatchResult:
        """One physics batch: the shots ``executed`` on boards ``rows``, seeded as the match
        seeds them; its wall time counts in :attr:`physics_time`."""
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
        return batch

    # -- the referee -------------------------------------------------------------------------

    @staticmethod
    def state_key(state: RefereeState) -> tuple[object, ...]:
        """What a ruling depends on besides the report (:func:`~.rulings.state_key`)."""
        return state_key(state)

    def state_id(self, state: RefereeState) -> int:
        """The number of ``state``'s :meth:`state_key`, given the first time it is met and shared
        by every environment of the process (a number is never given twice: one forgotten when
        the memory is cleared still names its state)."""
        return self.rulings.state_id(state)

    def _set_state(self, i: int, state: RefereeState) -> None:
        self.states[i] = state
        self.sids[i] = self.state_id(state)

    def pass_turn(self, i: int) -> Ruling:
        """Board ``i``'s shooter takes no shot and the turn passes without penalty (R3d), as
        :meth:`Match.pass_turn`: forced when the striker has nowhere to go (R2b reading
        ``covered_area_line = "pass"``), else a pass the rules leave to practice (the empty
        seat of a solo clear)."""
        return self.pass_turns([i])[0]

    def pass_turns(self, boards: Sequence[int]) -> list[Ruling]:
        """:meth:`pass_turn` on each of ``boards``."""
        check = self.options.covered_area_line == "pass"
        rulings = []
        for i in boards:
            forced = False
            if check:
                try:
                    self.placement(i)
                except NoPlacementError:
                    forced = True
            rulings.append(self.rulings.passed(i, forced))
            self.history[i].append(PASS)
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
        self.history[i].append(CALL_TIME)

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
        return replay(match, self.history[i])

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
