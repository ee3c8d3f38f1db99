"""``hikone-carrom bench analysis``: how long the post-game analysis of a game takes.

A game of ``--shots`` shots is played by two computer players (level 2 against greedy, seeded),
its record analysed shot by shot as the server's analysis worker does (one
:class:`~hikone_carrom.ai.analysis.Analyser` asked for each shot in turn, on one numba thread:
one core), and the times printed: total against the 10 s target, per shot (median, max). A
reference in the same process (one expert decision on the opening, after warming up) lets runs
on a loaded machine be compared: the ratio is what to compare.
"""

from __future__ import annotations

import argparse
import statistics
import time

from hikone_carrom.ai import EXPERT_LEVEL, make_player, take_turn
from hikone_carrom.ai.analysis import DRAWS, Analyser, shot_numbers
from hikone_carrom.match import Match
from hikone_carrom.records import to_record

__all__ = ["TARGET_S", "main", "run_bench"]

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
    start = time.perf_counter()
    analyser = Analyser(record)
    for n in numbers:
        t0 = time.perf_counter()
        analyser.analysis([n])
        per_shot.append(time.perf_counter() - t0)
    total = time.perf_counter() - start
    fig = {
        "shots": float(len(numbers)),
        "total_s": total,
        "median_shot_s": statistics.median(per_shot),
        "max_shot_s": max(per_shot),
        "reference_s": reference,
        "ratio": total / reference,
    }
    print(f"analysis of a {len(numbers)}-shot game ({DRAWS} draws of the 1x hand per shot)")
    met = "met" if total <= TARGET_S * len(numbers) / 40 else "not met"
    print(f"  total           {total:8.1f} s (target <= {TARGET_S:g} s for 40 shots: {met})")
    print(f"  per shot        median {fig['median_shot_s']:.2f} s, max {fig['max_shot_s']:.2f} s")
    print(f"  reference       {reference:8.2f} s (one expert decision on the opening)")
    print(f"  total/reference {fig['ratio']:8.1f}")
    return fig


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom bench analysis``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom bench analysis",
        description="Time the post-game analysis of a computer game, shot by shot.",
    )
    parser.add_argument("--shots", type=int, default=40, help="shots in the game (40)")
    parser.add_argument("--seed", type=int, default=1, help="the game's seed (1)")
    args = parser.parse_args(argv)
    if args.shots < 1 or args.seed < 0:
        parser.error("--shots must be >= 1 and --seed >= 0")
    run_bench(args.shots, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
