"""Errors of the scoring pad: each says what is wrong in English and Japanese; nothing changes.

They extend :class:`~hikone_carrom.rules.RulesError`, so one ``except RulesError`` catches a bad
tap, an impossible count the referee refuses, and an entry after the end alike.
"""

from __future__ import annotations

from hikone_carrom.rules import RulesError

__all__ = ["ConfirmedError", "CorrectionError", "EntryError", "ScoringError", "SetupError"]


class ScoringError(RulesError):
    """Base of the scoring pad's own errors."""


class SetupError(ScoringError):
    """A match set-up that cannot be played: wrong number of names, a bad match time..."""


class EntryError(ScoringError):
    """An entry that is malformed in itself: a negative count, a count above 12, a wrong type."""


class CorrectionError(ScoringError):
    """A correction or undo that cannot be made; ``entry`` is the 1-based entry that would no
    longer be possible (0 when the correction itself is refused)."""

    def __init__(self, en: str, ja: str, entry: int = 0) -> None:
        super().__init__(en, ja)
        self.entry = entry


class ConfirmedError(ScoringError):
    """The result was confirmed: the match can no longer change."""
