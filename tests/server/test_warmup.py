"""A server process is readied before it takes players: the engine loaded, start-up objects out
of the garbage collector's sight."""

from __future__ import annotations

import gc

from hikone_carrom.board import BoardSpec
from hikone_carrom.server.warmup import YOUNG_THRESHOLD, warm_up


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
