"""The first computer move after a server start is as quick as any other: a warm worker has
compiled (or loaded) everything any computer player, the hint and the analysis run on."""

from __future__ import annotations

import asyncio

from hikone_carrom.ai import hint, make_player, take_turn
from hikone_carrom.ai.analysis import analyse
from hikone_carrom.board import BoardSpec
from hikone_carrom.match import Match
from hikone_carrom.records import to_record
from hikone_carrom.server.thinking.pool import ProcessBackend


def _compiled() -> set[str]:
    from hikone_carrom.physics import _engine, _pack

    return {
        f"{module.__name__}.{name}{signature}"
        for module in (_engine, _pack)
        for name, fn in vars(module).items()
        if hasattr(fn, "signatures")
        for signature in fn.signatures
    }


def _compiled_by_every_kind_of_job() -> list[str]:
    """In a worker: what the jobs of every computer player, a hint and an analysed shot
    compile that the worker had not compiled before."""
    before = _compiled()
    match = Match(2, seed=4)
    for name in ("random", "aim", "greedy", 1, 2, 3, 4, 5, 6):
        take_turn(match, make_player(name, 1))
    hint(match, 2)
    analyse(to_record(match), [1], draws=2)
    return sorted(_compiled() - before)


def test_a_warm_worker_has_nothing_left_to_compile_for_any_job() -> None:
    backend = ProcessBackend(1, warm=BoardSpec())
    try:
        asyncio.run(backend.start())
        missing = backend._executor().submit(_compiled_by_every_kind_of_job).result(timeout=600)
    finally:
        backend.close()
    assert missing == []
