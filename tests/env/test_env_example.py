"""The PPO example's environment and evaluation run without the training extra (no torch)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from hikone_carrom.env import Reward
from hikone_carrom.env.choices import ShotChoiceVectorEnv
from hikone_carrom.env.observation import FLAT_SIZE
from hikone_carrom.env.sb3 import SB3VecEnv

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
    choice = example.evaluate(example.random_choice, 1, choice=True)
    assert choice["cleared"] == 1.0 and 13 <= choice["mean"] < example.EVAL_CAP


def test_the_example_trains_on_the_library_choice_env() -> None:
    example = _example()
    vec = example.choice_vec_env(2, Reward(strike=-0.05), 150, False)
    assert isinstance(vec, SB3VecEnv) and isinstance(vec.native, ShotChoiceVectorEnv)
    vec.seed(10_000)
    obs = vec.reset()
    # the policy's input: the keys in order, flattened (SB3's CombinedExtractor)
    flat = np.concatenate([obs[k].reshape(2, -1) for k in vec.observation_space.spaces], axis=1)
    assert np.array_equal(flat[:, example.OBSERVATION_AT :], obs["observation"])
    assert flat.shape[1] == example.OBSERVATION_AT + FLAT_SIZE
    assert np.array_equal(np.stack(vec.env_method("action_masks")), obs["action_mask"] == 1)
