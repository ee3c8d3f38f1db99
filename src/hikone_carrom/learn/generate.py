"""Puzzles found in computer-played matches: positions where a shot of the expert's candidates
reaches a goal robustly and the greedy player's shot does not.

Seeded singles matches are played by computer players (level 4 against greedy, as
``hikone-carrom simulate`` plays them). At each position the shooter's candidates are the
expert's own (:mod:`hikone_carrom.ai.candidates` with the expert's budget, and a sweep of
directions, :mod:`hikone_carrom.ai.sweep`), simulated as meant in one physics batch and ruled by
the referee. Those that reach the hardest goal the position offers go through the light hand's
draws (:func:`~hikone_carrom.learn.verify.robustness_many`); the most robust, if it passes
:func:`~hikone_carrom.learn.verify.verify`, becomes a puzzle. Same seed, same puzzles.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from hikone_carrom import ai
from hikone_carrom.ai.candidates import generate as candidates
from hikone_carrom.ai.levels import LEVELS
from hikone_carrom.ai.outcomes import report_keys, report_of_key, run_shots
from hikone_carrom.ai.sweep import SweepBudget, sweep_candidates, sweep_shots
from hikone_carrom.ai.view import TableView
from hikone_carrom.learn.goals import Goal, goal_reached
from hikone_carrom.learn.puzzles import Puzzle
from hikone_carrom.learn.verify import LIGHT_HAND, THRESHOLD, greedy_shot, robustness_many, verify
from hikone_carrom.match import Match, Shot
from hikone_carrom.rules import apply

__all__ = ["PLAYERS", "build", "difficulty", "find_puzzle", "positions", "puzzles_of"]

PLAYERS = ("level4", "greedy")
"""The computer players of the source matches (the seat of each swaps with the seed)."""
MAX_SHOTS = 120
"""Shots played per source match at most."""
_SWEEP = SweepBudget(placements=5, step=1.0, speeds=(1.0, 2.0, 3.5), keep=12)
"""The directions swept from each position (5 400 shots as meant)."""
_TRIED = 12
"""Candidates reaching the goal that go through the light hand's draws, per position."""


def positions(seed: int) -> Iterator[tuple[Match, str]]:
    """Every singles position, before each shot after the opening break, of the source match
    seeded ``seed``, with its name ("m<seed>s<shot>"); the match is a copy the caller may use."""
    match = Match(2, seed=seed)
    names = PLAYERS if seed % 2 == 0 else PLAYERS[::-1]
    bots = [ai.make_player(name, seed * 2 + k) for k, name in enumerate(names)]
    while not match.is_over and len(match.actions) < MAX_SHOTS:
        if match.must_pass:
            match.pass_turn()
            continue
        if match.actions:
            yield (
                Match.from_position(match.layout, match.referee.state, seed=seed),
                f"m{seed}s{len(match.actions)}",
            )
        ai.take_turn(match, bots[match.shooter])


def _goals(view: TableView) -> tuple[Goal, ...]:
    """The goals worth a puzzle here, the hardest first."""
    if view.jack_allowed:
        return (Goal.JACK_LAST,)
    left = view.state.pucks_on_board(view.color)
    return tuple(g for g, need in ((Goal.POT_THREE, 3), (Goal.POT_TWO, 2)) if left >= need)


def _candidate_shots(view: TableView) -> np.ndarray:
    level = LEVELS[6].search
    budget = (level.jack_candidates if view.jack_allowed else None) or level.candidates
    aimed = [(c.x, c.y, c.angle, c.speed) for c in candidates(view, budget)]
    rows = np.array(aimed, dtype=np.float64).reshape(-1, 4)
    return np.concatenate([rows, sweep_shots(view, _SWEEP)])


def _reaching(view: TableView, goal: Goal, shots: np.ndarray, seed: int) -> np.ndarray:
    """Whether each shot, as meant, reaches ``goal`` (one bool per shot)."""
    keys = report_keys(view, run_shots(view, shots, np.full(len(shots), seed), True))
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    ok = np.empty(len(unique), dtype=bool)
    for k, key in enumerate(unique):
        report = report_of_key(key)
        ok[k] = goal_reached(goal, view.color, report, apply(view.state, report)[0])
    out: np.ndarray = ok[inverse.ravel()]
    return out


def find_puzzle(match: Match, source: str, seed: int) -> Puzzle | None:
    """The puzzle of ``match``'s position, or ``None`` where none passes the proof. Its id is
    left empty (:func:`build` numbers them)."""
    view = TableView.of_match(match)
    goals = _goals(view)
    if not goals:
        return None
    shots = _candidate_shots(view)
    n_aimed = len(shots) - len(sweep_shots(view, _SWEEP))
    greedy = greedy_shot(match)
    for goal in goals:
        ok = _reaching(view, goal, shots, seed)
        if not ok.any():
            continue
        aimed = np.flatnonzero(ok[:n_aimed])[:_TRIED]
        swept = sweep_candidates(shots[n_aimed:], ok[n_aimed:], _SWEEP, LIGHT_HAND.angle)
        peaks = np.array([[c.x, c.y, c.angle, c.speed] for c in swept]).reshape(-1, 4)
        tried = np.concatenate([shots[aimed], peaks])[:_TRIED]
        shares = robustness_many(match, goal, tried, seed)
        best = int(np.argmax(shares))
        if shares[best] < THRESHOLD:
            continue
        solution = Shot(*(float(v) for v in tried[best]))
        verdict = verify(match, goal, solution, seed)
        if not verdict.accepted:
            continue
        return Puzzle(
            id="",
            goal=goal,
            layout=tuple((d.id, d.x, d.y, d.layer) for d in match.layout),
            referee=match.referee.state,
            seed=seed,
            solution=solution,
            greedy=greedy,
            robustness=verdict.robustness,
            difficulty=difficulty(goal, verdict.robustness, solution, greedy),
            source=source,
        )
    return None


def difficulty(goal: Goal, robustness: float, solution: Shot, greedy: Shot) -> int:
    """1 (easy) to 5 (hard): how little margin the hand has (robustness from 1 down to the
    threshold) and how far the solution is from the obvious shot (placement m, angle rad),
    one step more for three pucks."""
    margin = (1.0 - robustness) / (1.0 - THRESHOLD)
    turn = abs(math.remainder(solution.angle - greedy.angle, 2.0 * math.pi)) / (math.pi / 2)
    moved = math.hypot(solution.x - greedy.x, solution.y - greedy.y) / 0.2
    score = 0.5 * min(margin, 1.0) + 0.3 * min(turn, 1.0) + 0.2 * min(moved, 1.0)
    return min(5, 1 + round(3 * score) + (goal is Goal.POT_THREE))


def puzzles_of(seed: int) -> Iterator[Puzzle]:
    """Every puzzle of the source matches seeded ``seed``, ``seed + 1``, ..., numbered in
    order (at most one per position); endless, so take as many as needed."""
    found = 0
    match_seed = seed
    while True:
        for match, source in positions(match_seed):
            puzzle = find_puzzle(match, source, match_seed)
            if puzzle is not None:
                found += 1
                yield replace(puzzle, id=f"p{found:04d}")
        match_seed += 1


def build(count: int, seed: int) -> list[Puzzle]:
    """The first ``count`` puzzles of :func:`puzzles_of` ``seed``."""
    return list(itertools.islice(puzzles_of(seed), count))
