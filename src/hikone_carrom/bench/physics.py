"""``hikone-carrom bench physics``: the exact engine on real match positions, side by side with a
lean pymunk peer, timed round by round in one process.

Scenes: the opening break (R1a; the striker from seat 0's tee spot straight at the jack at
5 m/s) and the positions of a few computer-played matches (:mod:`hikone_carrom.bench.positions`:
breaks, mid-game layouts and piles, with the shots as executed). Against pymunk the engine runs
the same physics: the frictionless setting (``BoardSpec.legacy()``) and the disks on the board
(pymunk has no stacks); fly-off is off in both. Each round times every figure once, the two
engines one after the other on the same shots, so that a change in the machine's load hits both;
the figures are medians over the rounds with their ranges. Nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from hikone_carrom.bench.physics_fuzz import fuzz
from hikone_carrom.bench.positions import Position, stored
from hikone_carrom.bench.scenes import opening_break
from hikone_carrom.board import BoardSpec
from hikone_carrom.board_file import add_board_argument, board_from_args
from hikone_carrom.physics import Disk, simulate, simulate_batch
from hikone_carrom.physics import _engine as E
from hikone_carrom.physics._pack import board_params, pack, seed_bits

__all__ = ["main", "run_bench"]

BATCH_SHOTS = 64
"""Shots per batch: variations of the executed shot of a position, as a computer player tries."""
BIG_BATCH = 4096
"""Shots of the one big batch timed (the first stacked position's batch, repeated)."""

_FRESH = (
    "import time; t0 = time.perf_counter()\n"
    "from hikone_carrom.bench.scenes import opening_break\n"
    "from hikone_carrom.physics import simulate\n"
    "simulate(opening_break().disks(), fly_off=False)\n"
    "print(time.perf_counter() - t0)\n"
)


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _floor_only(disks: Sequence[Disk]) -> list[Disk]:
    return [d for d in disks if d.layer == 0]


def _batch_shots(p: Position) -> np.ndarray:
    """BATCH_SHOTS shots around the executed one: angles +-3 deg, speeds +-10 %."""
    x, y, vx, vy = p.striker
    speed = math.hypot(vx, vy)
    angle = math.atan2(vy, vx)
    k = np.arange(BATCH_SHOTS)
    a = angle + np.radians(-3.0 + 6.0 * (k % 8) / 7.0)
    s = speed * (0.9 + 0.2 * (k // 8) / 7.0)
    return np.column_stack(
        [np.full(BATCH_SHOTS, x), np.full(BATCH_SHOTS, y), s * np.cos(a), s * np.sin(a)]
    )


def _engine_and_total(shots: list[list[Disk]], board: BoardSpec) -> tuple[float, float]:
    """(engine alone, whole simulate() call) in s, summed over the shots: the engine's share is
    timed around the compiled run() only, on arrays prepared beforehand."""
    params = board_params(board)
    prepared = []
    for disks in shots:
        ordered, S, L = pack(disks, board, params)
        s_index = [d.id for d in ordered].index("S")
        prepared.append((S, L, s_index))
    EVf = np.empty((1024, E.N_EVF))
    EVi = np.empty((1024, E.N_EVI), dtype=np.int64)
    engine = 0.0
    for S0, L0, s_index in prepared:
        S = S0.copy()
        L = L0.copy()
        outi = np.zeros(E.N_OUTI, dtype=np.int64)
        outf = np.zeros(E.N_OUTF)
        rails = np.full(E.MAX_RAILS_BEFORE, -1, dtype=np.int64)
        t0 = time.perf_counter()
        E.run(S, L, params, s_index, seed_bits(0), False, 20_000, EVf, EVi, outi, outf, rails)
        engine += time.perf_counter() - t0
    total = 0.0
    for disks in shots:
        t0 = time.perf_counter()
        simulate(disks, board, fly_off=False)
        total += time.perf_counter() - t0
    return engine, total


def _fresh_process_latency() -> tuple[float, float]:
    """(in-process seconds to import + first shot, whole process wall seconds)."""
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _FRESH], capture_output=True, text=True, check=True
    ).stdout
    return float(out.strip().splitlines()[-1]), time.perf_counter() - t0


def _busy(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes spinning on the CPU (a loaded machine), to be killed by the caller."""
    code = "while True: pass"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]


def _summary(values: Sequence[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def run_bench(
    rounds: int = 7,
    board: BoardSpec | None = None,
    with_pymunk: bool = True,
    console: Console | None = None,
    busy: int = 0,
) -> dict[str, Any]:
    """Run every round; returns the figures (medians and ranges over the rounds) as a dict.
    ``busy`` processes spinning on the CPU all along load the machine (see :func:`_busy`)."""
    import numba

    con = console or Console(width=140)
    physics = board or BoardSpec()
    plain = BoardSpec.legacy()
    positions = stored()
    brk = opening_break().disks()
    real = [p.shot_disks(physics) for p in positions]
    flat = [_floor_only(p.shot_disks(plain)) for p in positions]
    batches = [(p.layout(physics), _batch_shots(p)) for p in positions]
    lay, shots = next(b for b, p in zip(batches, positions, strict=True) if p.stacked)
    big = (lay, np.tile(shots, (BIG_BATCH // BATCH_SHOTS, 1)))
    threads = numba.get_num_threads()
    load_before = os.getloadavg()
    if with_pymunk:
        from hikone_carrom.bench.pymunk_ref import pymunk_shot
    per: dict[str, list[float]] = {}

    def add(key: str, value: float) -> None:
        per.setdefault(key, []).append(value)

    with con.status("warming up (numba cache) / ウォームアップ中..."):
        simulate(brk, plain, fly_off=False)
        simulate(brk, physics, fly_off=False)
        simulate_batch(*batches[0], physics, fly_off=False)
        simulate_batch(*batches[0], physics, fly_off=False, parallel=True)
    spinners = _busy(busy)
    try:
        for r in range(rounds):
            with con.status(f"round {r + 1} of {rounds} / {r + 1}/{rounds} 回目..."):
                add(
                    "break_ms",
                    1e3
                    * statistics.median(
                        _timed(lambda: simulate(brk, plain, fly_off=False)) for _ in range(20)
                    ),
                )
                add(
                    "break_full_ms",
                    1e3
                    * statistics.median(
                        _timed(lambda: simulate(brk, physics, fly_off=False)) for _ in range(20)
                    ),
                )
                if with_pymunk:
                    add("pymunk_break_ms", 1e3 * _timed(lambda: pymunk_shot(brk, plain)))
                t = _timed(lambda: [simulate(d, plain, fly_off=False) for d in flat])
                add("flat_per_s", len(flat) / t)
                if with_pymunk:
                    t = _timed(lambda: [pymunk_shot(d, plain) for d in flat])
                    add("pymunk_flat_per_s", len(flat) / t)
                t = _timed(lambda: [simulate(d, physics, fly_off=False) for d in real])
                add("real_per_s", len(real) / t)
                engine, total = _engine_and_total(real, physics)
                add("engine_us", 1e6 * engine / len(real))
                add("overhead_us", 1e6 * (total - engine) / len(real))
                t = _timed(
                    lambda: [simulate_batch(lay, s, physics, fly_off=False) for lay, s in batches]
                )
                add("batch_1_per_s", BATCH_SHOTS * len(batches) / t)
                t = _timed(
                    lambda: [
                        simulate_batch(lay, s, physics, fly_off=False, parallel=True)
                        for lay, s in batches
                    ]
                )
                add("batch_all_per_s", BATCH_SHOTS * len(batches) / t)
                t = _timed(lambda: simulate_batch(*big, physics, fly_off=False))
                add("big_1_per_s", BIG_BATCH / t)
                t = _timed(lambda: simulate_batch(*big, physics, fly_off=False, parallel=True))
                add("big_all_per_s", BIG_BATCH / t)
                if with_pymunk:
                    add("break_ratio", per["pymunk_break_ms"][-1] / per["break_ms"][-1])
                    add("flat_ratio", per["flat_per_s"][-1] / per["pymunk_flat_per_s"][-1])
    finally:
        for proc in spinners:
            proc.kill()
            proc.wait()
    with con.status("fresh process / 新規プロセス..."):
        inproc, wall = _fresh_process_latency()
    disks = [len(d) for d in real]
    fig: dict[str, Any] = {k: _summary(v) for k, v in per.items()}
    fig.update(
        rounds=rounds,
        threads=threads,
        positions=len(positions),
        stacked_positions=sum(p.stacked for p in positions),
        disks={"median": statistics.median(disks), "min": min(disks), "max": max(disks)},
        flat_disks=statistics.median(len(d) for d in flat),
        break_events=simulate(brk, plain, fly_off=False).events_handled,
        batch_shots=BATCH_SHOTS,
        big_batch=BIG_BATCH,
        busy=busy,
        fresh_first_shot_s=inproc,
        fresh_process_wall_s=wall,
        load_before=list(load_before),
        load_after=list(os.getloadavg()),
        board=physics.to_dict(),
    )
    _print(con, fig)
    return fig


def _fmt(s: dict[str, float], spec: str) -> str:
    return f"{s['median']:{spec}} [{s['min']:{spec}}-{s['max']:{spec}}]"


def _print(con: Console, fig: dict[str, Any]) -> None:
    load = "/".join(f"{x:.1f}" for x in fig["load_before"])
    table = Table(
        title=(
            f"physics benchmark / 物理ベンチマーク: medians [ranges] over {fig['rounds']} rounds; "
            f"load average {load} at the start"
            + (f", {fig['busy']} busy processes / 負荷プロセス" if fig["busy"] else "")
        )
    )
    table.add_column("figure / 項目")
    table.add_column("ours / 本エンジン", justify="right")
    table.add_column("pymunk (dt 1/240 s)", justify="right")
    table.add_column("ratio / 比", justify="right")
    table.add_column("disks / 駒", justify="right")
    pm = "pymunk_break_ms" in fig
    dash = "-"
    table.add_row(
        "opening break, ms (frictionless)",
        f"{_fmt(fig['break_ms'], '.3f')} ({fig['break_events']} events)",
        _fmt(fig["pymunk_break_ms"], ".2f") if pm else dash,
        _fmt(fig["break_ratio"], ".1f") + "x" if pm else dash,
        "26",
    )
    table.add_row(
        "opening break, ms (default physics)",
        _fmt(fig["break_full_ms"], ".3f"),
        "",
        "",
        "26",
    )
    table.add_row(
        f"{fig['positions']} match positions one by one, shots/s (frictionless, board only)",
        _fmt(fig["flat_per_s"], ",.0f"),
        _fmt(fig["pymunk_flat_per_s"], ",.0f") if pm else dash,
        _fmt(fig["flat_ratio"], ".1f") + "x" if pm else dash,
        f"{fig['flat_disks']:g} median",
    )
    d = fig["disks"]
    disks = f"{d['median']:g} median ({d['min']}-{d['max']})"
    table.add_row(
        f"the same positions, default physics ({fig['stacked_positions']} with piles), shots/s",
        _fmt(fig["real_per_s"], ",.0f"),
        "",
        "",
        disks,
    )
    table.add_row(
        "one simulate() call, mean: engine / Python around it, us",
        f"{fig['engine_us']['median']:.1f} / {fig['overhead_us']['median']:.1f}",
        "",
        "",
        disks,
    )
    n = fig["threads"]
    b = fig["batch_shots"]
    table.add_row(
        f"batches of {b} shots per position, 1 thread, shots/s",
        _fmt(fig["batch_1_per_s"], ",.0f"),
        "",
        "",
        disks,
    )
    table.add_row(
        f"batches of {b} shots per position, {n} threads (parallel=True), shots/s",
        _fmt(fig["batch_all_per_s"], ",.0f"),
        "",
        "",
        disks,
    )
    for key, threads in (("big_1_per_s", "1 thread"), ("big_all_per_s", f"{n} threads")):
        table.add_row(
            f"one batch of {fig['big_batch']:,} shots (a pile), {threads}, shots/s",
            _fmt(fig[key], ",.0f"),
            "",
            "",
            "",
        )
    table.add_row(
        "fresh process: import + first shot, s",
        f"{fig['fresh_first_shot_s']:.2f} (process {fig['fresh_process_wall_s']:.2f})",
        "",
        "",
        "",
    )
    con.print(table)
    after = "/".join(f"{x:.1f}" for x in fig["load_after"])
    con.print(f"load average at the end / 終了時の負荷: {after} ({os.cpu_count()} cores)")


def run_fuzz(n: int, board: BoardSpec | None = None, console: Console | None = None) -> int:
    """``--fuzz N``: check N fuzzed pile shots and the stored positions (physics_fuzz); prints
    the counts and returns 0 when nothing jumped, looped or broke an invariant, else 1."""
    con = console or Console(width=140)
    physics = board or BoardSpec()
    positions = [p.shot_disks(physics) for p in stored()]
    t0 = time.perf_counter()
    with con.status(f"fuzzing {n:,} pile shots / パイルのショットを検査中..."):
        piles, real = fuzz(n, physics, positions)
    wall = time.perf_counter() - t0
    table = Table(title=f"physics fuzz / 物理の検査: {wall:.0f} s")
    for col in ("shots / ショット", "events / イベント", "jumps / 瞬間移動", "loops / 無限ループ"):
        table.add_column(col, justify="right")
    table.add_column("invariants broken / 不変量違反", justify="right")
    for name, c in ((f"{n:,} fuzzed pile shots", piles), ("stored match positions", real)):
        table.add_row(
            f"{c.shots:,} ({name})", f"{c.events:,}", str(c.jumps), str(c.loops),
            str(c.violations),
        )  # fmt: skip
    con.print(table)
    for example in piles.examples + real.examples:
        con.print(example)
    bad = any(c.jumps or c.loops or c.violations for c in (piles, real))
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom bench physics``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom bench physics",
        description="The exact engine on real match positions, against a lean pymunk peer "
        "timed round by round / 実際の局面での物理エンジンの速さ",
    )
    parser.add_argument("--rounds", type=int, default=7, help="timing rounds (median; 7)")
    parser.add_argument("--no-pymunk", action="store_true", help="skip the pymunk peer")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument(
        "--busy",
        type=int,
        default=0,
        metavar="K",
        help="load the machine with K processes spinning on the CPU while timing (0)",
    )
    parser.add_argument(
        "--fuzz",
        type=int,
        metavar="N",
        help="instead of timing: check N fuzzed pile shots and the stored positions for jumps, "
        "loops and broken invariants",
    )
    add_board_argument(parser)
    args = parser.parse_args(argv)
    board = board_from_args(parser, args)
    if not 1 <= args.rounds <= 1000:
        parser.error("--rounds must be between 1 and 1000")
    if not 0 <= args.busy <= 64:
        parser.error("--busy must be between 0 and 64")
    if args.fuzz is not None:
        if not 0 <= args.fuzz <= 10_000_000:
            parser.error("--fuzz must be between 0 and 10,000,000")
        return run_fuzz(args.fuzz, board)
    if not args.no_pymunk:
        try:
            import pymunk  # noqa: F401
        except ImportError:
            parser.error("pymunk is not installed (pip install -e '.[dev]'), or use --no-pymunk")
    fig = run_bench(args.rounds, board, not args.no_pymunk, busy=args.busy)
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(fig, fh, indent=2)
        except OSError as err:
            print(
                f"hikone-carrom bench physics: cannot write {args.json}: {err.strerror}",
                file=sys.stderr,
            )
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
