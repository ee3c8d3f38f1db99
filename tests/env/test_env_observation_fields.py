"""The observation carries the whole state the referee rules on in a timed match: seat, colour,
the time call (R7b) and the extra rounds (R7c), and the strike cap apart from the time call."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from gymnasium import spaces

from hikone_carrom.board import BoardSpec
from hikone_carrom.env import aec_env
from hikone_carrom.env.observation import KEYS, observation_space
from hikone_carrom.match import Match
from hikone_carrom.rules import RuleOptions


def _play_until_time_is_called(env: object, seed: int) -> list[tuple[str, dict[str, np.ndarray]]]:
    """Every (agent, observation) of a 4-player game with time called after 6 shots, until the
    game ends or 80 shots have been played."""
    env.reset(seed=seed)  # type: ignore[attr-defined]
    seen = []
    rng = np.random.default_rng(seed)
    for _ in range(80):
        agent = env.agent_selection  # type: ignore[attr-defined]
        if env.terminations[agent] or env.truncations[agent]:  # type: ignore[attr-defined]
            break
        seen.append((agent, env.observe(agent)))  # type: ignore[attr-defined]
        env.step(rng.uniform(-1.0, 1.0, 3))  # type: ignore[attr-defined]
    return seen


@pytest.mark.parametrize("seed", [0, 1])
def test_R7b_seat_colour_and_the_time_call_are_observed(seed: int) -> None:
    env = aec_env(players=4, time_shots=6, noise=1.0)
    seen = _play_until_time_is_called(env, seed)
    state = env.tables.states[0]  # type: ignore[attr-defined]
    assert state.time_called, "time is called after 6 shots"
    called = [obs for _, obs in seen if obs["time_called"][0] == 1.0]
    before = [obs for _, obs in seen if obs["time_called"][0] == 0.0]
    assert called and before
    assert all(obs["time_left"][0] == 0.0 for obs in called)
    assert all(obs["time_left"][0] > 0.0 for obs in before)
    assert all(0.0 < obs["strikes_left"][0] <= 1.0 for _, obs in seen)
    for agent, obs in seen:
        seat = int(agent.removeprefix("seat_"))
        assert obs["seat"].tolist() == [float(k == seat) for k in range(4)]
        assert obs["color"][0] == float(state.color(seat).index)
    # doubles partners (seats 0 and 2) share a colour, the other pair the other one (R1b)
    colors = {int(a.removeprefix("seat_")): o["color"][0] for a, o in seen}
    assert colors[0] == colors[2] != colors[1] == colors[3]


@pytest.mark.parametrize("extra_round", [1, 2])
def test_R7c_the_extra_round_is_observed_as_the_referee_counts_it(extra_round: int) -> None:
    options = RuleOptions.championship()
    opening = Match(players=2, options=options)
    state = dataclasses.replace(
        opening.referee.state, has_shot=(True, True), time_called=True, extra_round=extra_round
    )
    env = aec_env(players=2)
    env.reset(seed=0)
    env.tables.set_position(0, Match.from_position(opening.layout, state, fly_off=False))  # type: ignore[attr-defined]
    obs = env.observe("seat_0")  # type: ignore[attr-defined]
    assert obs["extra_round"][0] == float(extra_round)
    assert obs["time_called"][0] == 1.0 and obs["time_left"][0] == 0.0
    assert obs["first_shot"][0] == 0.0


def test_every_value_of_the_dict_observation_is_one_dimensional() -> None:
    space = observation_space(BoardSpec())
    assert isinstance(space, spaces.Dict)
    assert tuple(space.spaces) == KEYS  # the flat Box's order
    assert all(len(box.shape) == 1 for box in space.spaces.values())  # type: ignore[union-attr]
