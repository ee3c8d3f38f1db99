"""The daily puzzle: one shipped puzzle per UTC date, the same for everyone."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence

from hikone_carrom.learn.puzzles import Puzzle

__all__ = ["daily_puzzle"]


def daily_puzzle(puzzles: Sequence[Puzzle], day: dt.date) -> Puzzle:
    """The puzzle of ``day`` (a UTC date): chosen by a hash of the date, so it needs no state
    and every server answers the same."""
    digest = hashlib.sha256(f"hikone-carrom puzzle {day.isoformat()}".encode()).digest()
    return puzzles[int.from_bytes(digest[:8], "big") % len(puzzles)]
