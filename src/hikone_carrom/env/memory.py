"""Memories shared by every environment of a process, each bounded (:func:`remember`)."""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["MEMO", "remember", "shared_memo"]

_SHARED: dict[tuple[object, ...], dict[Any, Any]] = {}


def shared_memo(*scope: object) -> dict[Any, Any]:
    """The memory of ``scope`` (what it remembers and for which game and board) shared by every
    environment of this process: what is remembered is a pure function of its key (a ruling of
    a state and report, a placement of the pieces near a line, an observation of a state), so
    a new environment starts from what earlier ones found."""
    return _SHARED.setdefault(scope, {})


_K = TypeVar("_K")
_V = TypeVar("_V")
MEMO = 100_000
"""Entries a memory holds before it is cleared (:func:`remember`)."""


def remember(memo: dict[_K, _V], key: _K, value: _V) -> _V:
    """``memo[key] = value``, the memory cleared first once it holds :data:`MEMO` entries (a
    long run meets more states than it should keep); returns ``value``."""
    if len(memo) >= MEMO:
        memo.clear()
    memo[key] = value
    return value
