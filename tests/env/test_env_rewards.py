"""Rewards (penalties R5, debt R5i, the win R7a), termination, truncation, determinism."""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
import pytest
from env_helpers import BOARD, position

from hikone_carrom.env import MatchEnv, Reward, SoloClearEnv, action_of
from hikone_carrom.match import Match, Shot

LINE_Y = -(BOARD.half_width - BOARD.area_line_offset)
POCKET_LINE = math.atan2(0.3 - LINE_Y, -0.3 + 0.2)
"""From the left end of seat 0's area line (-0.2 m) to the north-west pocket's corner, rad."""
ON_THE_WAY = (-0.2 + 0.3 * math.cos(POCKET_LINE), LINE_Y + 0.3 * math.sin(POCKET_LINE))
"""A point on that line, 0.3 m from the striker (m)."""
EAST_PUCKS = [(f"R{k}", 0.06 + 0.04 * (k % 4), -0.1 + 0.05 * (k // 4)) for k in range(12)]


def _into_the_pocket(env: SoloClearEnv, x: float = -0.2) -> np.ndarray:
    """The action sending the striker from seat 0's area line at ``x`` (m) hard and straight
    into the north-west pocket (nothing lies in its way in these positions)."""
    placement = env.game.tables.placement(0)
    angle = math.atan2(0.29 - LINE_Y, -0.29 - x)
    return action_of(placement, Shot(x, LINE_Y, angle, 3.0), BOARD)


def test_R5a_R5i_a_pocketed_striker_with_nothing_in_the_pockets_adds_debt() -> None:
    match = position([("J", 0.0, 0.0), *EAST_PUCKS])  # every red puck on the board
    env = SoloClearEnv(noise=0.0, fly_off=False)
    env.reset(seed=1, options={"position": match})
    _, reward, terminated, _, info = env.step(_into_the_pocket(env))
    assert "R5a" in info["reasons"] and "R5i" in info["reasons"] and info["penalty"] == 1
    assert reward == -1.0 and not terminated
    state = env.game.tables.states[0]
    assert state.debt == (1, 0) and state.pocketed[0] == 0
    obs, reward, _, _, _ = env.step(_into_the_pocket(env))
    assert reward == -1.0 and env.game.tables.states[0].debt == (2, 0)
    assert obs["counts"][1] == 2  # own debt is observed


def test_R5h_a_penalty_returns_a_pocketed_puck_and_costs_it() -> None:
    match = position([("J", 0.0, 0.0), ("R0", 0.1, 0.1), ("R1", 0.15, 0.1)])  # 10 pocketed
    env = SoloClearEnv(noise=0.0, fly_off=False)
    obs, _ = env.reset(seed=2, options={"position": match})
    assert obs["counts"][0] == 10 and obs["counts"][2] == 2
    obs, reward, _, _, info = env.step(_into_the_pocket(env))
    assert "R5h" in info["reasons"] and "R5a" in info["reasons"]
    assert reward == -1.0
    assert env.game.tables.states[0].pocketed[0] == 9
    assert obs["jack_pile"][0] == 1.0  # the returned puck lies on the jack (R6e)


def test_R7a_the_win_gives_the_terminal_reward() -> None:
    # every red puck pocketed (R6b); the jack on the way to the north-west pocket
    match = position([("J", *ON_THE_WAY), ("G0", 0.2, 0.2)])
    env = SoloClearEnv(noise=0.0, fly_off=False, reward=Reward(win=7.5))
    env.reset(seed=3, options={"position": match})
    placement = env.game.tables.placement(0)
    shot = Shot(-0.2, LINE_Y, POCKET_LINE, 2.0)  # the jack, straight on into the pocket
    _, reward, terminated, truncated, info = env.step(action_of(placement, shot, BOARD))
    assert terminated and not truncated and "R7a" in info["reasons"], info
    assert reward == 7.5
    assert env.game.tables.states[0].winner is not None


def test_pucks_and_strikes_are_weighted_as_configured() -> None:
    match = position([("J", 0.0, 0.0), ("R0", *ON_THE_WAY), ("R1", 0.1, 0.1)])
    env = SoloClearEnv(noise=0.0, fly_off=False, reward=Reward(puck=2.0, strike=-0.25))
    env.reset(seed=4, options={"position": match})
    placement = env.game.tables.placement(0)
    shot = Shot(-0.2, LINE_Y, POCKET_LINE, 2.5)  # R0, straight on into the pocket
    _, reward, terminated, _, info = env.step(action_of(placement, shot, BOARD))
    assert "R3a" in info["reasons"] and not terminated
    assert reward == pytest.approx(2.0 - 0.25)
    shot = Shot(0.2, LINE_Y, math.pi / 2, 0.05)  # a touch that reaches nothing
    _, reward, _, _, info = env.step(action_of(env.game.tables.placement(0), shot, BOARD))
    assert reward == pytest.approx(-0.25)


def test_truncated_at_the_strike_cap_and_reset_needed_after() -> None:
    env = SoloClearEnv(strike_cap=3)
    env.reset(seed=5)
    flags = []
    for _ in range(3):
        _, _, terminated, truncated, info = env.step(np.array([0.0, 0.0, -0.9], np.float32))
        flags.append((terminated, truncated))
    assert flags == [(False, False), (False, False), (False, True)]
    assert info["strikes"] == 3
    with pytest.raises(gym.error.ResetNeeded):
        env.step(np.zeros(3, np.float32))
    obs, _ = env.reset()
    assert obs["strikes_left"][0] == 1.0 and obs["time_left"][0] == 1.0


@pytest.mark.parametrize("env_id", ["HikoneCarrom/SoloClear-v1", "HikoneCarrom/Match-v1"])
def test_deterministic_for_a_seed(env_id: str) -> None:
    kwargs = {"opponent": "random"} if "Match" in env_id else {}

    def rollout(seed: int) -> list[tuple[object, ...]]:
        env = gym.make(env_id, observation="flat", **kwargs)
        env.reset(seed=seed)
        actions = np.random.default_rng(99)
        out = []
        for _ in range(25):
            obs, reward, terminated, truncated, _ = env.step(actions.uniform(-1, 1, 3))
            out.append((obs.tobytes(), reward, terminated, truncated))
            if terminated or truncated:
                env.reset()
        return out

    assert rollout(11) == rollout(11)
    assert rollout(11) != rollout(12)


def test_match_time_is_called_and_the_rules_decide() -> None:
    env = MatchEnv(opponent="random", time_shots=6, reward=Reward(rival=1.0, draw=0.5))
    env.reset(seed=6)
    for _ in range(40):
        _, _, terminated, truncated, _ = env.step(np.array([0.0, 0.0, -0.95], np.float32))
        if terminated:
            break
    assert terminated and not truncated
    state = env.game.tables.states[0]
    assert state.time_called and state.outcome is not None  # R7b-R7d
    match = env.match()
    assert match.referee.state == state  # the episode replays as a Match (its record)


def test_match_opponent_moves_between_the_agents_strikes() -> None:
    env = MatchEnv(opponent="greedy", seat=1)
    obs, _ = env.reset(seed=7)
    tables = env.game.tables
    assert tables.states[0].shooter == 1 and tables.shots[0] >= 1  # red (greedy) opened
    assert obs["turn"][0] == 1.0 and obs["first_shot"][0] == 1.0
    # seen from seat 1 (north), its own area line is the south one: the tee spot is at y < 0
    placement = tables.placement(0)
    assert placement.point[1] > 0  # in board coordinates seat 1 sits north


def test_a_match_start_position_must_be_singles_in_play() -> None:
    env = SoloClearEnv()
    with pytest.raises(ValueError):
        env.reset(seed=0, options={"position": Match(players=4)})
    with pytest.raises(ValueError):
        env.reset(seed=0, options={"position": "R1a"})


def _own_distance(env: SoloClearEnv) -> float:
    """Summed distance (m) from red's pucks on the board to their nearest pocket's centre."""
    t = env.game.tables
    total = 0.0
    for d in t.layout(0):
        if d.id.startswith("R"):
            total += min(math.hypot(d.x - cx, d.y - cy) for cx, cy in BOARD.pocket_centres())
    return total


def test_potential_shaping_telescopes_to_the_change_of_the_pucks_distance() -> None:
    # gamma 1: the shaping terms of an episode add up to phi(last) - phi(first), whatever the
    # strikes did, so it cannot change which policy is best (Ng et al. 1999)
    shaped = SoloClearEnv(reward=Reward(approach=2.0), strike_cap=12)
    plain = SoloClearEnv(strike_cap=12)
    shaped.reset(seed=8)
    plain.reset(seed=8)
    first = _own_distance(shaped)
    assert first > 0.0
    actions = np.random.default_rng(8).uniform(-1.0, 1.0, (12, 3))
    extra = 0.0
    for a in actions:
        _, r_shaped, terminated, truncated, _ = shaped.step(a)
        _, r_plain, *_ = plain.step(a)
        extra += r_shaped - r_plain
        if terminated or truncated:
            break
    assert truncated and not terminated
    assert extra == pytest.approx(-2.0 * _own_distance(shaped) + 2.0 * first, abs=1e-9)


def test_potential_shaping_step_is_discounted_and_zero_after_the_win() -> None:
    match = position([("J", *ON_THE_WAY), ("G0", 0.2, 0.2)])  # every red puck pocketed
    env = SoloClearEnv(noise=0.0, fly_off=False, reward=Reward(approach=3.0, gamma=0.5))
    env.reset(seed=3, options={"position": match})
    shot = Shot(-0.2, LINE_Y, POCKET_LINE, 2.0)  # the jack into the pocket: the win (R7a)
    _, reward, terminated, _, _ = env.step(action_of(env.game.tables.placement(0), shot, BOARD))
    assert terminated and reward == 10.0  # no red puck on the board: phi is 0 throughout
    match = position([("J", 0.0, 0.0), ("R0", 0.1, 0.1)])
    env.reset(seed=3, options={"position": match})
    before = _own_distance(env)
    touch = Shot(0.2, LINE_Y, math.pi / 2, 0.05)  # reaches nothing: the puck stays
    _, reward, _, _, _ = env.step(action_of(env.game.tables.placement(0), touch, BOARD))
    assert reward == pytest.approx(0.5 * -3.0 * before + 3.0 * before)


@pytest.mark.parametrize("bad", [{"gamma": 1.5}, {"gamma": -0.1}, {"approach": math.inf}])
def test_reward_weights_are_checked(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Reward(**bad)
