"""What a name may hold (a player's, an entrant's, a board's): no control characters, no ``<``
or ``>`` (a page or a printout could read them as markup), and no bidirectional overrides or
isolates (U+202A-U+202E, U+2066-U+2069), which reverse the text shown around a name.

One source for every check: Python (:func:`unsafe_name`), pydantic fields (:data:`NAME_PATTERN`)
and the browser (``NAME_FORBIDDEN`` in the generated ``web/js/pad/shared-rules.js``).
"""

from __future__ import annotations

import re

__all__ = ["NAME_FORBIDDEN", "NAME_PATTERN", "unsafe_name"]

NAME_FORBIDDEN = r"\x00-\x1f\x7f<>\u202a-\u202e\u2066-\u2069"
"""The characters a name refuses, as the inside of a regular expression's class (Python,
pydantic's and JavaScript's regular expressions read it alike)."""

NAME_PATTERN = f"^[^{NAME_FORBIDDEN}]*$"
"""A whole name without any of :data:`NAME_FORBIDDEN`."""

_FORBIDDEN = re.compile(f"[{NAME_FORBIDDEN}]")


def unsafe_name(text: str) -> bool:
    """Whether ``text`` holds a character a name refuses (:data:`NAME_FORBIDDEN`)."""
    return _FORBIDDEN.search(text) is not None
