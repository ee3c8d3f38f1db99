"""Hostile strings for every user-supplied field, shared by the server and browser tests: markup
(reportlab's and HTML's), spreadsheet formulas, quotes, bidi and zero-width characters, rare
kanji, and names at their longest."""

from __future__ import annotations

from hikone_carrom.name_text import unsafe_name

MARKUP = ('<img src="/etc/passwd">', "<b>太字</b>", "a]]>b", "<font size=40>x</font>")
"""Text that markup would read as tags (names refuse these; other fields show them)."""

FORMULAS = ('=HYPERLINK("http://x")', "+1", "@SUM(1)", "-2+3", "\tTAB", "'quoted")
"""Text a spreadsheet would read as a formula (or a leading quote)."""

PLAIN = ("A & B &amp; &lt;", "\"double\" 'single'", "\u202eRTL\u200bzero\u200dwidth", "髙﨑")
"""Text that breaks naive escaping or normalising."""

HOSTILE = MARKUP + FORMULAS + PLAIN
NAME_SAFE = tuple(s for s in HOSTILE if not unsafe_name(s))
"""Hostile strings a player's name may hold (names refuse < >, control characters and
bidirectional overrides: hikone_carrom.name_text)."""


def longest(text: str, length: int) -> str:
    """``text`` padded with 髙 to ``length`` characters (a field at its allowed maximum)."""
    return (text + "髙" * length)[:length]


def uncell(text: str) -> str:
    """A CSV cell's text as written (one leading ``'`` of a neutralised formula dropped)."""
    return text[1:] if text.startswith("'") else text


def squeeze(text: str) -> str:
    """Text without white space, to compare with what pdftotext reads (lines wrap)."""
    return "".join(text.split())
