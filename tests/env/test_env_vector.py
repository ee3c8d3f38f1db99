"""The native vector environment: board k is the single environment seeded seed + k, through
episode ends (Gymnasium 1.x autoreset, NEXT_STEP)."""

from __future__ import annotations

from collections.abc import Callable

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from hikone_carrom.env import CarromVectorEnv, MatchEnv, SoloClearEnv
from hikone_carrom.env.vector import match_vector_env, solo_vector_env
from hikone_carrom.match.hand import FEW


@pytest.mark.parametrize(
    ("env_id", "kwargs", "single"),
    [
        ("HikoneCarrom/SoloClear-v1", {"strike_cap": 7}, SoloClearEnv),
        ("HikoneCarrom/Match-v1", {"opponent": "random", "time_shots": 9}, MatchEnv),
    ],
)
def test_vector_env_equals_sync_vector_env_of_single_envs(
    env_id: str, kwargs: dict[str, object], single: type
) -> None:
    n = 5
    native = gym.make_vec(env_id, num_envs=n, observation="flat", **kwargs)
    assert isinstance(native, CarromVectorEnv)
    assert native.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    sync = SyncVectorEnv(
        [lambda: single(observation="flat", **kwargs) for _ in range(n)],
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )
    a_obs, _ = native.reset(seed=40)
    b_obs, _ = sync.reset(seed=40)
    assert np.array_equal(a_obs, b_obs)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(30):
        actions = rng.uniform(-1.0, 1.0, (n, 3)).astype(np.float32)
        a = native.step(actions)
        b = sync.step(actions)
        for x, y in zip(a[:4], b[:4], strict=True):
            assert np.array_equal(x, y)
        ended += int((a[2] | a[3]).sum())
    assert ended >= n  # every board went through at least one autoreset
    native.close()
    sync.close()


@pytest.mark.parametrize(
    ("make", "single"), [(solo_vector_env, SoloClearEnv), (match_vector_env, MatchEnv)]
)
def test_a_batch_worked_on_arrays_equals_single_envs_one_shot_at_a_time(
    make: Callable[..., CarromVectorEnv], single: type
) -> None:
    # FEW boards or more: the actions, the hand's noise and the angles go through the array
    # path; a single environment's batch of one goes one by one (no episode ends in 12 strikes)
    n = FEW + 3
    kwargs = {"opponent": "random"} if single is MatchEnv else {}
    native = make(n, **kwargs)
    envs = [single(**kwargs) for _ in range(n)]
    first, _ = native.reset(seed=90)
    seen = [env.reset(seed=90 + k)[0] for k, env in enumerate(envs)]
    rng = np.random.default_rng(4)
    for _ in range(12):
        for key, value in first.items():
            assert np.array_equal(value, np.stack([o[key] for o in seen]))
        actions = rng.uniform(-1.1, 1.1, (n, 3)).astype(np.float32)
        first, reward, terminated, truncated, _ = native.step(actions)
        steps = [env.step(a) for env, a in zip(envs, actions, strict=True)]
        seen = [s[0] for s in steps]
        assert np.array_equal(reward, [s[1] for s in steps])
        assert not terminated.any() and not truncated.any()
        assert not any(s[2] or s[3] for s in steps)


def test_vector_infos_and_autoreset() -> None:
    envs = gym.make_vec("HikoneCarrom/SoloClear-v1", num_envs=3, strike_cap=2)
    obs, infos = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    assert list(infos["strikes"]) == [0, 0, 0]
    actions = np.zeros((3, 3), np.float32)
    _, _, terminated, truncated, infos = envs.step(actions)
    assert not truncated.any() and list(infos["strikes"]) == [1, 1, 1]
    _, _, terminated, truncated, infos = envs.step(actions)
    assert truncated.all() and not terminated.any()
    assert infos["_won"].all() and not infos["won"].any()
    obs, reward, terminated, truncated, infos = envs.step(actions)  # the autoreset step
    assert (reward == 0).all() and not (terminated | truncated).any()
    assert list(infos["strikes"]) == [0, 0, 0]
    assert (obs["time_left"] == 1.0).all() and (obs["first_shot"] == 1.0).all()


def test_vector_env_renders_each_board() -> None:
    envs = gym.make_vec("HikoneCarrom/SoloClear-v1", num_envs=2, render_mode="rgb_array")
    envs.reset(seed=1)
    frames = envs.render()
    assert frames is not None and len(frames) == 2
    assert all(f.shape == (480, 480, 3) for f in frames)


def test_vector_seeds_may_be_given_per_board() -> None:
    envs = gym.make_vec("HikoneCarrom/SoloClear-v1", num_envs=2, observation="flat")
    single = SoloClearEnv(observation="flat")
    envs.reset(seed=[7, 3])
    single.reset(seed=3)
    actions = np.array([[0.1, 0.2, 0.3], [0.4, -0.5, 0.6]], np.float32)
    obs, reward, *_ = envs.step(actions)
    obs1, reward1, *_ = single.step(actions[1])
    assert np.array_equal(obs[1], obs1) and reward[1] == reward1
    with pytest.raises(ValueError):
        envs.reset(seed=[1, 2, 3])


def test_reset_mask_resets_only_those_boards_as_sync_vector_env_does() -> None:
    n = 4
    native = gym.make_vec("HikoneCarrom/SoloClear-v1", num_envs=n, observation="flat")
    sync = SyncVectorEnv(
        [lambda: SoloClearEnv(observation="flat") for _ in range(n)],
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )
    native.reset(seed=21)
    sync.reset(seed=21)
    rng = np.random.default_rng(5)
    for step in range(6):
        actions = rng.uniform(-1.0, 1.0, (n, 3)).astype(np.float32)
        native.step(actions)
        sync.step(actions)
        if step == 2:
            mask = np.array([False, True, False, True])
            a_obs, a_info = native.reset(options={"reset_mask": mask})
            b_obs, _ = sync.reset(options={"reset_mask": mask.copy()})
            assert np.array_equal(a_obs, b_obs)
            assert list(a_info["strikes"]) == [3, 0, 3, 0]
    a = native.step(np.zeros((n, 3), np.float32))
    b = sync.step(np.zeros((n, 3), np.float32))
    for x, y in zip(a[:4], b[:4], strict=True):
        assert np.array_equal(x, y)
    for bad in (np.zeros(n, dtype=bool), np.ones(n + 1, dtype=bool), np.ones(n)):
        with pytest.raises(ValueError):
            native.reset(options={"reset_mask": bad})
