"""Actions that stand for no shot are refused before anything changes: NaN and infinite values in
every environment (single, vector, the PettingZoo game) and in the mapping itself."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hikone_carrom.board import BoardSpec
from hikone_carrom.env import ActionError, SoloClearEnv, aec_env
from hikone_carrom.env.actions import meant_of, meant_of_many
from hikone_carrom.env.vector import solo_vector_env
from hikone_carrom.match import Match, legal_placement

BOARD = BoardSpec()
BAD = [math.nan, math.inf, -math.inf]


def _same(a: object, b: object) -> bool:
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


@pytest.mark.parametrize("value", BAD)
@pytest.mark.parametrize("column", [0, 1, 2])
def test_the_mapping_refuses_a_non_finite_value(value: float, column: int) -> None:
    match = Match(players=2)
    placement = legal_placement(BOARD, 0, 2, True, match.layout)
    action = [0.0, 0.0, 0.0]
    action[column] = value
    name = ("place", "aim", "power")[column]
    with pytest.raises(ActionError, match=name):
        meant_of(placement, action, BOARD)
    many = np.zeros((40, 3))
    many[17, column] = value
    with pytest.raises(ActionError, match=f"action 17's {name}"):
        meant_of_many([placement] * 40, many, BOARD)


def test_the_mapping_refuses_the_wrong_number_of_values() -> None:
    placement = legal_placement(BOARD, 0, 2, True, Match(players=2).layout)
    with pytest.raises(ActionError, match="three numbers"):
        meant_of(placement, [0.0, 0.0], BOARD)
    with pytest.raises(ActionError, match="three numbers"):
        meant_of(placement, ["place", "aim", "power"], BOARD)  # type: ignore[list-item]


@pytest.mark.parametrize("value", BAD)
def test_a_single_env_refuses_a_non_finite_action_and_changes_nothing(value: float) -> None:
    env = SoloClearEnv()
    env.reset(seed=3)
    with pytest.raises(ActionError):
        env.step(np.array([0.0, value, 0.5]))
    assert env.game.strikes[0] == 0
    after, *_ = env.step(np.array([0.0, 0.0, 0.5]))  # the same episode goes on
    fresh = SoloClearEnv()
    fresh.reset(seed=3)
    expected, *_ = fresh.step(np.array([0.0, 0.0, 0.5]))
    assert _same(after, expected)


def test_a_vector_env_refuses_a_batch_with_one_nan_and_changes_no_board() -> None:
    env = solo_vector_env(3)
    env.reset(seed=5)
    actions = np.zeros((3, 3))
    actions[2, 1] = math.nan
    with pytest.raises(ActionError, match="action 2's aim"):
        env.step(actions)
    assert env.game.strikes.tolist() == [0, 0, 0]
    after, *_ = env.step(np.zeros((3, 3)))
    fresh = solo_vector_env(3)
    fresh.reset(seed=5)
    expected, *_ = fresh.step(np.zeros((3, 3)))
    assert _same(after, expected)


def test_the_pettingzoo_game_refuses_a_non_finite_action_and_keeps_the_turn() -> None:
    env = aec_env()
    env.reset(seed=7)
    agent = env.agent_selection
    with pytest.raises(ActionError, match="power"):
        env.step(np.array([0.0, 0.0, math.inf]))
    assert env.agent_selection == agent
    assert env.tables.shots[0] == 0
