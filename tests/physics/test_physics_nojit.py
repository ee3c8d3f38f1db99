"""One implementation: the same code without numba's JIT gives bit-identical results, with the
friction models (piles riding, throw, rail friction) and with the legacy setting."""

from __future__ import annotations

import json
import os
import subprocess
import sys

SCRIPT = r"""
import hashlib, json, math
from hikone_carrom.bench.scenes import midgame_scenes, opening_break
from hikone_carrom.board import BoardSpec
from hikone_carrom.physics import Disk, simulate, simulate_batch

def digests():
    out = []
    scenes = [opening_break()] + midgame_scenes(3, seed=99)
    shots = [(sc.disks(), BoardSpec()) for sc in scenes]
    shots.append((scenes[0].disks(), BoardSpec.legacy()))
    pile = [Disk.jack("J", 0.0, 0.0), Disk.puck("R0", 0.002, 0.0, layer=1),
            Disk.puck("R1", 0.0, 0.003, layer=2)]
    for speed in (0.7, 1.2, 3.0):
        shots.append(([*pile, Disk.shot("S", 0.004, -0.2, math.pi / 2, speed)], BoardSpec()))
    for k, (disks, board) in enumerate(shots):
        res = simulate(disks, board, seed=k)
        out.append(hashlib.sha256(json.dumps(res.to_dict()).encode()).hexdigest())
    b = simulate_batch(scenes[1].layout, [s.shot for s in scenes[1:]], seeds=[5, 6, 7])
    out.append(hashlib.sha256(b.x.tobytes() + b.y.tobytes() + b.status.tobytes()).hexdigest())
    return out
"""


def _digests(env: dict[str, str]) -> list[str]:
    code = SCRIPT + "\nprint(json.dumps(digests()))\n"
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    out: list[str] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def test_jit_and_pure_python_give_identical_bits() -> None:
    here: dict[str, object] = {}
    exec(SCRIPT, here)
    jit = here["digests"]()  # type: ignore[operator]
    assert _digests(dict(os.environ, NUMBA_DISABLE_JIT="1")) == jit
    assert len(set(jit)) == len(jit)
