"""``hikone-carrom bench env``: the figures of every row, against each opponent (no timing
asserted)."""

from __future__ import annotations

import pytest


def test_the_figures_of_every_environment_and_opponent(capsys: pytest.CaptureFixture[str]) -> None:
    from hikone_carrom.bench.env import run_bench

    fig = run_bench(20, 1, opponents=("greedy", "level1"), match_steps=1, match_boards=2)
    out = capsys.readouterr().out
    for key in ("single", "vector_64", "choice_single", "choice_vector_64"):
        assert fig[key]["steps"] >= 1 and fig[key]["per_s"] > 0
    assert set(fig["match"]) == {"greedy", "level1"}
    for opponent in ("greedy", "level1"):
        single, vector = fig["match"][opponent]["single"], fig["match"][opponent]["vector"]
        assert single["steps"] == 1 and vector["steps"] == 2
        assert single["per_s"] > 0 and vector["cpu_per_s"] > 0
    assert "SoloClearChoice-v1" in out and "against each opponent" in out and "level1" in out


def test_no_match_rows_with_no_match_steps(capsys: pytest.CaptureFixture[str]) -> None:
    from hikone_carrom.bench.env import run_bench

    fig = run_bench(10, 2, match_steps=0)
    assert fig["match"] == {}
    assert "against each opponent" not in capsys.readouterr().out
