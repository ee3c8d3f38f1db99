"""The PPO example's choices and evaluation harness run without the training extra (no torch)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
from env_helpers import position

from hikone_carrom.env import SoloClearEnv

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
    choice = example.evaluate(example.random_choice, 1)
    assert choice["cleared"] == 1.0 and 13 <= choice["mean"] < example.EVAL_CAP


def test_a_pot_choice_pockets_its_target_through_the_environment() -> None:
    example = _example()
    # R0 alone before the north-west pocket (index 3), the jack out of the way (R3a)
    match = position([("J", 0.1, 0.1), ("R0", -0.2, 0.2), ("R1", 0.15, -0.05)])
    env = SoloClearEnv(noise=0.0, fly_off=False, observation="flat")
    obs, _ = env.reset(seed=0, options={"position": match})
    tables = env.game.tables
    choices = example.ShotChoices.of(tables, 0)
    slot = 1 * example.POCKETS + 3  # R0 into the north-west pocket
    assert choices.mask[slot] and choices.features[slot, 0] == 1.0
    assert not choices.mask[0 * example.POCKETS + 3]  # the jack is no target before the pucks
    assert choices.mask[example.HITS + 1] and choices.mask[example.BREAK]
    seen = choices.observation(obs)
    assert seen.shape == (example.OBS_SIZE,) and np.array_equal(seen[: obs.size], obs)
    _, reward, _, _, info = env.step(choices.action(tables, 0, slot))
    assert "R3a" in info["reasons"] and reward == 1.0  # pocketed: the turn goes on
    assert tables.states[0].pocketed[0] == 11
