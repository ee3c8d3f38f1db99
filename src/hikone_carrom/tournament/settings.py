"""How an event is run (:class:`TournamentSettings`): its name, date, boards, times, seed and
rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.standings import StandingRules

__all__ = ["TournamentSettings"]


@dataclass(frozen=True)
class TournamentSettings:
    """How an event is run.

    Attributes:
        name: the event's name (第38回カロム日本選手権大会).
        date: ISO date (YYYY-MM-DD).
        boards: boards in the hall, numbered from 1.
        start_s: first match, s from midnight (9:30 = 34200).
        changeover_s: time between two matches on a board and a player's two matches, s.
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
    changeover_s: int = 60
    golden_board: int | None = 1
    seed: int = 0
    rules: StandingRules = field(default_factory=StandingRules)
    online: bool = False

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
