"""The table referee's scoring pad: matches on real boards, judged by the official referee.

No physics: the referee taps what happened in each shot (:class:`Tap`) and the same
:class:`~hikone_carrom.rules.Referee` as the digital game rules on it::

    from hikone_carrom.scoring import MatchSetup, RefereedMatch, Tap
    m = RefereedMatch(MatchSetup.singles("田中", "佐藤"))
    m.shot(Tap(red=2))                 # R3a: red continues
    m.shot(Tap(striker_pocketed=True)) # R5a: penalty 1, debt (R5i)
    m.undo()                           # a mis-tap

Entries can be undone and corrected (everything after is recomputed); a timed match has a
:class:`PadClock` with the referee's pause and the 10-second countdown (R7b, R8a).
"""

from hikone_carrom.scoring.clock import PadClock
from hikone_carrom.scoring.errors import (
    ConfirmedError,
    CorrectionError,
    EntryError,
    ScoringError,
    SetupError,
)
from hikone_carrom.scoring.refereed import (
    EntryKind,
    JudgedLine,
    RefereedMatch,
    SheetLine,
    replay_entries,
)
from hikone_carrom.scoring.setup import DEFAULT_MATCH_TIME_S, MatchSetup, seat_side
from hikone_carrom.scoring.sheet import SheetRow, pile_text, sheet_csv, sheet_rows
from hikone_carrom.scoring.tap import MAX_COUNT, Tap, describe_tap

__all__ = [
    "DEFAULT_MATCH_TIME_S",
    "MAX_COUNT",
    "ConfirmedError",
    "CorrectionError",
    "EntryError",
    "EntryKind",
    "JudgedLine",
    "MatchSetup",
    "PadClock",
    "RefereedMatch",
    "ScoringError",
    "SetupError",
    "SheetLine",
    "SheetRow",
    "Tap",
    "describe_tap",
    "pile_text",
    "replay_entries",
    "seat_side",
    "sheet_csv",
    "sheet_rows",
]
