"""``hikone-carrom bench autocall``: a whole championship day run by automatic mode alone.

The simulated championship of ``bench tournament`` (800 entrants, 124 boards) is drawn and
planned; then, as automatic mode does after every stored change, each pass closes the complete
pools and calls the free boards (:mod:`hikone_carrom.tournament.autocall`), and the match called
first ends with a result, until every match is played (:func:`run_day`). Printed: the CPU time
of the passes (median, 95th percentile, worst; those that closed a pool apart, as they re-slot
the knockout), of the director's list of reasons, and whether the day ran to its end with
nobody ever on two boards. CPU time of this process, so a loaded machine does not inflate it.
Figures only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field

from hikone_carrom.bench.tournament import simulated_championship
from hikone_carrom.tournament import Result, Tournament
from hikone_carrom.tournament.autocall import AutoMode, dispatch, pools_to_close

__all__ = ["Day", "main", "run_day"]


@dataclass
class Day:
    """What a day run by automatic mode did: calls, pools closed, results, the most people
    found on two boards at once (0), and the CPU time of each pass and of the reasons, s."""

    calls: int = 0
    closes: int = 0
    results: int = 0
    clashes: int = 0
    passes: list[float] = field(default_factory=list)
    closing: list[float] = field(default_factory=list)
    reasons: list[float] = field(default_factory=list)


def run_day(event: Tournament, seed: int = 0) -> Day:
    """Play a drawn and planned ``event`` to its end by automatic calls and pool closes."""
    rng = random.Random(seed)
    event.auto = AutoMode(on=True)
    people_of = {e.id: e.people for e in event.entries.values()}
    on_boards: dict[str, int] = {}
    begun: set[str] = set()
    day = Day()
    while True:
        t0 = time.process_time()
        closed = pools_to_close(event)
        for division, number in closed:
            event.close_pool(division, number, started=begun)
        made = dispatch(event, on_boards, begun, reasons=False).calls
        (day.closing if closed else day.passes).append(time.process_time() - t0)
        day.closes += len(closed)
        for match, board in made:
            on_boards[match] = board
            begun.add(match)
            day.calls += 1
        people = [p for m in on_boards for s in event.match(m).sides if s
                  for p in people_of[s]]  # fmt: skip
        day.clashes = max(day.clashes, len(people) - len(set(people)))
        if len(day.reasons) < 20:
            t0 = time.process_time()
            dispatch(event, on_boards, begun)
            day.reasons.append(time.process_time() - t0)
        if not on_boards:
            break
        first = next(iter(on_boards))  # the longest on its board ends
        del on_boards[first]
        event.record(first, Result.from_scores(rng.randint(100, 112), rng.randint(0, 99)))
    day.results = len(event.results)
    return day


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom bench autocall``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom bench autocall",
        description="Run a full-size championship's day by automatic calls and pool closes.",
    )
    parser.add_argument("--boards", type=int, default=124, help="boards in the hall (124)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the simulated event")
    args = parser.parse_args(argv)
    if args.boards < 1:
        parser.error("--boards must be >= 1")
    event = simulated_championship(args.boards, args.seed)
    for division in event.divisions:
        event.draw(division)
    planned = len(event.make_plan().slots)
    day = run_day(event, args.seed)
    print(f"event: {len(event.entries)} entries, {planned} planned matches, {args.boards} boards")
    print(f"day run by automatic mode: {day.calls} calls, {day.closes} pools closed, "
          f"{day.results} results; people on two boards at once: {day.clashes}")  # fmt: skip
    for name, times in (("a pass calling free boards", day.passes),
                        ("a pass closing pools (and re-slotting)", day.closing)):  # fmt: skip
        print(f"{name}, {len(times)} passes: CPU median {statistics.median(times) * 1000:.1f} ms, "
              f"p95 {_ms(times, 0.95):.1f} ms, worst {max(times) * 1000:.1f} ms")  # fmt: skip
    print(f"the director's reasons (every waiting match): CPU median "
          f"{statistics.median(day.reasons) * 1000:.1f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
