"""The shot-choice environments: the checkers, the mask on set positions, refusals, seeds."""

from __future__ import annotations

import functools
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from env_helpers import position
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import hikone_carrom.env as hk_env
from hikone_carrom.env import ActionError
from hikone_carrom.env.aec_choices import env as aec_choice_env
from hikone_carrom.env.choices import (
    BANKS,
    BREAK,
    CHOICES,
    FEATURES,
    HITS,
    POCKETS,
    ShotChoiceEnv,
    ShotChoiceVectorEnv,
    SoloClearChoiceEnv,
    solo_choice_vector_env,
)
from hikone_carrom.env.observation import FLAT_SIZE

CHECKED = [
    ("HikoneCarrom/SoloClearChoice-v1", {}),
    ("HikoneCarrom/SoloClearChoice-v1", {"banks": True, "noise": 0.0}),
    ("HikoneCarrom/MatchChoice-v1", {"opponent": "random", "seat": 1}),
]


class _BreakSample(spaces.Discrete):
    """The choice space sampling the break, the one choice open in every position (Gymnasium's
    checker samples without the mask, and before its resets)."""

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None:
            mask = np.zeros(self.n, dtype=np.int8)
            mask[BREAK] = 1
        return super().sample(mask=mask)


class _Checked(gym.Wrapper[Any, Any, Any, Any]):
    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)
        self.action_space = _BreakSample(CHOICES)

    @property
    def spec(self) -> Any:
        return self.env.spec


def _open(obs: dict[str, np.ndarray]) -> list[int]:
    return [int(k) for k in np.flatnonzero(obs["action_mask"])]


def test_every_choice_id_is_versioned_and_checked_here() -> None:
    assert set(hk_env.CHOICE_ENV_IDS) == {env_id for env_id, _ in CHECKED}
    for env_id in hk_env.CHOICE_ENV_IDS:
        assert gym.spec(env_id).version == 1


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped version")
@pytest.mark.parametrize(("env_id", "kwargs"), CHECKED)
def test_gymnasium_check_env(env_id: str, kwargs: dict[str, object]) -> None:
    env = gym.make(env_id, **kwargs)
    assert isinstance(env.unwrapped, ShotChoiceEnv)
    check_env(_Checked(env.unwrapped), skip_render_check=True)
    env.close()


def test_spaces_are_the_masked_agents_conventions() -> None:
    env = SoloClearChoiceEnv()
    assert env.action_space == spaces.Discrete(CHOICES)
    space = env.observation_space
    assert isinstance(space, spaces.Dict)
    assert list(space.spaces) == ["action_mask", "choices", "observation"]
    assert space["action_mask"].shape == (CHOICES,) and space["action_mask"].dtype == np.int8
    assert space["choices"].shape == (CHOICES * FEATURES,)
    assert space["observation"].shape == (FLAT_SIZE,)


def test_random_open_choices_stay_in_the_space_and_the_mask_is_action_masks() -> None:
    env = SoloClearChoiceEnv(strike_cap=60)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(60):
        assert env.observation_space.contains(obs)
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        assert obs["action_mask"][BREAK] == 1
        obs, _, terminated, truncated, info = env.step(int(rng.choice(_open(obs))))
        if terminated or truncated:
            break
    assert info["strikes"] >= 1


def test_the_mask_on_a_set_position() -> None:
    # R0 alone before the north-west pocket (index 3), R1 below the centre, the jack aside
    match = position([("J", 0.1, 0.1), ("R0", -0.2, 0.2), ("R1", 0.15, -0.05)])
    env = SoloClearChoiceEnv(noise=0.0, fly_off=False)
    obs, _ = env.reset(seed=0, options={"position": match})
    mask = obs["action_mask"]
    pot = 1 * POCKETS + 3  # R0 into the north-west pocket
    assert mask[pot] and obs["choices"][pot * FEATURES] == 1.0
    assert not mask[:POCKETS].any()  # the jack is no target before the own pucks (R5b)
    assert not mask[3 * POCKETS : BANKS].any()  # R2..R11 are in the pockets
    assert not mask[BANKS : BANKS + 13].any()  # banks only with banks=True
    assert mask[HITS + 1] and mask[HITS + 2] and not mask[HITS] and not mask[HITS + 3]
    assert mask[BREAK]
    closed = obs["choices"].reshape(CHOICES, FEATURES)[~mask.astype(bool)]
    assert not closed.any()  # a closed choice has no features
    _, reward, _, _, info = env.step(pot)
    assert "R3a" in info["reasons"] and reward == 1.0 and info["choice"] == pot
    assert env.game.tables.states[0].pocketed[0] == 11


def test_the_jack_opens_once_the_own_pucks_are_down() -> None:
    # every red puck pocketed: only the jack is a target (R6b)
    match = position([("J", -0.2, 0.2), ("G0", 0.15, -0.05)])
    env = SoloClearChoiceEnv(noise=0.0, fly_off=False)
    obs, _ = env.reset(seed=0, options={"position": match})
    mask = obs["action_mask"]
    assert mask[3]  # the jack into the north-west pocket
    assert not mask[POCKETS:BANKS].any()
    assert mask[HITS] and not mask[HITS + 1 : BREAK].any() and mask[BREAK]
    _, reward, terminated, _, _ = env.step(3)
    assert terminated and reward == 10.0  # the clear (R7a)


def test_banks_open_bank_slots() -> None:
    env = SoloClearChoiceEnv(banks=True, strike_cap=40)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    banks = 0
    for _ in range(40):
        banks += int(obs["action_mask"][BANKS:HITS].sum())
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(_open(obs))))
        if terminated or truncated:
            break
    assert banks > 0


@pytest.mark.parametrize("bad", [POCKETS, CHOICES, -1, 1.5, "0", [HITS + 1, BREAK]])
def test_a_closed_or_bad_choice_is_refused_and_changes_nothing(bad: object) -> None:
    env = SoloClearChoiceEnv()
    obs, _ = env.reset(seed=5)
    assert not obs["action_mask"][POCKETS]  # no pot of R0 at the opening (R2a)
    tables = env.game.tables
    before = (tables.sids[0], int(env.game.strikes[0]), env.game.rngs[0].bit_generator.state)
    with pytest.raises(ActionError, match="choice"):
        env.step(bad)
    assert (tables.sids[0], int(env.game.strikes[0]), env.game.rngs[0].bit_generator.state) == (
        before
    )
    fresh = SoloClearChoiceEnv()
    fresh.reset(seed=5)
    after, _, _, _, _ = env.step(BREAK)
    again, _, _, _, _ = fresh.step(BREAK)
    assert all(np.array_equal(after[k], again[k]) for k in after)


def _rollout(seed: int, steps: int) -> list[tuple[Any, ...]]:
    env = SoloClearChoiceEnv(strike_cap=steps)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen: list[tuple[Any, ...]] = []
    for _ in range(steps):
        choice = int(rng.choice(_open(obs)))
        obs, reward, terminated, truncated, _ = env.step(choice)
        seen.append((choice, float(reward), *(obs[k].tobytes() for k in sorted(obs))))
        if terminated or truncated:
            break
    return seen


def test_a_seed_gives_the_same_game() -> None:
    first = _rollout(7, 25)
    assert first == _rollout(7, 25)
    assert first != _rollout(8, 25)


def test_the_episode_end_asks_for_a_reset() -> None:
    env = SoloClearChoiceEnv(strike_cap=1)
    env.reset(seed=0)
    _, _, _, truncated, _ = env.step(BREAK)
    assert truncated
    with pytest.raises(gym.error.ResetNeeded):
        env.step(BREAK)
    with pytest.raises(gym.error.ResetNeeded):
        SoloClearChoiceEnv().step(BREAK)


def test_the_vector_env_is_single_envs_board_by_board() -> None:
    n = 3
    vec = gym.make_vec("HikoneCarrom/SoloClearChoice-v1", num_envs=n, strike_cap=3)
    assert isinstance(vec, ShotChoiceVectorEnv)
    assert vec.single_action_space == spaces.Discrete(CHOICES)
    obs, _ = vec.reset(seed=30)
    envs = [SoloClearChoiceEnv(strike_cap=3) for _ in range(n)]
    seen = [env.reset(seed=30 + k)[0] for k, env in enumerate(envs)]
    rng = np.random.default_rng(6)
    resets = 0
    for _ in range(9):
        assert vec.observation_space.contains(obs)
        for i in range(n):
            assert all(np.array_equal(obs[k][i], seen[i][k]) for k in seen[i])
        assert np.array_equal(vec.action_masks(), obs["action_mask"].astype(bool))
        resetting = vec.unwrapped.raw.resetting
        # a resetting board's choice is ignored, even a closed one
        choices = np.array(
            [POCKETS if resetting[i] else int(rng.choice(_open(seen[i]))) for i in range(n)]
        )
        obs, reward, terminated, truncated, _ = vec.step(choices)
        for i, env in enumerate(envs):
            if resetting[i]:
                seen[i], _ = env.reset()
                resets += 1
                assert reward[i] == 0.0
                continue
            seen[i], r, te, tr, _ = env.step(choices[i])
            assert reward[i] == r and terminated[i] == te and truncated[i] == tr
    assert resets >= n


def test_the_vector_env_refuses_a_closed_choice_naming_the_board() -> None:
    vec = solo_choice_vector_env(2)
    obs, _ = vec.reset(seed=9)
    assert not obs["action_mask"][1, POCKETS]
    before = (list(vec.game.tables.sids), vec.game.strikes.copy())
    with pytest.raises(ActionError, match="board 1: choice"):
        vec.step(np.array([BREAK, POCKETS]))
    with pytest.raises(ActionError, match="2 choices"):
        vec.step(np.array([BREAK]))
    assert list(vec.game.tables.sids) == before[0]
    assert np.array_equal(vec.game.strikes, before[1])


# PettingZoo's notes on any Dict observation (its own masked games draw them too)
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_and_seed_tests_of_the_choice_game(players: int) -> None:
    api_test(aec_choice_env(players=players), num_cycles=30)
    seed_test(functools.partial(aec_choice_env, players=players), num_cycles=20)


def test_the_choice_game_masks_all_but_the_shooter_and_refuses_a_closed_choice() -> None:
    game = aec_choice_env(players=4)
    game.reset(seed=3)
    shooter = game.agent_selection
    for agent in game.agents:
        obs = game.observe(agent)
        assert game.observation_space(agent).contains(obs)
        assert obs["action_mask"].any() == (agent == shooter)
    single = SoloClearChoiceEnv()  # the same opening: the same choices (R1a, R2a)
    opening, _ = single.reset(seed=3)
    assert np.array_equal(game.observe(shooter)["action_mask"], opening["action_mask"])
    raw = game.unwrapped
    before = raw.tables.sids[0]
    with pytest.raises(ActionError, match="masked out"):
        game.step(POCKETS)
    assert raw.tables.sids[0] == before and game.agent_selection == shooter
    game.step(BREAK)
    assert raw.tables.shots[0] == 1
    with pytest.raises(ValueError, match="observation"):
        aec_choice_env(observation="dict")
