"""The referee of Hikone Carrom: every official rule (R1-R8 of docs/rules.md), singles and doubles.

It knows no physics and reads no clock: it is told what happened in a shot
(:class:`ShotReport`) and answers what it means (:class:`Ruling`)::

    from hikone_carrom.rules import Referee, ShotReport, Piece
    ref = Referee(players=2)
    ruling = ref.report(ShotReport(pocketed=(Piece.RED,)))
    assert ruling.continues            # R3a: red shoots again

The state is an immutable value (:class:`RefereeState`, pure transitions in
:mod:`~hikone_carrom.rules.transitions`); :class:`Referee` is a thin face with undo.
"""

from hikone_carrom.rules.clock import ClockError, MatchClock
from hikone_carrom.rules.errors import (
    GameOverError,
    ImpossibleReportError,
    InvalidOptionsError,
    InvalidPlayersError,
    InvalidReportError,
    InvalidSeatError,
    LotNotPendingError,
    LotPendingError,
    NothingToUndoError,
    RefereedFoulError,
    RulesError,
    StateFormatError,
    TimeAlreadyCalledError,
    UnshootableInSinglesError,
    UntimedMatchError,
)
from hikone_carrom.rules.messages import (
    color_name,
    explain,
    explain_outcome,
    foul_name,
    seat_label,
)
from hikone_carrom.rules.options import CHAMPIONSHIP_MATCH_TIME_S, RuleOptions
from hikone_carrom.rules.pieces import (
    PUCKS_PER_COLOR,
    Color,
    Piece,
    last_seat,
    next_seat,
    seat_color,
    seats_of,
)
from hikone_carrom.rules.referee import Referee
from hikone_carrom.rules.report import OUTCOME_REASONS, Foul, Outcome, Ruling, ShotReport
from hikone_carrom.rules.state import JACK_SCORE, RefereeState
from hikone_carrom.rules.transitions import (
    agree_draw,
    apply,
    call_time,
    decide_lot,
    pass_turn,
    resign,
    skip_turn,
)

__all__ = [
    "CHAMPIONSHIP_MATCH_TIME_S",
    "JACK_SCORE",
    "OUTCOME_REASONS",
    "PUCKS_PER_COLOR",
    "ClockError",
    "Color",
    "Foul",
    "GameOverError",
    "ImpossibleReportError",
    "InvalidOptionsError",
    "InvalidPlayersError",
    "InvalidReportError",
    "InvalidSeatError",
    "LotNotPendingError",
    "LotPendingError",
    "MatchClock",
    "NothingToUndoError",
    "Outcome",
    "Piece",
    "Referee",
    "RefereeState",
    "RefereedFoulError",
    "RuleOptions",
    "RulesError",
    "Ruling",
    "ShotReport",
    "StateFormatError",
    "TimeAlreadyCalledError",
    "UnshootableInSinglesError",
    "UntimedMatchError",
    "agree_draw",
    "apply",
    "call_time",
    "color_name",
    "decide_lot",
    "explain",
    "explain_outcome",
    "foul_name",
    "last_seat",
    "next_seat",
    "pass_turn",
    "resign",
    "seat_color",
    "seat_label",
    "seats_of",
    "skip_turn",
]
