"""The referee: a thin mutable face over :class:`RefereeState` with an undo stack of states.

It reads no clock and knows no physics: it is told what happened (a :class:`ShotReport`, a lost
shot, time called) and answers what it means.
"""

from __future__ import annotations

from hikone_carrom.rules import transitions
from hikone_carrom.rules.errors import NothingToUndoError, StateFormatError
from hikone_carrom.rules.options import RuleOptions
from hikone_carrom.rules.pieces import Color, seats_of
from hikone_carrom.rules.report import Outcome, Ruling, ShotReport
from hikone_carrom.rules.state import RefereeState

__all__ = ["Referee"]


class Referee:
    """Referee of one game of Hikone Carrom, singles (2 players) or doubles (4) (R1-R8).

    ``Referee(players=2, options)`` starts a game; ``Referee(state=s)`` or ``Referee.from_state(s)``
    continues from a snapshot. Every change (report, skip, pass, time call, lot, resignation,
    draw) can be undone exactly.
    """

    def __init__(
        self,
        players: int | None = None,
        options: RuleOptions | None = None,
        *,
        state: RefereeState | None = None,
    ) -> None:
        if state is None:
            state = RefereeState.initial(2 if players is None else players, options)
        elif not isinstance(state, RefereeState):
            raise StateFormatError(
                "state must be a RefereeState", "state は RefereeState が必要です"
            )
        elif (players is not None and players != state.players) or (
            options is not None and options != state.options
        ):
            raise StateFormatError(
                "players/options disagree with the given state",
                "players／options が与えられた状態と一致しません",
            )
        self._state = state
        self._history: list[RefereeState] = []

    @classmethod
    def from_state(cls, state: RefereeState) -> Referee:
        """A referee continuing from ``state`` (with an empty undo stack)."""
        return cls(state.players, state.options, state=state)

    # -- the state -------------------------------------------------------------------------

    @property
    def state(self) -> RefereeState:
        """The current immutable state (snapshot it freely)."""
        return self._state

    @property
    def history(self) -> tuple[RefereeState, ...]:
        """Earlier states, oldest first; ``undo`` returns to the last one."""
        return tuple(self._history)

    @property
    def players(self) -> int:
        """2 (singles) or 4 (doubles)."""
        return self._state.players

    @property
    def options(self) -> RuleOptions:
        """The rule options in force."""
        return self._state.options

    @property
    def shooter(self) -> int:
        """The seat whose turn it is, 0..players-1 (R1c, R3)."""
        return self._state.shooter

    def color(self, seat: int) -> Color:
        """Colour of ``seat`` (R1b, R1c)."""
        return self._state.color(seat)

    def seats(self, color: Color) -> tuple[int, ...]:
        """Seats playing ``color`` (R1c)."""
        return seats_of(color, self.players, self.options.first_seat)

    def is_first_shot(self, seat: int) -> bool:
        """True until ``seat`` has taken a shot: it shoots from the tee spot (R2a)."""
        return self._state.is_first_shot(seat)

    def pocketed(self, color: Color) -> int:
        """Pucks of ``color`` lying in the pockets now."""
        return self._state.pocketed_of(color)

    def debt(self, color: Color) -> int:
        """Pucks ``color`` owes (R5i)."""
        return self._state.debt_of(color)

    def pucks_on_board(self, color: Color) -> int:
        """Pucks of ``color`` on the board (jack spot included): 12 - pocketed."""
        return self._state.pucks_on_board(color)

    @property
    def jack_pocketed(self) -> bool:
        """True once the jack lies in a pocket (only after a win, R7a)."""
        return self._state.jack is not None

    @property
    def time_called(self) -> bool:
        """True after :meth:`call_time` (R7b)."""
        return self._state.time_called

    @property
    def extra_round(self) -> int:
        """0, or the number of the extra round being played (R7c)."""
        return self._state.extra_round

    @property
    def awaiting_lot(self) -> bool:
        """True when deadlocked and waiting for :meth:`decide_lot` (R7d)."""
        return self._state.awaiting_lot

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, ``None`` while it goes on (R7)."""
        return self._state.outcome

    @property
    def winner(self) -> Color | None:
        """The winning colour; ``None`` while playing or after a draw."""
        return self._state.winner

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self._state.is_over

    def scores(self) -> dict[Color, int]:
        """{colour: 100 x jack + pucks pocketed (minus debt by the reading)} (R7b)."""
        return self._state.scores()

    # -- changes ---------------------------------------------------------------------------

    def report(self, report: ShotReport) -> Ruling:
        """Judge a shot and move on (R3-R7); bad reports raise RulesError and change nothing."""
        new, ruling = transitions.apply(self._state, report)
        self._push(new)
        return ruling

    def preview(self, report: ShotReport) -> tuple[RefereeState, Ruling]:
        """The state and ruling ``report`` would give, without changing anything (look-ahead)."""
        return transitions.apply(self._state, report)

    def skip_turn(self) -> Ruling:
        """R8a: the 10 seconds passed; the shooter loses that shot and the turn passes."""
        new, ruling = transitions.skip_turn(self._state)
        self._push(new)
        return ruling

    def pass_turn(self, *, no_placement: bool = False) -> Ruling:
        """The shooter passes without a shot or penalty and the turn passes (R3d); with
        ``no_placement`` because the striker had nowhere to go (R2b reading)."""
        new, ruling = transitions.pass_turn(self._state, no_placement=no_placement)
        self._push(new)
        return ruling

    def call_time(self) -> None:
        """R7b: time is up; finish the round, then decide (R7c, R7d)."""
        self._push(transitions.call_time(self._state))

    def decide_lot(self, winner: Color) -> Outcome:
        """R7d with ``deadlock="lot"``: record the rock-paper-scissors winner and end the game."""
        new = transitions.decide_lot(self._state, winner)
        self._push(new)
        assert new.outcome is not None
        return new.outcome

    def resign(self, color: Color) -> Outcome:
        """``color`` resigns: the other colour wins now (outcome reason ``"resign"``)."""
        new = transitions.resign(self._state, color)
        self._push(new)
        assert new.outcome is not None
        return new.outcome

    def agree_draw(self) -> Outcome:
        """Both sides agreed to a draw: the game ends with no winner (reason ``"agreed"``)."""
        new = transitions.agree_draw(self._state)
        self._push(new)
        assert new.outcome is not None
        return new.outcome

    @property
    def can_undo(self) -> bool:
        """True when there is something to undo."""
        return bool(self._history)

    def undo(self) -> None:
        """Back to exactly before the last report, skip, pass, time call, lot, resignation or
        draw.

        Raises:
            NothingToUndoError: nothing to undo.
        """
        if not self._history:
            raise NothingToUndoError("nothing to undo", "取り消す操作がありません")
        self._state = self._history.pop()

    def _push(self, new: RefereeState) -> None:
        self._history.append(self._state)
        self._state = new

    def __repr__(self) -> str:
        s = self._state
        return (
            f"Referee(players={s.players}, shooter={s.shooter}, pocketed={s.pocketed}, "
            f"debt={s.debt}, outcome={s.outcome})"
        )
