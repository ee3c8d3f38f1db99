"""The Stable-Baselines3 VecEnv adapter: the native vector env's games, SB3's episode ends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from hikone_carrom.env import CarromVectorEnv, MatchEnv, SoloClearEnv
from hikone_carrom.env.choices import ShotChoiceVectorEnv, SoloClearChoiceEnv
from hikone_carrom.env.sb3 import SB3VecEnv
from hikone_carrom.env.vector import match_vector_env, solo_vector_env

VEC_ENV_API = (
    "reset",
    "step_async",
    "step_wait",
    "step",
    "close",
    "get_attr",
    "set_attr",
    "env_method",
    "env_is_wrapped",
    "seed",
    "get_images",
)

Stream = list[tuple[float, bool, bytes]]


def _bytes(obs: Any) -> bytes:
    if isinstance(obs, dict):
        return b"".join(np.asarray(obs[k]).tobytes() for k in sorted(obs))
    return np.asarray(obs).tobytes()


def _row(obs: Any, i: int) -> Any:
    return {k: v[i] for k, v in obs.items()} if isinstance(obs, dict) else obs[i]


CASES = [
    (solo_vector_env, SoloClearEnv, {"strike_cap": 4, "observation": "flat"}),
    (match_vector_env, MatchEnv, {"opponent": "random", "strike_cap": 3}),
]


def test_the_adapter_has_the_vec_env_api_without_sb3() -> None:
    adapter = SB3VecEnv(solo_vector_env(2))
    for name in VEC_ENV_API:
        assert callable(getattr(adapter, name)), name
    assert adapter.num_envs == 2
    assert adapter.observation_space == adapter.native.single_observation_space
    assert adapter.action_space == adapter.native.single_action_space


@pytest.mark.parametrize(("make", "single", "kwargs"), CASES)
def test_the_adapter_plays_the_native_vector_envs_games_step_by_step(
    make: Callable[..., CarromVectorEnv], single: type, kwargs: dict[str, Any]
) -> None:
    n, steps = 3, 14
    rng = np.random.default_rng(1)
    queues = rng.uniform(-1.0, 1.0, (n, 2 * steps, 3)).astype(np.float32)
    # the native env: a board's autoreset step takes no action from its queue
    native = make(n, **kwargs)
    obs, _ = native.reset(seed=20)
    native_seen: list[Stream] = [[] for _ in range(n)]
    used = [0] * n
    while min(used) < steps:
        resetting = native.resetting
        actions = np.zeros((n, 3), dtype=np.float32)
        for i in np.flatnonzero(~resetting).tolist():
            actions[i] = queues[i, used[i]]
            used[i] += 1
        obs, reward, terminated, truncated, _ = native.step(actions)
        for i in range(n):
            row = _bytes(_row(obs, i))
            if resetting[i]:  # the new game's first observation
                native_seen[i][-1] = (*native_seen[i][-1][:2], row)
            else:
                native_seen[i].append((float(reward[i]), bool(terminated[i] | truncated[i]), row))
    adapter = SB3VecEnv(make(n, **kwargs))
    assert adapter.seed(20) == [20, 21, 22]
    first = adapter.reset()
    assert _bytes(first) == _bytes(make(n, **kwargs).reset(seed=20)[0])
    adapter_seen: list[Stream] = [[] for _ in range(n)]
    ends = 0
    for k in range(steps):
        obs, reward, done, infos = adapter.step(queues[:, k])
        assert reward.dtype == np.float32 and done.dtype == np.bool_
        for i in range(n):
            strikes = adapter.native.game.strikes[i]  # 0 again on a board that ended
            assert infos[i]["strikes"] >= 1 if done[i] else infos[i]["strikes"] == strikes
            adapter_seen[i].append((float(reward[i]), bool(done[i]), _bytes(_row(obs, i))))
            if done[i]:
                ends += 1
                terminal = native_seen[i][k]
                assert "terminal_observation" in infos[i] and "won" in infos[i]
                assert isinstance(infos[i]["TimeLimit.truncated"], bool)
                assert terminal[1]
    assert ends >= n
    for i in range(n):
        assert adapter_seen[i] == native_seen[i][:steps]


@pytest.mark.parametrize(("make", "single", "kwargs"), CASES)
def test_the_adapter_equals_single_envs(
    make: Callable[..., CarromVectorEnv], single: type, kwargs: dict[str, Any]
) -> None:
    n = 3
    adapter = SB3VecEnv(make(n, **kwargs))
    adapter.seed(50)
    obs = adapter.reset()
    envs = [single(**kwargs) for _ in range(n)]
    seen = [env.reset(seed=50 + k)[0] for k, env in enumerate(envs)]
    rng = np.random.default_rng(2)
    for _ in range(10):
        for i in range(n):
            assert _bytes(_row(obs, i)) == _bytes(seen[i])
        actions = rng.uniform(-1.0, 1.0, (n, 3)).astype(np.float32)
        obs, reward, done, infos = adapter.step(actions)
        for i, env in enumerate(envs):
            last, r, terminated, truncated, _ = env.step(actions[i])
            assert reward[i] == np.float32(r) and done[i] == (terminated or truncated)
            if done[i]:
                assert _bytes(infos[i]["terminal_observation"]) == _bytes(last)
                assert infos[i]["TimeLimit.truncated"] == (truncated and not terminated)
                last, _ = env.reset()
            seen[i] = last


def test_attributes_and_methods_of_the_boards() -> None:
    adapter = SB3VecEnv(gym.make_vec("HikoneCarrom/SoloClearChoice-v1", num_envs=3))
    assert isinstance(adapter.native, ShotChoiceVectorEnv)
    adapter.seed(4)
    adapter.reset()
    assert adapter.get_attr("num_envs") == [3, 3, 3]
    assert adapter.get_attr("banks", indices=[1]) == [False]
    assert adapter.has_attr("action_masks") and not adapter.has_attr("missing")
    with pytest.raises(AttributeError):
        adapter.get_attr("missing")
    adapter.set_attr("banks", True)
    assert adapter.get_attr("banks", indices=2) == [True]
    adapter.set_attr("banks", False)
    masks = adapter.env_method("action_masks")
    assert len(masks) == 3
    for k, mask in enumerate(masks):
        env = SoloClearChoiceEnv()
        env.reset(seed=4 + k)
        assert np.array_equal(mask, env.action_masks())
    assert np.array_equal(adapter.env_method("action_masks", indices=[2])[0], masks[2])
    assert np.array_equal(adapter.action_masks(), np.stack(masks))
    assert adapter.env_is_wrapped(gym.Wrapper) == [False, False, False]
    assert adapter.env_is_wrapped(gym.Wrapper, indices=[0]) == [False]
    adapter.set_options({"position": None})
    with pytest.raises(ValueError, match="no reset options"):
        adapter.reset()
    adapter.close()


def test_step_wait_needs_step_async() -> None:
    adapter = SB3VecEnv(solo_vector_env(2))
    adapter.reset()
    with pytest.raises(RuntimeError, match="step_async"):
        adapter.step_wait()
