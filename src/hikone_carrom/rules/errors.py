"""Exceptions of the referee: every bad input raises a subclass of :class:`RulesError`.

Each message is given in English and Japanese, because a user may read it (a human referee entering
a report, the browser game showing why a report was refused). Nothing changes when one is raised.
"""

from __future__ import annotations

__all__ = [
    "GameOverError",
    "ImpossibleReportError",
    "InvalidOptionsError",
    "InvalidPlayersError",
    "InvalidReportError",
    "InvalidSeatError",
    "LotNotPendingError",
    "LotPendingError",
    "NothingToUndoError",
    "RefereedFoulError",
    "RulesError",
    "StateFormatError",
    "TimeAlreadyCalledError",
    "UnshootableInSinglesError",
    "UntimedMatchError",
]


class RulesError(ValueError):
    """Base of every referee error; ``str()`` gives ``"English / 日本語"``."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(f"{en} / {ja}")
        self.en = en
        self.ja = ja

    def message(self, lang: str = "en") -> str:
        """The message in ``lang`` ("en" or "ja")."""
        return self.ja if lang == "ja" else self.en


class InvalidPlayersError(RulesError):
    """The number of players is not 2 (singles) or 4 (doubles)."""


class InvalidOptionsError(RulesError):
    """A :class:`RuleOptions` value is out of range or of the wrong kind."""


class InvalidSeatError(RulesError):
    """A seat number outside 0..players-1."""


class InvalidReportError(RulesError):
    """A :class:`ShotReport` that is malformed in itself (wrong types, duplicated fouls...)."""


class ImpossibleReportError(RulesError):
    """A report that cannot be true in the current state (more pucks than lie outside the pockets,
    a jack pocketed twice, a striker both pocketed and off the board...)."""


class UnshootableInSinglesError(ImpossibleReportError):
    """``unshootable_hit`` reported in singles, where every piece may be hit directly (R4e)."""


class RefereedFoulError(ImpossibleReportError):
    """R5e/R5f reported while ``RuleOptions.refereed_fouls`` is off (digital play, R5k)."""


class GameOverError(RulesError):
    """A report, skip or time call after the game has ended (R7)."""


class LotPendingError(RulesError):
    """The game is deadlocked and waits for the rock-paper-scissors result (R7d)."""


class LotNotPendingError(RulesError):
    """``decide_lot`` called while no rock-paper-scissors decision is awaited (R7d)."""


class UntimedMatchError(RulesError):
    """Time called (R7b) or a shot lost to the 10-second rule (R8a) in a match without a time
    limit (``RuleOptions.match_time_s`` is ``None``)."""


class TimeAlreadyCalledError(RulesError):
    """``call_time`` called twice in one game (R7b)."""


class NothingToUndoError(RulesError):
    """``undo`` with nothing to undo."""


class StateFormatError(RulesError):
    """A dict given to ``from_dict`` is not a valid serialised referee value."""
