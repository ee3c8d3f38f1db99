"""``hikone-carrom bench analysis``: how long the post-game analysis of a game takes.

A game of ``--shots`` shots is played by two computer players (level 2 against greedy, seeded),
its record analysed shot by shot as the server's analysis worker does (one
:class:`~hikone_carrom.ai.analysis.Analyser` asked for each shot in turn, on one numba thread:
one core), and the times printed: total (wall clock, and CPU: the time on a free core, judged
against the 10 s target), per shot (median, max). A
reference in the same process (one expert decision on the opening, after warming up) lets runs
on a loaded machine be compared: the ratio is what to compare. ``--against-expert`` analyses the
game twice, with the analysis's lighter search (:data:`~hikone_carrom.ai.analysis.ANALYST`) and
with level 6's own, and prints both times and the expert's shots' mean chance of success.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from hikone_carrom.ai import EXPERT_LEVEL, make_player, take_turn
from hikone_carrom.ai.analysis import DRAWS, Analyser, shot_numbers
from hikone_carrom.match import Match
from hikone_carrom.records import to_record

__all__ = ["TARGET_S", "against_expert", "main", "run_bench"]

TARGET_S = 10.0
"""The analysis of a 40-shot game on one core should take at most this long (s)."""


def _game(shots: int, seed: int) -> dict[str, object]:
    """A record of at least ``shots`` shots (or a whole game if it ends first)."""
    match = Match(players=2, seed=seed)
    players = [make_player(2, seed=seed + 1), make_player("greedy", seed=seed + 2)]
    while not match.is_over and len(match.actions) < shots:
        take_turn(match, players[match.shooter])
    return to_record(match)


def run_bench(shots: int, seed: int) -> dict[str, float]:
    """Play, analyse and time; prints and returns the figures (s)."""
    import numba

    numba.set_num_threads(1)
    record = _game(shots, seed)
    numbers = shot_numbers(record)
    make_player(EXPERT_LEVEL, 0, noise_scale=1.0).decide(Match(seed=seed))  # compile, warm up
    t0 = time.perf_counter()
    make_player(EXPERT_LEVEL, 1, noise_scale=1.0).decide(Match(seed=seed))
    reference = time.perf_counter() - t0
    per_shot: list[float] = []
    start, cpu = time.perf_counter(), time.process_time()
    analyser = Analyser(record)
    for n in numbers:
        t0 = time.perf_counter()
        analyser.analysis([n])
        per_shot.append(time.perf_counter() - t0)
    total, cpu = time.perf_counter() - start, time.process_time() - cpu
    fig = {
        "cpu_s": cpu,
        "shots": float(len(numbers)),
        "total_s": total,
        "median_shot_s": statistics.median(per_shot),
        "max_shot_s": max(per_shot),
        "reference_s": reference,
        "ratio": total / reference,
    }
    print(f"analysis of a {len(numbers)}-shot game ({DRAWS} draws of the 1x hand per shot)")
    met = "met" if cpu <= TARGET_S * len(numbers) / 40 else "not met"
    print(f"  total           {total:8.1f} s wall clock")
    print(f"  CPU             {cpu:8.1f} s (one numba thread: the time on a free core)")
    print(f"  target          <= {TARGET_S:g} s of one core for 40 shots: {met}")
    print(f"  per shot        median {fig['median_shot_s']:.2f} s, max {fig['max_shot_s']:.2f} s")
    print(f"  reference       {reference:8.2f} s (one expert decision on the opening)")
    print(f"  total/reference {fig['ratio']:8.1f}")
    return fig


def _timed(analyser: Analyser, numbers: list[int]) -> tuple[list[float], list[float]]:
    """(s per shot, the expert's shot's chance per shot)."""
    times: list[float] = []
    chances: list[float] = []
    for n in numbers:
        t0 = time.perf_counter()
        (shot,) = analyser.analysis([n]).shots
        times.append(time.perf_counter() - t0)
        chances.append(shot.best_chance)
    return times, chances


def against_expert(shots: int, seed: int) -> dict[str, float]:
    """The analysis of the game with its lighter search and with level 6's own (both for a 1x
    hand, the same draws); prints and returns the times (s) and the mean chance of success of
    the expert's shots, with the paired difference and its standard error."""
    import numba

    numba.set_num_threads(1)
    record = _game(shots, seed)
    numbers = shot_numbers(record)
    make_player(EXPERT_LEVEL, 0, noise_scale=1.0).decide(Match(seed=seed))  # compile, warm up
    light_s, light = _timed(Analyser(record), numbers)
    full_s, full = _timed(
        Analyser(record, expert=lambda s: make_player(EXPERT_LEVEL, s, noise_scale=1.0)),
        numbers,
    )
    diffs = [a - b for a, b in zip(light, full, strict=True)]
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
    fig = {
        "light_total_s": sum(light_s),
        "full_total_s": sum(full_s),
        "light_chance": statistics.fmean(light),
        "full_chance": statistics.fmean(full),
        "difference": statistics.fmean(diffs),
        "difference_se": se,
    }
    print(f"the analysis's search against level 6's own, {len(numbers)} positions, 1x hand:")
    for label, times, chances in (("analysis", light_s, light), ("level 6", full_s, full)):
        print(
            f"  {label:9} total {sum(times):6.1f} s, per shot median"
            f" {statistics.median(times):.2f} s, max {max(times):.2f} s;"
            f" the expert's shot's chance, mean {100 * statistics.fmean(chances):.1f} %"
        )
    print(
        f"  difference (analysis - level 6) {100 * fig['difference']:+.1f} points"
        f" (standard error {100 * se:.1f}); time ratio"
        f" {fig['light_total_s'] / fig['full_total_s']:.2f}"
    )
    return fig


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom bench analysis``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom bench analysis",
        description="Time the post-game analysis of a computer game, shot by shot.",
    )
    parser.add_argument("--shots", type=int, default=40, help="shots in the game (40)")
    parser.add_argument("--seed", type=int, default=1, help="the game's seed (1)")
    parser.add_argument(
        "--against-expert",
        action="store_true",
        help="compare the analysis's lighter search with level 6's own on the same game",
    )
    args = parser.parse_args(argv)
    if args.shots < 1 or args.seed < 0:
        parser.error("--shots must be >= 1 and --seed >= 0")
    if args.against_expert:
        against_expert(args.shots, args.seed)
    else:
        run_bench(args.shots, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
