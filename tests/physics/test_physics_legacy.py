"""The legacy preset reproduces the physics of record format 1 bit for bit: 440 stored shots
(breaks, mid-game shots, piles, slow pushes into tight clusters) give the digests stored before
the friction models existed (``legacy_scenes.py``, ``data/legacy_golden.json``)."""

from __future__ import annotations

import json
from pathlib import Path

from legacy_scenes import digest, legacy_scenes

from hikone_carrom.board import BoardSpec
from hikone_carrom.physics import simulate

GOLDEN = json.loads((Path(__file__).parent / "data" / "legacy_golden.json").read_text())


def test_legacy_preset_reproduces_every_stored_shot_exactly() -> None:
    board = BoardSpec.legacy()
    differ = []
    names = []
    for sc in legacy_scenes(board):
        names.append(sc.name)
        res = simulate(sc.disks, board, seed=sc.seed, fly_off=sc.fly_off)
        if digest(res) != GOLDEN[sc.name]:
            differ.append(sc.name)
    assert names == list(GOLDEN)
    assert differ == []
