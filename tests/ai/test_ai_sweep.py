"""The sweep of directions and speeds (ai/sweep.py): which shots it simulates, how it scores
runs of successes under the hand's angle noise, and that its shots keep the turn (R3a)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from ai_helpers import scrambled_match

from hikone_carrom.ai import BASE_NOISE, LEVELS, ShotKind, SweepBudget, TableView, search
from hikone_carrom.ai.search import _Search
from hikone_carrom.ai.sweep import sweep, sweep_candidates, sweep_shots

SMALL = SweepBudget(placements=5, step=2.0, speeds=(1.0, 2.5), keep=6)


def _rng(seed: int = 5) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(seed))


def _view(seed: int = 4, shots: int = 6) -> TableView:
    return TableView.of_match(scrambled_match(2, seed=seed, shots=shots))


def _windows(shots: np.ndarray, windows: list[tuple[float, float]]) -> np.ndarray:
    """Successes wherever the shot's angle (deg) lies in one of ``windows`` (a fake referee)."""
    deg = np.degrees(shots[:, 2])
    return np.array([any(lo <= a <= hi for lo, hi in windows) for a in deg], dtype=bool)


def test_sweep_covers_every_placement_speed_and_direction_from_the_area_line_R2b() -> None:
    view = _view()
    shots = sweep_shots(view, SMALL)
    per_row = SMALL.directions
    assert per_row == 180
    assert len(shots) % (per_row * len(SMALL.speeds)) == 0
    points = {(round(x, 12), round(y, 12)) for x, y in shots[:, :2]}
    assert 1 < len(points) <= SMALL.placements
    assert all(view.placement.contains(x, y) for x, y in points)
    assert set(np.round(shots[:, 3], 9)) == set(SMALL.speeds)
    row = shots[:per_row, 2]
    assert np.allclose(np.diff(row), math.radians(SMALL.step))
    assert -math.pi <= row.min() and row.max() < math.pi


def test_first_shot_sweeps_from_the_tee_spot_only_R2a() -> None:
    view = TableView.of_match(scrambled_match(2, seed=1, shots=0))
    shots = sweep_shots(view, SMALL)
    assert {(x, y) for x, y in shots[:, :2]} == {view.placement.point}


def test_a_wide_run_of_successes_outranks_a_narrow_one_and_each_run_gives_one_shot() -> None:
    view = _view()
    shots = sweep_shots(view, SMALL)
    ok = _windows(shots, [(9.0, 21.0), (59.0, 63.0), (-101.0, -99.0)])
    found = sweep_candidates(shots, ok, replace(SMALL, keep=1000), BASE_NOISE.angle)
    rows = len(shots) // SMALL.directions
    assert len(found) == 3 * rows  # one peak per run, per placement and speed
    assert all(c.kind is ShotKind.SWEEP for c in found)
    wide = found[:rows]
    assert all(13.9 < math.degrees(c.angle) < 16.1 for c in wide)  # the middle of 10-20 deg
    narrow = found[-rows:]
    assert all(math.isclose(math.degrees(c.angle), -100.0) for c in narrow)
    assert len(sweep_candidates(shots, ok, SMALL, BASE_NOISE.angle)) == SMALL.keep
    assert sweep_candidates(shots, np.zeros(len(shots), bool), SMALL, BASE_NOISE.angle) == []


def test_simulating_every_other_direction_first_finds_the_same_runs() -> None:
    view = _view()
    windows = [(10.0, 20.0), (60.0, 64.0), (-120.0, -115.0)]
    calls: list[int] = []

    def succeeds(shots: np.ndarray) -> np.ndarray:
        calls.append(len(shots))
        return _windows(shots, windows)

    budget = replace(SMALL, keep=1000)
    lazy = sweep(view, budget, succeeds, BASE_NOISE.angle)
    shots = sweep_shots(view, budget)
    full = sweep_candidates(shots, _windows(shots, windows), budget, BASE_NOISE.angle)
    assert lazy == full
    assert len(calls) == 2 and sum(calls) < 0.6 * len(shots)


def test_swept_shots_keep_the_turn_as_meant_R3a() -> None:
    view = _view(seed=6, shots=8)
    s = _Search(view, LEVELS[6].search, LEVELS[6].weights, BASE_NOISE, _rng(), True)
    found = sweep(view, SMALL, s.succeeds, BASE_NOISE.angle)
    assert found, "a scrambled mid-game layout has pots to find"
    shots = np.array([[c.x, c.y, c.angle, c.speed] for c in found])
    assert s.succeeds(shots).all()


def test_the_expert_considers_swept_shots_and_stays_deterministic() -> None:
    view = _view(seed=6, shots=8)
    expert, weights = LEVELS[6].search, LEVELS[6].weights
    assert expert.sweep is not None
    without = search(view, replace(expert, sweep=None), weights, BASE_NOISE, _rng())
    first = search(view, expert, weights, BASE_NOISE, _rng())
    assert first == search(view, expert, weights, BASE_NOISE, _rng())
    assert without.candidates < first.candidates <= without.candidates + expert.sweep.keep
    assert first.simulated > without.simulated
