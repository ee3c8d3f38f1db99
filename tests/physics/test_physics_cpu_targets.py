"""The physics is the same on every x86-64 CPU (docs/record-format.md, "Replays on other
machines"): the engine compiled for this CPU and for numba's generic target, with numpy's
CPU-specific kernels switched off, gives the same bits for every stored real match position
(default and legacy physics, piles, fly-off draws) and replays a stored record exactly.

The generic build stands for any other x86-64 CPU: it uses no instruction the oldest one lacks,
so an engine whose results depended on the CPU (fused multiply-adds, vector maths) would differ
here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import hashlib, json
from pathlib import Path
from hikone_carrom.bench.positions import stored
from hikone_carrom.board import BoardSpec
from hikone_carrom.physics import simulate, simulate_batch
from hikone_carrom.records import read, replay

def digests(record):
    out = []
    positions = stored()
    for board in (BoardSpec(), BoardSpec.legacy()):
        h = hashlib.sha256()
        for k, pos in enumerate(positions):
            res = simulate(pos.shot_disks(board), board, seed=k)
            h.update(json.dumps(res.to_dict()).encode())
        out.append(h.hexdigest())
    first = positions[0]
    b = simulate_batch(first.layout(), [p.striker for p in positions], seeds=range(len(positions)))
    out.append(hashlib.sha256(b.x.tobytes() + b.y.tobytes() + b.status.tobytes()
                              + b.pocket.tobytes() + b.time_out.tobytes()).hexdigest())
    end = replay(read(record))
    out.append(hashlib.sha256(json.dumps(
        [[d.id, d.x, d.y, d.layer] for d in end.layout] + [repr(end.referee.scores())]
    ).encode()).hexdigest())
    return out
"""

RECORD = Path(__file__).parents[1] / "records" / "data" / "format1-random-greedy-seed6.json"


def _dispatched_numpy_features() -> str:
    """Every CPU feature numpy picks kernels by at run time (none is part of its baseline)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__

    return " ".join(__cpu_dispatch__)


def test_the_engine_gives_the_same_bits_on_a_generic_cpu(tmp_path: Path) -> None:
    here: dict[str, object] = {}
    exec(SCRIPT, here)
    host = here["digests"](str(RECORD))  # type: ignore[operator]
    env = dict(
        os.environ,
        NUMBA_CPU_NAME="generic",
        NUMBA_CPU_FEATURES="",
        NUMBA_CACHE_DIR=str(tmp_path / "numba-generic"),
        NPY_DISABLE_CPU_FEATURES=_dispatched_numpy_features(),
    )
    code = SCRIPT + f"\nprint(json.dumps(digests({str(RECORD)!r})))\n"
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    generic = json.loads(proc.stdout.strip().splitlines()[-1])
    assert generic == host
    assert len(set(host)) == len(host)
