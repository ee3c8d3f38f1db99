"""One implementation: the same code without numba's JIT gives bit-identical results."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

from hikone_carrom.physics import simulate, simulate_batch

SCRIPT = r"""
import hashlib, json, sys
from hikone_carrom.bench.scenes import midgame_scenes, opening_break
from hikone_carrom.physics import simulate, simulate_batch
out = []
scenes = [opening_break()] + midgame_scenes(3, seed=99)
for k, sc in enumerate(scenes):
    res = simulate(sc.disks(), seed=k)
    out.append(hashlib.sha256(json.dumps(res.to_dict()).encode()).hexdigest())
b = simulate_batch(scenes[1].layout, [s.shot for s in scenes[1:]], seeds=[5, 6, 7])
out.append(hashlib.sha256(b.x.tobytes() + b.y.tobytes() + b.status.tobytes()).hexdigest())
print(json.dumps(out))
"""


def _here() -> list[str]:
    from hikone_carrom.bench.scenes import midgame_scenes, opening_break

    out = []
    scenes = [opening_break(), *midgame_scenes(3, seed=99)]
    for k, sc in enumerate(scenes):
        res = simulate(sc.disks(), seed=k)
        out.append(hashlib.sha256(json.dumps(res.to_dict()).encode()).hexdigest())
    b = simulate_batch(scenes[1].layout, [s.shot for s in scenes[1:]], seeds=[5, 6, 7])
    out.append(hashlib.sha256(b.x.tobytes() + b.y.tobytes() + b.status.tobytes()).hexdigest())
    return out


def test_jit_and_pure_python_give_identical_bits() -> None:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == _here()
