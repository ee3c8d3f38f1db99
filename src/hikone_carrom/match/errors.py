"""Exceptions of the match layer, each with an English and a Japanese message.

Every error is a :class:`ValueError`; nothing changes when one is raised.

- :class:`IllegalShotError`: a shot that may not be played now (placement R2a/R2b, speed, not a
  number), including a shot while the game is over (:class:`GameOverShotError`, also a
  :class:`~hikone_carrom.rules.GameOverError`), while it waits for the rock-paper-scissors result
  (:class:`LotPendingShotError`, also a :class:`~hikone_carrom.rules.LotPendingError`), or when
  the striker has nowhere to go (:class:`NoPlacementError`).
- :class:`IllegalLayoutError`: a set position (:meth:`Match.from_position
  <hikone_carrom.match.Match.from_position>`) whose pieces cannot stand as given; also a
  :class:`hikone_carrom.physics.InvalidLayoutError` and a :class:`~hikone_carrom.rules.RulesError`.
- The referee's :class:`~hikone_carrom.rules.RulesError` subclasses pass through unchanged, e.g.
  :class:`~hikone_carrom.rules.NothingToUndoError` and
  :class:`~hikone_carrom.rules.UntimedMatchError`.
"""

from __future__ import annotations

from hikone_carrom.physics import InvalidLayoutError
from hikone_carrom.rules import GameOverError, LotPendingError, RulesError

__all__ = [
    "GameOverShotError",
    "IllegalLayoutError",
    "IllegalShotError",
    "LotPendingShotError",
    "NoPlacementError",
]


class IllegalShotError(ValueError):
    """A shot the rules do not allow now (R2a, R2b, R2d, R7, R7d) or that is not a number;
    nothing changed.

    ``reason_en`` and ``reason_ja`` say why, for a user; ``rule`` names the rule id if any.
    """

    def __init__(self, reason_en: str, reason_ja: str, rule: str | None = None) -> None:
        # Not super(): a subclass that is also a referee error has RulesError next in line.
        ValueError.__init__(self, reason_en)
        self.reason_en = reason_en
        self.reason_ja = reason_ja
        self.rule = rule

    def reason(self, lang: str = "en") -> str:
        """The reason in ``lang`` ("ja" or "en")."""
        return self.reason_ja if lang == "ja" else self.reason_en


class _RefereeShotError(IllegalShotError):
    """A shot refused because of the referee's state: also one of the referee's errors."""

    def __init__(self, en: str, ja: str, rule: str) -> None:
        super().__init__(en, ja, rule)
        self.en = en
        self.ja = ja

    def message(self, lang: str = "en") -> str:
        """The message in ``lang`` ("en" or "ja")."""
        return self.reason(lang)


class GameOverShotError(_RefereeShotError, GameOverError):
    """A shot after the game has ended (R7)."""

    def __init__(self) -> None:
        super().__init__("The game is over", "ゲームは終了しています", "R7")


class LotPendingShotError(_RefereeShotError, LotPendingError):
    """A shot while the deadlocked game waits for the rock-paper-scissors result (R7d)."""

    def __init__(self) -> None:
        super().__init__(
            "The game waits for the rock-paper-scissors result (R7d)",
            "じゃんけんの結果を待っています（R7d）",
            "R7d",
        )


class NoPlacementError(IllegalShotError):
    """The striker has nowhere to go: no free place overlaps the area line and the reading
    ``RuleOptions.covered_area_line = "pass"`` passes the turn (R2b), or no point of the board is
    free at all (R2a). :meth:`Match.pass_turn <hikone_carrom.match.Match.pass_turn>` passes."""


class IllegalLayoutError(InvalidLayoutError, RulesError):
    """A set position whose pieces cannot stand as given: an unknown or repeated id, a piece off
    the surface, two pieces of one layer overlapping, a stacked piece with nothing under it
    (R6e), or counts that disagree with the referee's (R1a). ``message(lang)`` says which."""
