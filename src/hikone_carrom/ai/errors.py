"""Errors of the computer players and of their evaluation, with English and Japanese messages."""

from __future__ import annotations

__all__ = ["AIError", "EvaluationError", "NoLegalShotError", "UnknownPlayerError"]


class AIError(Exception):
    """Base class of the computer players' errors; ``en`` and ``ja`` say what went wrong."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(en)
        self.en = en
        self.ja = ja

    def message(self, lang: str = "en") -> str:
        """The message in ``lang`` ("ja" or "en")."""
        return self.ja if lang == "ja" else self.en


class UnknownPlayerError(AIError, ValueError):
    """A player name or level that :func:`~hikone_carrom.ai.make_player` does not know."""


class NoLegalShotError(AIError):
    """No legal placement is left for the striker (R2a, R2b): the player cannot shoot."""


class EvaluationError(AIError, ValueError):
    """Bad input to the evaluation harness (arguments, a malformed or foreign results file)."""
