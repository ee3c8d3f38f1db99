"""How an event is run (:class:`TournamentSettings`): its name, date, boards, times and breaks,
seed and rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from hikone_carrom.tournament.breaks import Break
from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.standings import StandingRules

__all__ = ["TournamentSettings"]

_DAY_S = 24 * 3600
_LONGEST_BREAK_S = 4 * 3600


@dataclass(frozen=True)
class TournamentSettings:
    """How an event is run.

    Attributes:
        name: the event's name (第38回カロム日本選手権大会).
        date: ISO date (YYYY-MM-DD).
        boards: boards in the hall, numbered from 1.
        start_s: first match, s from midnight (9:30 = 34200).
        changeover_s: time between two matches on a board and a player's two matches, s.
        ceremony_start_s, ceremony_length_s: the opening ceremony (開会式), s from midnight and
            s (length 0: none); no match is planned across it.
        lunch_start_s, lunch_length_s: the lunch break (昼休み), the same way.
        finals_start_s: the finals (決勝) start no earlier than this, s from midnight; None: after
            the day's last pool match.
        golden_board: the board finals are played on, or None.
        seed: seed of the draws and of the drawing of lots.
        rules: match points and tie-breaks (:class:`StandingRules`).
        online: matches are played in online rooms of the browser game, not on real boards
            (a "board" is then one of ``boards`` games at a time).
    """

    name: str
    date: str = ""
    boards: int = 124
    start_s: int = 9 * 3600 + 30 * 60
    changeover_s: int = 180
    golden_board: int | None = 1
    seed: int = 0
    rules: StandingRules = field(default_factory=StandingRules)
    online: bool = False
    ceremony_start_s: int = 9 * 3600
    ceremony_length_s: int = 30 * 60
    lunch_start_s: int = 12 * 3600
    lunch_length_s: int = 45 * 60
    finals_start_s: int | None = None

    def breaks(self) -> tuple[Break, ...]:
        """The ceremony and lunch as (start_s, end_s), in order, those of length 0 left out."""
        spans = [
            (self.ceremony_start_s, self.ceremony_start_s + self.ceremony_length_s),
            (self.lunch_start_s, self.lunch_start_s + self.lunch_length_s),
        ]
        return tuple(sorted(b for b in spans if b[1] > b[0]))

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise TournamentError("name_missing", "The event needs a name", "大会名が要ります")
        if not 1 <= self.boards <= 1000:
            raise TournamentError(
                "bad_boards", "Boards must be 1-1000", "台数は1〜1000にしてください"
            )
        if not 0 <= self.start_s < 24 * 3600:
            raise TournamentError(
                "bad_start", "The start time must be within the day", "開始時刻が一日の外です"
            )
        if not 0 <= self.changeover_s <= 1800:
            raise TournamentError(
                "bad_changeover",
                "The changeover must be 0-1800 s",
                "入れ替え時間は0〜1800秒にしてください",
            )
        if self.golden_board is not None and not 1 <= self.golden_board <= self.boards:
            raise TournamentError(
                "bad_golden_board",
                f"The golden board must be one of boards 1-{self.boards}",
                f"決勝台は1〜{self.boards}番のどれかにしてください",
            )
        for start, length, en, ja in (
            (self.ceremony_start_s, self.ceremony_length_s, "ceremony", "開会式"),
            (self.lunch_start_s, self.lunch_length_s, "lunch break", "昼休み"),
        ):
            if not (0 <= start < _DAY_S and 0 <= length <= _LONGEST_BREAK_S) or (
                start + length > _DAY_S
            ):
                raise TournamentError(
                    "bad_break",
                    f"The {en} must start within the day and last 0-240 min",
                    f"{ja}は一日の中で始まり、長さを0〜240分にしてください",
                )
        if self.finals_start_s is not None and not 0 <= self.finals_start_s < _DAY_S:
            raise TournamentError(
                "bad_finals_start",
                "The finals' start must be within the day",
                "決勝の開始時刻が一日の外です",
            )
