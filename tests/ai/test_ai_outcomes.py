"""The search's batch helpers give, bit for bit, what their one-at-a-time forms give: the hand's
execution of many shots under many draws (R2a, R2b: the nearest legal placement), and the
values and successes of many outcomes read through the referee (R3a, R5, R7a)."""

from __future__ import annotations

from functools import cache

import numpy as np
from ai_helpers import scrambled_match
from hypothesis import given, settings
from hypothesis import strategies as st

from hikone_carrom.ai import BASE_NOISE, LEVELS, TableView
from hikone_carrom.ai.outcomes import execute, execute_many, report_keys, run_shots
from hikone_carrom.ai.value import Judge
from hikone_carrom.match import Noise


@cache
def _view(seed: int, shots: int) -> TableView:
    return TableView.of_match(scrambled_match(2, seed=seed, shots=shots))


def _shots(view: TableView, rng: np.random.Generator, n: int) -> np.ndarray:
    """Shots placed along, past the ends of and beside the area line (R2b), any angle."""
    (x0, y0), (x1, y1) = view.placement.line
    t = rng.uniform(-0.1, 1.1, n)
    return np.column_stack(
        [
            x0 + t * (x1 - x0),
            y0 + t * (y1 - y0) + rng.normal(0.0, 0.01, n),
            rng.uniform(-4.0, 4.0, n),
            rng.uniform(0.05, 6.0, n),
        ]
    )


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 6),
    shots=st.sampled_from([0, 3, 12, 30]),
    scale=st.sampled_from([0.0, 0.5, 1.0, 5.0, 20.0]),
    draw_seed=st.integers(0, 2**32 - 1),
)
def test_execute_many_is_execute_for_every_pair_R2a_R2b(
    seed: int, shots: int, scale: float, draw_seed: int
) -> None:
    view = _view(seed, shots)
    rng = np.random.default_rng(draw_seed)
    planned = _shots(view, rng, 12)
    draws = BASE_NOISE.scaled(scale).draw_many(rng, 9)
    draws[0] = 0.0  # an exact draw leaves the shot as meant
    got = execute_many(view.placement, planned, draws, view.board.max_speed)
    want = [
        execute(view.placement, tuple(s), Noise(*map(float, d)), view.board.max_speed)
        for s in planned
        for d in draws
    ]
    assert got.shape == (len(planned) * len(draws), 4)
    assert [tuple(row) for row in got] == want  # the same bits, shot-major


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 6),
    shots=st.sampled_from([0, 5, 20, 40]),
    solo=st.booleans(),
    draw_seed=st.integers(0, 2**32 - 1),
)
def test_batch_values_and_successes_are_the_referees_one_by_one_R3a_R5_R7a(
    seed: int, shots: int, solo: bool, draw_seed: int
) -> None:
    view = _view(seed, shots)
    rng = np.random.default_rng(draw_seed)
    planned = _shots(view, rng, 40)
    planned[:, 1] = view.placement.line[0][1]
    executed = execute_many(view.placement, planned, BASE_NOISE.draw_many(rng, 1), 5.0)
    keys = report_keys(view, run_shots(view, executed, rng.integers(0, 1 << 62, 40), True))
    keys = keys.reshape(5, 8, -1)
    weights = LEVELS[6].alone if solo else LEVELS[6].weights
    judge = Judge(view.state, view.color, weights)
    turns = rng.uniform(0.0, 3.0, (5, 2))  # each candidate's (ours, theirs) next-shot values
    got = judge.mean_values(keys, turns)
    for c in range(5):
        mine, theirs = float(turns[c, 0]), float(turns[c, 1])
        values = [judge.value(judge.judge(k), mine, theirs) for k in keys[c]]
        assert got[c] == float(np.mean(values))
    ok = judge.successes(keys)
    assert ok.shape == (5, 8)
    each = [[judge.judge(k) for k in row] for row in keys]
    assert ok.tolist() == [[j.won or j.mine_next for j in row] for row in each]
