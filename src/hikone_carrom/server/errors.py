"""Errors a client can cause; each carries a code and a message in English and Japanese."""

from __future__ import annotations

from typing import Any

__all__ = ["RoomError", "error_message"]


class RoomError(Exception):
    """A request a room refuses; nothing changed.

    ``code`` is stable for programs (e.g. ``not_your_seat``); ``en``/``ja`` are for people;
    ``rule`` names the rule id when one applies; ``status`` is the HTTP status for REST.
    """

    def __init__(
        self, code: str, en: str, ja: str, *, rule: str | None = None, status: int = 409
    ) -> None:
        super().__init__(f"{code}: {en}")
        self.code = code
        self.en = en
        self.ja = ja
        self.rule = rule
        self.status = status

    def to_message(self) -> dict[str, Any]:
        """The WebSocket error message for the client that caused it."""
        return error_message(self.code, self.en, self.ja, rule=self.rule)

    def detail(self) -> dict[str, Any]:
        """The REST error detail."""
        return {"code": self.code, "en": self.en, "ja": self.ja, "rule": self.rule}


def error_message(code: str, en: str, ja: str, *, rule: str | None = None) -> dict[str, Any]:
    """``{"type": "error", ...}`` as sent over the WebSocket."""
    return {"type": "error", "code": code, "message": {"en": en, "ja": ja}, "rule": rule}
