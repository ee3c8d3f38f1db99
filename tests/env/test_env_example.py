"""The PPO example's evaluation harness runs without the training extra (no torch needed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_ppo.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_ppo"] = module
    spec.loader.exec_module(module)
    return module


def test_baselines_play_the_solo_clear_through_the_environment() -> None:
    example = _example()
    aim = example.evaluate(lambda s: example.player_policy("aim", s), 1)
    assert aim["games"] == 1 and 13 <= aim["mean"] <= example.EVAL_CAP
    uniform = example.evaluate(example.random_action, 1)
    assert uniform["mean"] == example.EVAL_CAP and uniform["cleared"] == 0.0
