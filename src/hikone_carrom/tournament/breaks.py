"""The day's breaks (休憩): times no match is planned across, the opening ceremony (開会式) and
lunch (昼休み). A break is ``(start_s, end_s)``, s from midnight, end excluded."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Break", "clear_of", "overlaps"]

Break = tuple[int, int]


def overlaps(breaks: Sequence[Break], start_s: int, end_s: int) -> bool:
    """Whether [``start_s``, ``end_s``) overlaps one of ``breaks``."""
    return any(start_s < b_end and b_start < end_s for b_start, b_end in breaks)


def clear_of(breaks: Sequence[Break], t: int, length_s: int) -> int:
    """The earliest time >= ``t`` at which a match of ``length_s`` is played without crossing a
    break (it may end as a break begins and start as it ends)."""
    moved = True
    while moved:
        moved = False
        for b_start, b_end in breaks:
            if t < b_end and b_start < t + length_s:
                t = b_end
                moved = True
    return t
