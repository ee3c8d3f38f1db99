"""The ecosystem's own conformance checkers on every environment (Gymnasium, PettingZoo)."""

from __future__ import annotations

import functools

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import hikone_carrom.env as hk_env
from hikone_carrom.env.aec import env as aec_env

REGISTERED = [
    ("HikoneCarrom/SoloClear-v1", {}),
    ("HikoneCarrom/SoloClear-v1", {"observation": "flat", "noise": 0.0}),
    ("HikoneCarrom/Match-v1", {"opponent": "random"}),
    ("HikoneCarrom/Match-v1", {"opponent": "greedy", "seat": 1, "observation": "flat"}),
]


def test_every_registered_id_is_versioned_and_checked_here() -> None:
    assert set(hk_env.ENV_IDS) == {env_id for env_id, _ in REGISTERED}
    for env_id in hk_env.ENV_IDS:
        assert gym.spec(env_id).version == 1


@pytest.mark.parametrize(("env_id", "kwargs"), REGISTERED)
def test_gymnasium_check_env(env_id: str, kwargs: dict[str, object]) -> None:
    env = gym.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


def test_gymnasium_check_env_renders_rgb_array() -> None:
    env = gym.make("HikoneCarrom/SoloClear-v1", render_mode="rgb_array")
    check_env(env.unwrapped)
    env.reset(seed=1)
    frame = env.render()
    assert isinstance(frame, np.ndarray)
    assert frame.shape == (480, 480, 3) and frame.dtype == np.uint8
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 5  # the board is drawn, not blank
    env.close()


def test_make_vec_gives_the_native_vector_env() -> None:
    envs = gym.make_vec("HikoneCarrom/SoloClear-v1", num_envs=3)
    assert isinstance(envs, hk_env.CarromVectorEnv)
    obs, _ = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    obs, reward, terminated, truncated, _ = envs.step(envs.action_space.sample())
    assert envs.observation_space.contains(obs)
    assert reward.shape == terminated.shape == truncated.shape == (3,)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_pettingzoo_api_test(players: int, observation: str) -> None:
    api_test(aec_env(players=players, observation=observation), num_cycles=60)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(functools.partial(aec_env, players=players), num_cycles=40)


def test_pettingzoo_game_is_not_parallelizable() -> None:
    # Only the shooter acts and it may act again (R3a): there is no simultaneous move.
    assert aec_env().metadata["is_parallelizable"] is False
