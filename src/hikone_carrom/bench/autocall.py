"""``hikone-carrom bench autocall``: a whole championship day run by automatic mode alone.

The simulated championship of ``bench tournament`` (800 entrants, 124 boards) is drawn and
planned; then, as automatic mode does after every stored change, each pass closes the complete
pools and calls the free boards (:mod:`hikone_carrom.tournament.autocall`), and the match called
first ends with a result, until every match is played. Printed: the CPU time of the passes
(median, 95th percentile, worst; those that closed a pool apart, as they re-slot the knockout),
of the director's list of reasons, and whether the day ran to its end with nobody ever on two
boards. CPU time of this process, so a loaded machine does not inflate it. Figures only:
nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from hikone_carrom.bench.tournament import simulated_championship
from hikone_carrom.tournament import Result
from hikone_carrom.tournament.autocall import AutoMode, dispatch, pools_to_close

__all__ = ["main"]


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
    rng = random.Random(args.seed)
    event = simulated_championship(args.boards, args.seed)
    for division in event.divisions:
        event.draw(division)
    plan = event.make_plan()
    event.auto = AutoMode(on=True)
    on_boards: dict[str, int] = {}
    begun: set[str] = set()
    passes: list[float] = []
    closing: list[float] = []
    reasons: list[float] = []
    closes = calls = clashes = 0
    people_of = {e.id: e.people for e in event.entries.values()}
    while True:
        t0 = time.process_time()
        closed = pools_to_close(event)
        for division, number in closed:
            event.close_pool(division, number, started=begun)
            closes += 1
        made = dispatch(event, on_boards, begun, reasons=False).calls
        (closing if closed else passes).append(time.process_time() - t0)
        for match, board in made:
            on_boards[match] = board
            begun.add(match)
            calls += 1
        people = [p for m in on_boards for s in event.match(m).sides if s
                  for p in people_of[s]]  # fmt: skip
        clashes += len(people) - len(set(people))
        if len(reasons) < 20:
            t0 = time.process_time()
            dispatch(event, on_boards, begun)
            reasons.append(time.process_time() - t0)
        if not on_boards:
            break
        first = next(iter(on_boards))  # the longest on its board ends
        del on_boards[first]
        a, b = rng.randint(100, 112), rng.randint(0, 99)
        event.record(first, Result.from_scores(a, b))
    planned = len(plan.slots)
    print(f"event: {len(event.entries)} entries, {planned} planned matches, {args.boards} boards")
    print(f"day run by automatic mode: {calls} calls, {closes} pools closed, "
          f"{len(event.results)} results; people on two boards at once: {clashes}")  # fmt: skip
    for name, times in (("a pass calling free boards", passes),
                        ("a pass closing pools (and re-slotting)", closing)):  # fmt: skip
        print(f"{name}, {len(times)} passes: CPU median {statistics.median(times) * 1000:.1f} ms, "
              f"p95 {_ms(times, 0.95):.1f} ms, worst {max(times) * 1000:.1f} ms")  # fmt: skip
    print(f"the director's reasons (every waiting match): CPU median "
          f"{statistics.median(reasons) * 1000:.1f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
