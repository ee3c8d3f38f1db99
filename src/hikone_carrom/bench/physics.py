"""``hikone-carrom bench physics``: our exact engine against a pymunk reference, same scenes.

Scenes (see :mod:`hikone_carrom.bench.scenes`): the opening break (striker from seat 0's tee spot
straight at the jack at 5 m/s) and seeded random mid-game shots. Fly-off is switched off in both
engines so they simulate the same physics. Prints shots/s, the ratio and the first-shot latency of
a fresh process (numba cache present). Figures only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from itertools import groupby
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from hikone_carrom.bench.scenes import Scene, midgame_scenes, opening_break, random_shot
from hikone_carrom.physics import simulate, simulate_batch

__all__ = ["main", "run_bench"]

_FRESH = (
    "import time; t0 = time.perf_counter()\n"
    "from hikone_carrom.bench.scenes import opening_break\n"
    "from hikone_carrom.physics import simulate\n"
    "simulate(opening_break().disks(), fly_off=False)\n"
    "print(time.perf_counter() - t0)\n"
)


def _median_time(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _ours_one_by_one(scenes: list[Scene]) -> None:
    for k, sc in enumerate(scenes):
        simulate(sc.disks(), seed=k, fly_off=False)


def _ours_batched(scenes: list[Scene]) -> None:
    for layout, group in groupby(scenes, key=lambda s: s.layout):
        simulate_batch(layout, [s.shot for s in group], fly_off=False)


def _fresh_process_latency() -> tuple[float, float]:
    """(in-process seconds to import + first shot, whole process wall seconds)."""
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _FRESH], capture_output=True, text=True, check=True
    ).stdout
    return float(out.strip().splitlines()[-1]), time.perf_counter() - t0


def run_bench(
    shots: int = 1000,
    repeats: int = 5,
    with_pymunk: bool = True,
    console: Console | None = None,
) -> dict[str, Any]:
    """Run the suite; returns the figures (seconds and shots/s) as a plain dict."""
    import numba

    con = console or Console(width=120)
    brk = opening_break().disks()
    scenes = midgame_scenes(shots, seed=2024)
    with con.status("warming up (numba cache) / ウォームアップ中..."):
        simulate(brk, fly_off=False)
        _ours_batched(scenes[:20])
    threads = numba.get_num_threads()
    fig: dict[str, Any] = {"shots": shots, "repeats": repeats, "threads": threads}
    with con.status("opening break / ブレイク..."):
        fig["break_ms"] = 1e3 * _median_time(lambda: simulate(brk, fly_off=False), 50 * repeats)
        fig["break_events"] = simulate(brk, fly_off=False).events_handled
    with con.status("mid-game shots one by one / 中盤ショット..."):
        t = _median_time(lambda: _ours_one_by_one(scenes), repeats)
        fig["midgame_per_s"] = shots / t
    with con.status("mid-game shots batched / バッチ..."):
        numba.set_num_threads(1)
        try:
            fig["batch_1core_per_s"] = shots / _median_time(lambda: _ours_batched(scenes), repeats)
        finally:
            numba.set_num_threads(threads)
        fig["batch_all_per_s"] = shots / _median_time(lambda: _ours_batched(scenes), repeats)
        layout = scenes[0].layout
        rng = np.random.default_rng(7)
        one = np.array([random_shot(rng, layout) for _ in range(shots)])
        numba.set_num_threads(1)
        try:
            t = _median_time(lambda: simulate_batch(layout, one, fly_off=False), repeats)
            fig["big_batch_1core_per_s"] = shots / t
        finally:
            numba.set_num_threads(threads)
        t = _median_time(lambda: simulate_batch(layout, one, fly_off=False), repeats)
        fig["big_batch_all_per_s"] = shots / t
    if with_pymunk:
        from hikone_carrom.bench.pymunk_ref import pymunk_shot

        with con.status("pymunk reference / pymunk 参照..."):
            fig["pymunk_break_ms"] = 1e3 * _median_time(lambda: pymunk_shot(brk), 3 * repeats)
            t0 = time.perf_counter()
            for sc in scenes:
                pymunk_shot(sc.disks())
            fig["pymunk_midgame_per_s"] = shots / (time.perf_counter() - t0)
        fig["break_ratio"] = fig["pymunk_break_ms"] / fig["break_ms"]
        fig["midgame_ratio"] = fig["midgame_per_s"] / fig["pymunk_midgame_per_s"]
    with con.status("fresh process / 新規プロセス..."):
        inproc, wall = _fresh_process_latency()
        fig["fresh_first_shot_s"] = inproc
        fig["fresh_process_wall_s"] = wall
    _print(con, fig)
    return fig


def _print(con: Console, fig: dict[str, Any]) -> None:
    table = Table(title="physics benchmark / 物理ベンチマーク (per core unless noted)")
    table.add_column("scene / 場面")
    table.add_column("ours / 本エンジン", justify="right")
    table.add_column("pymunk (dt 1/240 s)", justify="right")
    table.add_column("ratio / 比", justify="right")
    table.add_column("target / 目標")
    pm = "pymunk_break_ms" in fig
    table.add_row(
        "opening break, median ms / ブレイク",
        f"{fig['break_ms']:.3f} ({fig['break_events']} events)",
        f"{fig['pymunk_break_ms']:.2f}" if pm else "-",
        f"{fig['break_ratio']:.1f}x" if pm else "-",
        "<= 1 ms, >= 3x",
    )
    table.add_row(
        "mid-game shots/s, simulate() / 中盤",
        f"{fig['midgame_per_s']:,.0f}",
        f"{fig['pymunk_midgame_per_s']:,.0f}" if pm else "-",
        f"{fig['midgame_ratio']:.1f}x" if pm else "-",
        ">= 5,000/s, >= 3x",
    )
    n = fig["threads"]
    for label, key in (
        ("batches of 10 shots per layout, 1 thread", "batch_1core_per_s"),
        (f"batches of 10 shots per layout, {n} threads", "batch_all_per_s"),
        (f"one batch of {fig['shots']} shots, 1 thread", "big_batch_1core_per_s"),
        (f"one batch of {fig['shots']} shots, {n} threads", "big_batch_all_per_s"),
    ):
        table.add_row(f"mid-game shots/s, {label}", f"{fig[key]:,.0f}", "", "", "")
    table.add_row(
        "fresh process: import + first shot, s / 初回",
        f"{fig['fresh_first_shot_s']:.2f} (process {fig['fresh_process_wall_s']:.2f})",
        "",
        "",
        "<= 2 s",
    )
    con.print(table)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom bench physics``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom bench physics",
        description="Exact engine vs pymunk on the opening break and random mid-game shots.",
    )
    parser.add_argument("--shots", type=int, default=1000, help="random mid-game shots (1000)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats per timing (median)")
    parser.add_argument("--no-pymunk", action="store_true", help="skip the pymunk reference")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.shots < 1 or args.repeats < 1:
        parser.error("--shots and --repeats must be >= 1")
    if not args.no_pymunk:
        try:
            import pymunk  # noqa: F401
        except ImportError:
            parser.error("pymunk is not installed (pip install -e '.[dev]'), or use --no-pymunk")
    fig = run_bench(args.shots, args.repeats, not args.no_pymunk)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(fig, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
