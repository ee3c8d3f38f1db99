"""A server process is readied before it takes players: the engine loaded, start-up objects out
of the garbage collector's sight."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from hikone_carrom.board import BoardSpec
from hikone_carrom.server.core.warmup import YOUNG_THRESHOLD, quiet_collector, warm_up


def test_warm_up_freezes_what_exists_and_makes_young_collections_rarer() -> None:
    threshold = gc.get_threshold()
    made_before = [object()]
    try:
        warm_up(BoardSpec())
        frozen = gc.get_freeze_count()
        assert frozen > 10_000  # the libraries loaded so far
        assert gc.get_threshold() == (YOUNG_THRESHOLD, *threshold[1:])
        assert not any(o is made_before for o in gc.get_objects())  # out of the collector's sight
        made_after: list[object] = []
        assert any(o is made_after for o in gc.get_objects())
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


@pytest.fixture
def quiet() -> Iterator[None]:
    threshold = gc.get_threshold()
    try:
        quiet_collector()
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_an_event_sized_tree_dropped_at_once_is_left_to_reference_counting(quiet: None) -> None:
    collections = gc.get_stats()[0]["collections"]
    for _ in range(50):  # a shot's event: about 1,500 dicts and lists, built then dropped
        tree = [{"t0": float(k), "xy": [k, k]} for k in range(750)]
        del tree
    assert gc.get_stats()[0]["collections"] == collections


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_cyclic_garbage_is_still_collected_by_itself(quiet: None) -> None:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    kept = [[k] for k in range(2 * YOUNG_THRESHOLD)]  # new containers that stay
    assert gone() is None
    assert len(kept) == 2 * YOUNG_THRESHOLD
