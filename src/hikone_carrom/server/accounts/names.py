"""Display names of accounts: what one may hold, and when two names are the same name.

Two names are the same when their comparison keys are equal: NFKC (full-width and half-width
forms alike), case folding, hiragana as katakana, small kana as full-size ones, long-vowel marks,
dashes, spaces and dots dropped, and Latin look-alikes (Cyrillic and Greek letters, 0/o, 1/l/i)
taken as one letter. A name whose key another account holds is refused: it would pass for them.
"""

from __future__ import annotations

import unicodedata

from hikone_carrom.name_text import unsafe_name

__all__ = ["NAME_MAX", "NAME_MIN", "name_key", "name_problem"]

NAME_MIN, NAME_MAX = 2, 24
"""A display name's length in characters, after surrounding spaces are dropped."""

_DROPPED = set(" _-.・ー〜~'\"`･‐‑‒–—―")
_LOOK_ALIKE = str.maketrans(
    {
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i",
        "ј": "j", "ѕ": "s", "к": "k", "м": "m", "н": "h", "т": "t", "в": "b",
        "α": "a", "ο": "o", "ρ": "p", "ι": "i", "κ": "k", "ν": "v", "τ": "t", "υ": "u",
        "0": "o", "1": "l", "i": "l", "|": "l", "!": "l",
    }
)  # fmt: skip
_SMALL_KANA = str.maketrans("ァィゥェォッャュョヮヵヶ", "アイウエオツヤユヨワカケ")
_HIRAGANA = range(0x3041, 0x3097)


def name_key(name: str) -> str:
    """The comparison key of a display name (see the module's description)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(chr(ord(c) + 0x60) if ord(c) in _HIRAGANA else c for c in text)
    text = text.translate(_SMALL_KANA).translate(_LOOK_ALIKE)
    # marks dropped: "ｶﾞ" and "ガ" are alike after NFKC; "é" and "e" are alike too
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if c not in _DROPPED and not unicodedata.combining(c))
    return text.replace("rn", "m").replace("vv", "w")


def name_problem(name: str) -> tuple[str, str] | None:
    """Why ``name`` cannot be a display name (English, Japanese), or None when it can."""
    shown = name.strip()
    if unsafe_name(shown) or any(
        unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp") for c in shown
    ):
        return (
            "A name may not contain < or >, control or invisible characters",
            "名前に < や >、制御文字や見えない文字は使えません",
        )
    if not NAME_MIN <= len(shown) <= NAME_MAX:
        return (
            f"A name has {NAME_MIN} to {NAME_MAX} characters",
            f"名前は{NAME_MIN}〜{NAME_MAX}文字です",
        )
    if len(name_key(shown)) < 1:
        return ("A name needs letters or digits", "名前には文字か数字が必要です")
    return None
