"""A game in progress: a placed, aimed striker -> physics -> report -> referee -> re-spot (R1-R8).

:class:`Match` joins the exact physics and the referee. Every shot, human, computer or remote,
takes one checked path, :meth:`Match.play`; :meth:`Match.undo` returns to the snapshot before the
last action, exactly.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

import numpy as np

from hikone_carrom.board import BoardSpec
from hikone_carrom.match.errors import (
    GameOverShotError,
    IllegalLayoutError,
    IllegalShotError,
    LotPendingShotError,
    NoPlacementError,
)
from hikone_carrom.match.hand import hand_moved
from hikone_carrom.match.layout import check_layout
from hikone_carrom.match.physics_report import report_of, unshootable_pieces
from hikone_carrom.match.pieces import STRIKER_ID, disk_for, piece_of
from hikone_carrom.match.placement import Placement, legal_placement
from hikone_carrom.match.respot import settle, stack_on_jack_spot
from hikone_carrom.match.shot import Noise, Shot
from hikone_carrom.physics import Disk, ShotResult, simulate
from hikone_carrom.rules import (
    Color,
    InvalidSeatError,
    MatchClock,
    NothingToUndoError,
    Outcome,
    Piece,
    Referee,
    RefereeState,
    RuleOptions,
    Ruling,
    ShotReport,
    StateFormatError,
    UntimedMatchError,
)

__all__ = [
    "Action",
    "ActionKind",
    "ClockReading",
    "Match",
    "MatchState",
    "PlayResult",
    "shot_seed",
    "shot_seeds",
]

_MASK = (1 << 64) - 1


def shot_seed(seed: int, index: int) -> int:
    """The physics seed of action ``index`` of a match seeded ``seed`` (splitmix64; 63-bit)."""
    z = (seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) & ((1 << 63) - 1)


def shot_seeds(seeds: Sequence[int], indexes: np.ndarray) -> np.ndarray:
    """:func:`shot_seed` of many matches at once: (M,) uint64, the same numbers (uint64
    arithmetic wraps modulo 2**64 as the masks do)."""
    u = np.uint64
    s = np.array([seed & _MASK for seed in seeds], dtype=np.uint64)
    z = s * u(0x9E3779B97F4A7C15) + (np.asarray(indexes).astype(np.uint64) + u(1)) * u(
        0xBF58476D1CE4E5B9
    )
    z = (z ^ (z >> u(30))) * u(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> u(27))) * u(0x94D049BB133111EB)
    out: np.ndarray = (z ^ (z >> u(31))) & u((1 << 63) - 1)
    return out


@dataclass(frozen=True)
class PlayResult:
    """What one shot did.

    Attributes:
        seat: who shot. shot: what the player asked for. noise: execution noise applied.
        executed: the shot as simulated (placement, angle and speed after noise).
        before, after: the layout at rest before the shot and after the ruling was applied.
        result: the physics' account (event log, tracks). report: what the referee was told.
        ruling: what it meant (R3-R7).
    """

    seat: int
    shot: Shot
    noise: Noise
    executed: Shot
    before: tuple[Disk, ...]
    result: ShotResult
    report: ShotReport
    ruling: Ruling
    after: tuple[Disk, ...]

    def to_dict(self, *, tracks: bool = True) -> dict[str, Any]:
        """Plain JSON: the shot, its physical outcome (with the animation tracks) and the ruling."""
        out: dict[str, Any] = {
            "seat": self.seat,
            "shot": self.shot.to_dict(),
            "noise": self.noise.to_dict(),
            "executed": self.executed.to_dict(),
            "report": self.report.to_dict(),
            "ruling": self.ruling.to_dict(),
            "layout": layout_to_dict(self.after),
        }
        if tracks:
            out["physics"] = self.result.to_dict()
        return out


class ActionKind(StrEnum):
    """The kinds of action a match records."""

    SHOT = "shot"
    SKIP = "skip"  # R8a: the 10 seconds passed
    PASS = "pass"  # R3d: no shot (R2b reading: nowhere to place the striker; or practice)
    CALL_TIME = "call_time"  # R7b
    LOT = "lot"  # R7d: the organisers' rock-paper-scissors result
    RESIGN = "resign"  # a side gave up: the other colour wins
    DRAW = "draw"  # both sides agreed to a draw


@dataclass(frozen=True)
class Action:
    """One entry of the match's history: a shot with its result, or a referee action.

    ``seat`` is who acted (for a time call, whose turn it was; for a draw, the seat whose
    acceptance made it, ``offered_by`` the seat that offered it)."""

    kind: ActionKind
    seat: int
    play: PlayResult | None = None
    ruling: Ruling | None = None
    lot_winner: Color | None = None
    offered_by: int | None = None


def layout_to_dict(layout: Sequence[Disk]) -> list[dict[str, Any]]:
    """Plain JSON of a layout at rest: id, x, y (m), layer."""
    return [{"id": d.id, "x": d.x, "y": d.y, "layer": d.layer} for d in layout]


@dataclass(frozen=True)
class ClockReading:
    """The match clock at one moment (R7b, R8a): seconds used and left, whether the 10-second
    rule applies, and the seconds left for the current shot under it (``None`` if it does not)."""

    elapsed: float
    remaining: float
    ten_second_rule: bool
    shot_remaining: float | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict."""
        return {
            "elapsed": self.elapsed,
            "remaining": self.remaining,
            "ten_second_rule": self.ten_second_rule,
            "shot_remaining": self.shot_remaining,
        }


@dataclass(frozen=True)
class MatchState:
    """Everything a player sees now: the layout with its stacks, the referee's counts, whose
    turn it is, and the clock of a timed match."""

    layout: tuple[Disk, ...]
    referee: RefereeState
    shooter: int
    actions: int
    clock: ClockReading | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict."""
        return {
            "layout": layout_to_dict(self.layout),
            "referee": self.referee.to_dict(),
            "shooter": self.shooter,
            "actions": self.actions,
            "clock": None if self.clock is None else self.clock.to_dict(),
        }


@dataclass
class _Snapshot:
    layout: tuple[Disk, ...]
    referee: RefereeState
    actions: int


@dataclass
class Match:
    """A game of Hikone Carrom, singles (``players=2``) or doubles (4), from the R1a opening.

    Args:
        players: 2 or 4. options: the rule options (readings of docs/rules.md). board: the board.
        seed: seeds the physics of every shot (fly-off, R5c/R5d/R6c); same seed and shots -> same
            game, bit for bit. fly_off: let hard rail impacts send disks off the board.
        now: the time source (s, monotonic) of a timed match's clock (``options.match_time_s``);
            the clock only decides when :meth:`tick` calls time or skips a shot, and those actions
            are recorded, so a replay needs no clock.
    """

    players: int = 2
    options: RuleOptions = field(default_factory=RuleOptions)
    board: BoardSpec = field(default_factory=BoardSpec)
    seed: int = 0
    fly_off: bool = True
    now: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)
    _layout: tuple[Disk, ...] = field(init=False, repr=False)
    _referee: Referee = field(init=False, repr=False)
    _actions: list[Action] = field(init=False, repr=False)
    _undo: list[_Snapshot] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {self.seed!r}")
        self._referee = Referee(self.players, self.options)
        self._layout = tuple(
            disk_for(self.board, p.id, p.x, p.y) for p in self.board.opening_layout()
        )
        self._actions = []
        self._undo = []
        self._start: tuple[tuple[Disk, ...], RefereeState] | None = None
        self.clock = MatchClock.from_options(self.options, self.now) if self.options.timed else None

    @classmethod
    def from_position(
        cls,
        layout: Sequence[Disk],
        referee: RefereeState,
        *,
        board: BoardSpec | None = None,
        seed: int = 0,
        fly_off: bool = True,
    ) -> Match:
        """A match starting from a set position instead of the R1a opening (problems, tests,
        resuming a scored game). The layout must be one the pieces can stand in, at rest, and
        agree with the referee's counts.

        Raises:
            IllegalLayoutError: a disk id is unknown or repeated, a number is not finite, a disk
                is off the surface, two disks of one layer overlap, a stacked disk (layer >= 1)
                has nothing under it (R6e), or the layout disagrees with the referee's counts.
            StateFormatError: ``referee`` is not a :class:`RefereeState`.
        """
        if not isinstance(referee, RefereeState):
            raise StateFormatError(
                "referee must be a RefereeState", "referee には RefereeState が必要です"
            )
        match = cls(referee.players, referee.options, board or BoardSpec(), seed, fly_off)
        rebuilt = check_layout(match.board, layout)
        match._referee = Referee.from_state(referee)
        _check_accounting(rebuilt, match._referee)
        match._layout = rebuilt
        match._start = (match._layout, referee)
        return match

    def restarted(self) -> Match:
        """A new match with the same settings and start, before any action."""
        if self._start is None:
            return Match(self.players, self.options, self.board, self.seed, self.fly_off)
        layout, referee = self._start
        return Match.from_position(
            layout, referee, board=self.board, seed=self.seed, fly_off=self.fly_off
        )

    @property
    def start(self) -> tuple[tuple[Disk, ...], RefereeState] | None:
        """The set position the match started from, or ``None`` for the R1a opening."""
        return self._start

    # -- what a player sees -----------------------------------------------------------------

    @property
    def state(self) -> MatchState:
        """A snapshot of what a player sees now (layout, counts, turn, clock)."""
        reading = None
        if self.clock is not None and self.clock.started:
            reading = ClockReading(
                self.clock.elapsed(),
                self.clock.remaining(),
                self.clock.ten_second_rule_active,
                self.clock.turn_remaining(),
            )
        return MatchState(
            self._layout, self._referee.state, self.shooter, len(self._actions), reading
        )

    @property
    def layout(self) -> tuple[Disk, ...]:
        """The pieces on the board, at rest, with their layers (stacks at the jack spot, R6e)."""
        return self._layout

    @property
    def referee(self) -> Referee:
        """The referee (counts, debt, scores, outcome); change it only through the match."""
        return self._referee

    @property
    def shooter(self) -> int:
        """The seat to shoot now (R1c, R3)."""
        return self._referee.shooter

    def color(self, seat: int) -> Color:
        """The colour a seat plays (R1b, R1c)."""
        return self._referee.color(seat)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action so far, in order."""
        return tuple(self._actions)

    @property
    def is_over(self) -> bool:
        """True once the game has a result (R7)."""
        return self._referee.is_over

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._referee.outcome

    def legal_placement(self, seat: int | None = None) -> Placement:
        """Where ``seat`` (default: the shooter) may put its striker now (R2a, R2b).

        Raises:
            NoPlacementError: the striker has nowhere to go (see :attr:`must_pass`).
        """
        seat = self.shooter if seat is None else seat
        first = self._referee.is_first_shot(seat)
        return legal_placement(
            self.board,
            seat,
            self.players,
            first,
            self._layout,
            self.options.covered_area_line,
        )

    @property
    def must_pass(self) -> bool:
        """True when the shooter has nowhere to put the striker, so the turn passes with
        :meth:`pass_turn` (R2b under ``RuleOptions.covered_area_line = "pass"``)."""
        if self.is_over or self._referee.state.awaiting_lot:
            return False
        try:
            self.legal_placement()
        except NoPlacementError:
            return True
        return False

    def unshootable(self, seat: int | None = None) -> tuple[str, ...]:
        """Ids of the pieces ``seat`` (default: the shooter) may not hit directly now: in
        doubles those wholly inside its own area (R4a); none in singles (R4e)."""
        seat = self.shooter if seat is None else seat
        side = self.board.seat_side(seat, self.players)
        return unshootable_pieces(self.board, self.players, side, self._layout)

    # -- acting ------------------------------------------------------------------------------

    def check(self, shot: Shot) -> None:
        """Raise :class:`IllegalShotError` unless the shooter may play ``shot`` now: the game
        is on (:class:`GameOverShotError`, :class:`LotPendingShotError`), the speed is in
        range and the placement legal (R2a, R2b; :class:`NoPlacementError` when there is
        none)."""
        if self.is_over:
            raise GameOverShotError()
        if self._referee.state.awaiting_lot:
            raise LotPendingShotError()
        if not isinstance(shot, Shot):
            raise IllegalShotError("play() takes a Shot", "play() には Shot を渡します")
        if not 0.0 < shot.speed <= self.board.max_speed:
            raise IllegalShotError(
                f"Speed must be above 0 and at most {self.board.max_speed} m/s",
                f"速さは0より大きく{self.board.max_speed} m/s以下にしてください",
            )
        problem = self.legal_placement().why_not(shot.x, shot.y)
        if problem is not None:
            raise problem

    def _execute(self, shot: Shot, noise: Noise) -> Shot:
        if noise.is_zero:
            return shot
        return Shot(
            *hand_moved(
                self.legal_placement(),
                (shot.x, shot.y, shot.angle, shot.speed),
                (noise.dx, noise.dy, noise.dangle, noise.speed_factor),
                self.board.max_speed,
            )
        )

    def simulate(self, shot: Shot, noise: Noise | None = None) -> tuple[Shot, ShotResult]:
        """The shot as executed and its physics, without changing the match (for look-ahead).

        Raises:
            IllegalShotError: as :meth:`check`, or ``noise`` is not a :class:`Noise`.
        """
        self.check(shot)
        if noise is not None and not isinstance(noise, Noise):
            raise IllegalShotError("noise must be a Noise", "noise には Noise を渡します")
        executed = self._execute(shot, noise or Noise())
        vx, vy = executed.velocity
        striker = replace(disk_for(self.board, STRIKER_ID, executed.x, executed.y), vx=vx, vy=vy)
        result = simulate(
            (*self._layout, striker),
            board=self.board,
            striker=STRIKER_ID,
            seed=shot_seed(self.seed, len(self._actions)),
            fly_off=self.fly_off,
        )
        return executed, result

    def play(self, shot: Shot, noise: Noise | None = None) -> PlayResult:
        """Play ``shot`` for the shooter: check it, simulate it, rule on it, re-spot (R2-R6).

        Raises:
            IllegalShotError: the shot is not allowed now (reason in English and Japanese);
                nothing changed. Its subclasses say why the game takes no shot:
                :class:`GameOverShotError`, :class:`LotPendingShotError`,
                :class:`NoPlacementError`.
        """
        seat = self.shooter
        executed, result = self.simulate(shot, noise)
        noise = noise or Noise()
        self.start_clock()
        before = self._layout
        report = report_of(
            self.board, self.players, self.board.seat_side(seat, self.players), before, result
        )
        snapshot = self._snapshot()
        ruling = self._referee.report(report)
        try:
            if ruling.restored:
                after = before
            else:
                rest = settle(d for d in result.final if d.id != STRIKER_ID)
                left = [p[0] for p in result.pocketed] + list(result.off_board)
                after = stack_on_jack_spot(self.board, rest, ruling.returned, left)
            _check_accounting(after, self._referee)
        except Exception:
            self._referee.undo()  # an internal inconsistency must not leave half a shot behind
            raise
        play = PlayResult(seat, shot, noise, executed, before, result, report, ruling, after)
        self._undo.append(snapshot)
        self._layout = after
        self._actions.append(Action(ActionKind.SHOT, seat, play=play, ruling=ruling))
        self._turn_passed(ruling, after=result.duration)
        return play

    def skip_turn(self) -> Ruling:
        """R8a: the shooter's 10 seconds passed; that shot is lost and the turn passes.

        Raises:
            UntimedMatchError: the match has no time limit, so no 10-second rule.
            GameOverError, LotPendingError: the game is over or waits for a lot (R7d).
        """
        _require_timed(self.options, "skip_turn", "R8a")
        seat = self.shooter
        snapshot = self._snapshot()
        ruling = self._referee.skip_turn()
        self._undo.append(snapshot)
        self._actions.append(Action(ActionKind.SKIP, seat, ruling=ruling))
        self._turn_passed(ruling)
        return ruling

    def pass_turn(self) -> Ruling:
        """The shooter takes no shot and the turn passes, without penalty (R3d).

        This is how the turn passes when the striker has nowhere to go (:attr:`must_pass`; the
        reading ``covered_area_line = "pass"`` of R2b, "R2b" in the ruling's reasons). The
        rules know no voluntary pass otherwise: it serves practice and problems (a solo
        exercise lets the other seat pass).

        Raises:
            GameOverError, LotPendingError: the game is over or waits for a lot (R7d).
        """
        seat = self.shooter
        forced = self.must_pass
        snapshot = self._snapshot()
        ruling = self._referee.pass_turn(no_placement=forced)
        self._undo.append(snapshot)
        self._actions.append(Action(ActionKind.PASS, seat, ruling=ruling))
        self._turn_passed(ruling)
        return ruling

    def call_time(self) -> None:
        """R7b: time is up; the round is finished, then the game decided (R7c, R7d).

        Raises:
            UntimedMatchError: the match has no time limit.
            TimeAlreadyCalledError, GameOverError, LotPendingError: time was called already,
                the game is over, or it waits for a lot (R7d).
        """
        _require_timed(self.options, "call_time", "R7b")
        snapshot = self._snapshot()
        self._referee.call_time()
        self._undo.append(snapshot)
        self._actions.append(Action(ActionKind.CALL_TIME, self.shooter))

    def decide_lot(self, winner: Color) -> None:
        """R7d with ``deadlock="lot"``: record who won the rock-paper-scissors."""
        snapshot = self._snapshot()
        self._referee.decide_lot(winner)
        self._undo.append(snapshot)
        self._actions.append(Action(ActionKind.LOT, self.shooter, lot_winner=winner))

    def resign(self, seat: int) -> Outcome:
        """The side of ``seat`` resigns (any of its seats, at any moment of the game): the other
        colour wins now, outcome reason ``"resign"``.

        Raises:
            GameOverError: the game is over. InvalidSeatError: no such seat.
        """
        color = self._referee.state.color(seat)
        snapshot = self._snapshot()
        outcome = self._referee.resign(color)
        self._undo.append(snapshot)
        self._actions.append(Action(ActionKind.RESIGN, seat))
        return outcome

    def agree_draw(self, offered_by: int, accepted_by: int) -> Outcome:
        """A draw offered by ``offered_by`` and accepted by ``accepted_by``, a seat of the other
        colour: the game ends with no winner, outcome reason ``"agreed"``.

        Raises:
            GameOverError: the game is over. InvalidSeatError: no such seat, or both seats
                play the same colour.
        """
        state = self._referee.state
        if state.color(offered_by) is state.color(accepted_by):
            raise InvalidSeatError(
                f"a draw is agreed between the two sides; seats {offered_by} and "
                f"{accepted_by} play the same colour",
                "引き分けは両方の側の合意が必要です。同じ色の席どうしでは合意できません",
            )
        snapshot = self._snapshot()
        outcome = self._referee.agree_draw()
        self._undo.append(snapshot)
        self._actions.append(Action(ActionKind.DRAW, accepted_by, offered_by=offered_by))
        return outcome

    def start_clock(self) -> None:
        """Start a timed match's clock (R7b) and the first shot's time (R8a); no-op if untimed
        or already started. :meth:`play` and :meth:`tick` start it too."""
        if self.clock is not None and not self.clock.started:
            self.clock.start()
            self.clock.turn_started()

    def tick(self) -> list[ActionKind]:
        """Apply the clock (timed matches): call time when it has run out (R7b) and skip the
        shot whose 10 seconds are over (R8a). Returns the actions taken ("call_time", "skip")."""
        if self.clock is None or self.is_over or self._referee.state.awaiting_lot:
            return []
        self.start_clock()
        done: list[ActionKind] = []
        if self.clock.time_up and not self._referee.state.time_called:
            self.call_time()
            done.append(ActionKind.CALL_TIME)
        if not self.is_over and self.clock.turn_expired:
            self.skip_turn()
            done.append(ActionKind.SKIP)
        return done

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(self._layout, self._referee.state, len(self._actions))

    def _turn_passed(self, ruling: Ruling | None, *, after: float = 0.0) -> None:
        """The next shot's 10 seconds (R8a) start when the pieces of this one come to rest,
        ``after`` s from now."""
        if self.clock is not None and self.clock.started:
            continuation = ruling is not None and ruling.continues
            self.clock.turn_started(continuation, after=after)

    def undo(self) -> None:
        """Return exactly to before the last action (shot, skip, pass, time call, lot, resignation
        or draw).

        Raises:
            NothingToUndoError: nothing to undo.
        """
        if not self._undo:
            raise NothingToUndoError("nothing to undo", "取り消す操作がありません")
        snap = self._undo.pop()
        self._referee.undo()
        if self._referee.state != snap.referee:
            raise RuntimeError("referee and match histories disagree")
        self._layout = snap.layout
        del self._actions[snap.actions :]


def _check_accounting(layout: Sequence[Disk], ref: Referee) -> None:
    """Every puck and the jack is on the board or in a pocket, never both (R1a)."""
    counts = {Piece.RED: 0, Piece.GREEN: 0, Piece.JACK: 0}
    for d in layout:
        counts[piece_of(d.id)] += 1
    expected = {
        Piece.RED: ref.pucks_on_board(Color.RED),
        Piece.GREEN: ref.pucks_on_board(Color.GREEN),
        Piece.JACK: 0 if ref.jack_pocketed else 1,
    }
    if counts != expected:
        raise IllegalLayoutError(
            f"the layout (red {counts[Piece.RED]}, green {counts[Piece.GREEN]}, jack "
            f"{counts[Piece.JACK]} on the board) disagrees with the referee's counts (red "
            f"{expected[Piece.RED]}, green {expected[Piece.GREEN]}, jack "
            f"{expected[Piece.JACK]})",
            f"盤上の駒（赤{counts[Piece.RED]}、緑{counts[Piece.GREEN]}、ジャック"
            f"{counts[Piece.JACK]}）が審判の記録（赤{expected[Piece.RED]}、緑"
            f"{expected[Piece.GREEN]}、ジャック{expected[Piece.JACK]}）と合いません",
        )


def _require_timed(options: RuleOptions, action: str, rule: str) -> None:
    """Raise :class:`UntimedMatchError` for ``action`` (of ``rule``) in an untimed match."""
    if not options.timed:
        raise UntimedMatchError(
            f"{action}: this match has no time limit, so there is no {rule} "
            "(RuleOptions.match_time_s is None)",
            f"{action}：この試合には試合時間がないため{rule}は使えません"
            "（RuleOptions.match_time_s が None）",
        )
