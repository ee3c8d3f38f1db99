"""``hikone-carrom bench env``: environment steps per second on one core (needs the ``rl`` extra).

Workload: ``HikoneCarrom/SoloClear-v1`` with uniformly random actions and the 1x hand (the
densest boards: the green pucks never leave), episodes cut at 200 strikes; the single
environment, and the native vector environment at 64 and 256 boards, every board's shot of a
step in one physics batch on one numba thread. Beside them, in the same process: the library's
own path (``Match.play`` of the same random shots, one by one), and the published per-shot cost
of the reference carrom environment (about 150 ms a shot on a time-stepped engine). Also
printed: the share of the time spent in the physics (the rest is the referee, the placement
and the observation, in Python). Then ``SoloClearChoice-v1`` (random open choices), and
``Match-v1`` against each built-in opponent (``--opponents``: greedy, levels 1-6, the expert
and the raced expert), single and vector (``--match-boards``), random actions, a tiny budget
(``--match-steps``: a step against a strong opponent holds its thinking, seconds). Figures
only: nothing here asserts a speed.
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

from hikone_carrom.ai import UnknownPlayerError, make_player

__all__ = ["OPPONENTS", "REFERENCE_SHOT_S", "main", "run_bench"]

OPPONENTS = (
    "greedy",
    "level1",
    "level2",
    "level3",
    "level4",
    "level5",
    "level6",
    "expert",
    "expert-raced",
)
"""The opponents of ``Match-v1`` measured by default."""

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


def _match_single(opponent: str, steps: int, seed: int) -> Case:
    """``Match-v1`` against ``opponent``, random actions, one board."""
    from hikone_carrom.env import MatchEnv

    env = MatchEnv(opponent=opponent)
    env.reset(seed=seed)
    actions = np.random.default_rng(seed).uniform(-1.0, 1.0, (steps, 3)).astype(np.float32)

    def run() -> int:
        for k in range(steps):
            _, _, terminated, truncated, _ = env.step(actions[k])
            if terminated or truncated:
                env.reset()
        return steps

    return run, lambda: env.game.tables.physics_time


def _match_vector(opponent: str, boards: int, steps: int, seed: int) -> Case:
    """``Match-v1`` against ``opponent`` on ``boards`` boards (at least one round)."""
    from hikone_carrom.env.vector import match_vector_env

    envs = match_vector_env(boards, opponent=opponent)
    envs.reset(seed=seed)
    rounds = max(1, math.ceil(steps / boards))
    actions = np.random.default_rng(seed).uniform(-1.0, 1.0, (rounds, boards, 3))

    def run() -> int:
        for k in range(rounds):
            envs.step(actions[k].astype(np.float32))
        return rounds * boards

    return run, lambda: envs.game.tables.physics_time


def _choice_single(steps: int, seed: int) -> Case:
    """``SoloClearChoice-v1``, uniformly random open choices."""
    from hikone_carrom.env.choices import SoloClearChoiceEnv

    env = SoloClearChoiceEnv()
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def run() -> int:
        nonlocal obs
        for _ in range(steps):
            obs, _, terminated, truncated, _ = env.step(
                rng.choice(np.flatnonzero(obs["action_mask"]))
            )
            if terminated or truncated:
                obs, _ = env.reset()
        return steps

    return run, lambda: env.game.tables.physics_time


def _choice_vector(boards: int, steps: int, seed: int) -> Case:
    """``SoloClearChoice-v1`` on ``boards`` boards, random open choices (any on a resetting
    board: ignored)."""
    from hikone_carrom.env.choices import solo_choice_vector_env

    envs = solo_choice_vector_env(boards)
    obs, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rounds = max(1, steps // boards)

    def run() -> int:
        nonlocal obs
        for _ in range(rounds):
            choices = [rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]]
            obs, _, _, _, _ = envs.step(np.array(choices))
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


def run_bench(
    steps: int = 4000,
    seed: int = 0,
    console: Console | None = None,
    opponents: tuple[str, ...] = OPPONENTS,
    match_steps: int = 2,
    match_boards: int = 4,
) -> dict[str, Any]:
    """Run the suite on one numba thread; returns the figures as a plain dict (``match``: per
    opponent, ``single`` and ``vector``; none with ``match_steps`` 0)."""
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
        ("choice_single", _choice_single(max(1, steps // 10), seed)),
        ("choice_vector_64", _choice_vector(64, max(64, steps // 2), seed)),
    ]
    try:
        with con.status("warming up (numba cache) / ウォームアップ中..."):
            _single(50, seed + 1)[0]()
            _vector(64, 128, seed + 1)[0]()
            if match_steps and opponents:
                _match_single("greedy", 1, seed + 1)[0]()
        for name, (run, physics) in cases:
            with con.status(f"{name}..."):
                before = physics()
                wall, cpu, n = _timed(run)
                share = (physics() - before) / wall
            fig[name] = _figures(n, wall, cpu, share)
        fig["match_boards"] = match_boards
        fig["match"] = {}
        for opponent in opponents if match_steps else ():
            fig["match"][opponent] = {}
            for kind, (run, physics) in (
                ("single", _match_single(opponent, match_steps, seed)),
                ("vector", _match_vector(opponent, match_boards, match_steps, seed)),
            ):
                with con.status(f"Match-v1 vs {opponent}, {kind}..."):
                    before = physics()
                    wall, cpu, n = _timed(run)
                fig["match"][opponent][kind] = _figures(n, wall, cpu, (physics() - before) / wall)
    finally:
        numba.set_num_threads(threads)
    fig["load_after"] = os.getloadavg()
    fig["reference_per_s"] = 1.0 / REFERENCE_SHOT_S
    _print(con, fig)
    return fig


def _figures(steps: int, wall: float, cpu: float, share: float) -> dict[str, Any]:
    return {
        "steps": steps,
        "per_s": steps / wall,
        "cpu_per_s": steps / cpu,
        "physics_share": None if math.isnan(share) else share,
    }


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
        ("SoloClearChoice-v1, single env", "choice_single", ""),
        ("SoloClearChoice-v1, vector env, 64 boards", "choice_vector_64", ""),
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
    if fig["match"]:
        _print_match(con, fig)
    load = ", ".join(f"{v:.1f}" for v in fig["load_before"])
    con.print(f"load average before / 実行前の負荷: {load} (2 cores)")


def _print_match(con: Console, fig: dict[str, Any]) -> None:
    boards = fig["match_boards"]
    table = Table(title="Match-v1 against each opponent / 対戦相手ごとの Match-v1 (1 core)")
    table.add_column("opponent / 相手")
    table.add_column("single: steps/s", justify="right")
    table.add_column("single: CPU s/step", justify="right")
    table.add_column(f"vector ({boards} boards): steps/s", justify="right")
    table.add_column("vector: CPU s/step", justify="right")
    table.add_column("steps (single + vector)", justify="right")
    for opponent, f in fig["match"].items():
        one, many = f["single"], f["vector"]
        table.add_row(
            opponent,
            f"{one['per_s']:,.2f}",
            f"{1.0 / one['cpu_per_s']:.3f}",
            f"{many['per_s']:,.2f}",
            f"{1.0 / many['cpu_per_s']:.3f}",
            f"{one['steps']} + {many['steps']}",
        )
    con.print(table)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom bench env``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom bench env",
        description="Steps per second of the RL environments on one core.",
    )
    parser.add_argument("--steps", type=int, default=4000, help="single-env steps (4000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--opponents",
        default=",".join(OPPONENTS),
        help="Match-v1 opponents, comma-separated (greedy,level1..level6,expert,expert-raced)",
    )
    parser.add_argument(
        "--match-steps",
        type=int,
        default=2,
        help="steps against each opponent, single and vector (2; 0 = no match rows)",
    )
    parser.add_argument(
        "--match-boards", type=int, default=4, help="boards of the match vector env (4)"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.steps < 1:
        parser.error("--steps must be >= 1")
    if args.match_steps < 0:
        parser.error("--match-steps must be >= 0")
    if args.match_boards < 1:
        parser.error("--match-boards must be >= 1")
    opponents = tuple(o.strip() for o in args.opponents.split(",") if o.strip())
    for opponent in opponents:
        try:
            make_player(opponent)
        except UnknownPlayerError:
            parser.error(f"--opponents: unknown player {opponent!r}")
    if args.json and not os.path.isdir(os.path.dirname(os.path.abspath(args.json))):
        parser.error(f"--json: the folder of {args.json} does not exist")
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        parser.error("bench env needs gymnasium: pip install 'hikone-carrom[rl]'")
    fig = run_bench(args.steps, args.seed, None, opponents, args.match_steps, args.match_boards)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(fig, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
