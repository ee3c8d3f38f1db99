"""Short chat in online rooms: set phrases every reader sees in their own language, and free text
that only seated players may send.

A line is checked here (length, control characters, known phrase) and refused with a clear error
that changes nothing; the room stores every line with its events, so a client that reconnects
sees the recent chat. Clients show text as text, never as markup.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Iterable
from typing import Any

from hikone_carrom.server.core.errors import RoomError

__all__ = [
    "CHAT_BURST",
    "CHAT_PER_SECOND",
    "MAX_TEXT",
    "PRESETS",
    "RECENT",
    "ChatLog",
    "check_text",
    "phrase",
    "presets_view",
]

MAX_TEXT = 200
"""Longest free-text line, characters."""

RECENT = 50
"""Lines a snapshot carries (the newest)."""

CHAT_BURST = 4
CHAT_PER_SECOND = 0.5
"""Each connection may send ``CHAT_BURST`` lines at once, then one every 2 s."""

PRESETS: dict[str, tuple[str, str]] = {
    "hello": ("Good game to you", "よろしくお願いします"),
    "nice": ("Nice shot", "ナイスショット"),
    "dontmind": ("Never mind", "ドンマイ"),
    "sorry": ("Sorry", "すみません"),
    "wait": ("One moment, please", "ちょっと待ってください"),
    "thanks": ("Thank you", "ありがとうございました"),
    "again": ("One more game?", "もう一局どうですか"),
}
"""Set phrases by id: (English, Japanese)."""

_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
"""Bidirectional overrides and isolates: they can make a line read as someone else's."""


def phrase(preset: str) -> dict[str, str]:
    """A set phrase in both languages.

    Raises:
        RoomError: no phrase has this id (``chat_preset``).
    """
    found = PRESETS.get(preset)
    if found is None:
        raise RoomError(
            "chat_preset", "There is no such set phrase", "そのような定型文はありません"
        )
    return {"en": found[0], "ja": found[1]}


def presets_view() -> list[dict[str, str]]:
    """Every set phrase: id, en, ja (what a client offers as buttons)."""
    return [{"id": key, "en": en, "ja": ja} for key, (en, ja) in PRESETS.items()]


def check_text(text: str) -> str:
    """A free-text line, trimmed, if it may be sent.

    Raises:
        RoomError: empty (``chat_empty``), longer than :data:`MAX_TEXT` (``chat_too_long``) or
            holding control characters (``chat_control``).
    """
    line = text.strip()
    if not line:
        raise RoomError("chat_empty", "The message is empty", "メッセージが空です")
    if len(line) > MAX_TEXT:
        raise RoomError(
            "chat_too_long",
            f"A message may be at most {MAX_TEXT} characters (this one has {len(line)})",
            f"メッセージは{MAX_TEXT}文字までです（{len(line)}文字あります）",
        )
    if any(unicodedata.category(ch) == "Cc" or ch in _BIDI for ch in line):
        raise RoomError(
            "chat_control",
            "A message cannot contain control characters",
            "メッセージに制御文字は使えません",
        )
    return line


class ChatLog:
    """The newest lines of a room (event bodies of kind ``chat``), oldest first."""

    def __init__(self, lines: Iterable[dict[str, Any]] = ()) -> None:
        self._lines: deque[dict[str, Any]] = deque(lines, maxlen=RECENT)

    def add(self, line: dict[str, Any]) -> None:
        """Keep one more line (the oldest falls off)."""
        self._lines.append(line)

    def view(self) -> list[dict[str, Any]]:
        """The kept lines, oldest first."""
        return list(self._lines)
