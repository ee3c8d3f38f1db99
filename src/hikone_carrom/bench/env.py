"""``hikone-carrom bench env``: environment steps per second on one core (needs the ``rl`` extra).

Workload: ``HikoneCarrom/SoloClear-v1`` with uniformly random actions and the 1x hand (the
densest boards: the green pucks never leave), episodes cut at 200 strikes; the single
environment, and the native vector environment at 64 and 256 boards, every board's shot of a
step in one physics batch on one numba thread. Beside them, in the same process: the library's
own path (``Match.play`` of the same random shots, one by one), and the published per-shot cost
of the reference carrom environment (about 150 ms a shot on a time-stepped engine). Also
printed: the share of the time spent in the physics (the rest is the referee, the placement
and the observation, in Python). Figures only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

__all__ = ["REFERENCE_SHOT_S", "main", "run_bench"]

REFERENCE_SHOT_S = 0.150
"""Published cost of one shot of the reference carrom RL environment (pygame + pymunk,
time-stepped; the CS747 course's), seconds."""


def _timed(run: Callable[[], int]) -> tuple[float, float, int]:
    """(wall s, CPU s of this process, steps) of ``run``."""
    w0, c0 = time.perf_counter(), time.process_time()
    steps = run()
    return time.perf_counter() - w0, time.process_time() - c0, steps


Case = tuple[Callable[[], int], Callable[[], float]]
"""A run (returns its steps) and the physics time it spent so far (s)."""


def _single(steps: int, seed: int) -> Case:
    from hikone_carrom.env import SoloClearEnv

    env = SoloClearEnv()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = rng.uniform(-1.0, 1.0, (steps, 3)).astype(np.float32)

    def run() -> int:
        for k in range(steps):
            _, _, terminated, truncated, _ = env.step(actions[k])
            if terminated or truncated:
                env.reset()
        return steps

    return run, lambda: env.game.tables.physics_time


def _vector(boards: int, steps: int, seed: int) -> Case:
    from hikone_carrom.env.vector import solo_vector_env

    envs = solo_vector_env(boards)
    envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rounds = max(1, steps // boards)
    actions = rng.uniform(-1.0, 1.0, (rounds, boards, 3)).astype(np.float32)

    def run() -> int:
        for k in range(rounds):
            envs.step(actions[k])
        return rounds * boards

    return run, lambda: envs.game.tables.physics_time


def _match_play(steps: int, seed: int) -> Case:
    """The library's own path: ``Match.play`` of random legal shots with the 1x hand, the empty
    seat passing its turns (R3d), one by one."""
    from hikone_carrom.ai.noise import BASE_NOISE
    from hikone_carrom.env.actions import shot_of
    from hikone_carrom.match import Match

    rng = np.random.default_rng(seed)
    actions = rng.uniform(-1.0, 1.0, (steps, 3))

    def run() -> int:
        match = Match(seed=seed)
        strikes = 0
        for k in range(steps):
            if match.is_over or strikes == 200:
                match, strikes = Match(seed=seed + k), 0
            shot = shot_of(match.legal_placement(), actions[k], match.board)
            match.play(shot, BASE_NOISE.draw(rng))
            strikes += 1
            while not match.is_over and match.shooter != 0:
                match.pass_turn()
        return steps

    return run, lambda: math.nan


def run_bench(steps: int = 4000, seed: int = 0, console: Console | None = None) -> dict[str, Any]:
    """Run the suite on one numba thread; returns the figures as a plain dict."""
    import numba

    con = console or Console(width=120)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    fig: dict[str, Any] = {"steps": steps, "load_before": os.getloadavg()}
    cases: list[tuple[str, Case]] = [
        ("match_play", _match_play(steps, seed)),
        ("single", _single(steps, seed)),
        ("vector_64", _vector(64, steps * 4, seed)),
        ("vector_256", _vector(256, steps * 4, seed)),
    ]
    try:
        with con.status("warming up (numba cache) / ウォームアップ中..."):
            _single(50, seed + 1)[0]()
            _vector(64, 128, seed + 1)[0]()
        for name, (run, physics) in cases:
            with con.status(f"{name}..."):
                before = physics()
                wall, cpu, n = _timed(run)
                share = (physics() - before) / wall
            fig[name] = {
                "steps": n,
                "per_s": n / wall,
                "cpu_per_s": n / cpu,
                "physics_share": None if math.isnan(share) else share,
            }
    finally:
        numba.set_num_threads(threads)
    fig["load_after"] = os.getloadavg()
    fig["reference_per_s"] = 1.0 / REFERENCE_SHOT_S
    _print(con, fig)
    return fig


def _print(con: Console, fig: dict[str, Any]) -> None:
    ref = fig["reference_per_s"]
    table = Table(title="environment benchmark, 1 core / 強化学習環境ベンチマーク (1コア)")
    table.add_column("what / 対象")
    table.add_column("steps/s (wall)", justify="right")
    table.add_column("steps/s (CPU)", justify="right")
    table.add_column("physics / 物理", justify="right")
    table.add_column("vs 150 ms/shot", justify="right")
    table.add_column("target / 目標")
    rows = (
        ("Match.play one by one (library path)", "match_play", ""),
        ("SoloClear-v1, single env", "single", ">= 2,000/s"),
        ("vector env, 64 boards", "vector_64", ">= 20,000/s"),
        ("vector env, 256 boards", "vector_256", ">= 20,000/s"),
    )
    for label, key, target in rows:
        f = fig[key]
        share = f["physics_share"]
        table.add_row(
            label,
            f"{f['per_s']:,.0f}",
            f"{f['cpu_per_s']:,.0f}",
            "-" if share is None else f"{100 * share:.0f} %",
            f"{f['per_s'] / ref:,.0f}x",
            target,
        )
    table.add_row("reference env (published, ~150 ms/shot)", f"{ref:.1f}", "", "", "1x", "")
    con.print(table)
    load = ", ".join(f"{v:.1f}" for v in fig["load_before"])
    con.print(f"load average before / 実行前の負荷: {load} (2 cores)")


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom bench env``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom bench env",
        description="Steps per second of the RL environments on one core.",
    )
    parser.add_argument("--steps", type=int, default=4000, help="single-env steps (4000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.steps < 1:
        parser.error("--steps must be >= 1")
    if args.json and not os.path.isdir(os.path.dirname(os.path.abspath(args.json))):
        parser.error(f"--json: the folder of {args.json} does not exist")
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        parser.error("bench env needs gymnasium: pip install 'hikone-carrom[rl]'")
    fig = run_bench(args.steps, args.seed)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(fig, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
