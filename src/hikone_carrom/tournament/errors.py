"""Errors of the tournament library: every refusal says why, in English and Japanese.

Nothing changes when one is raised; ``code`` is stable for programs, ``en``/``ja`` are for people.
"""

from __future__ import annotations

__all__ = ["TournamentError"]


class TournamentError(ValueError):
    """A request the tournament refuses (bad entry, unknown match, closed pool...)."""

    def __init__(self, code: str, en: str, ja: str) -> None:
        super().__init__(f"{en} / {ja}")
        self.code = code
        self.en = en
        self.ja = ja

    def message(self, lang: str = "en") -> str:
        """The message in ``lang`` ("en" or "ja")."""
        return self.ja if lang == "ja" else self.en
