"""``hikone-carrom bench ai``: how long the computer players take to decide, on one core.

Two sets of decisions, each level's and the raced expert's (``expert-raced``) in the same run:

- the stored positions (:mod:`hikone_carrom.bench.positions`): ``--positions`` of them spread
  over the stored matches, reached by replaying those matches (the same layouts, referee state
  and shooter), each decided once by every player;
- ``--games`` whole games of each player against greedy on the default board (seeded, the
  player first in even games and second in odd ones), every decision of the player timed.

Per player: the median, p90 and max decision time (s of CPU time of the process, one numba
thread, so that other jobs on a shared machine weigh less) and the
median shots simulated per decision, with the expert's targets printed beside.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numba

from hikone_carrom.ai import NoLegalShotError, make_player, take_turn
from hikone_carrom.ai.levels import BASELINES, RACED
from hikone_carrom.ai.runner import warm_up
from hikone_carrom.bench.positions import MATCHES, stored
from hikone_carrom.match import Match
from hikone_carrom.simulate import run_match

__all__ = [
    "TARGET_MAX_S",
    "TARGET_MEDIAN_S",
    "Timings",
    "main",
    "positions",
    "replayed",
    "run_bench",
]

TARGET_MEDIAN_S = 0.1
"""The expert's target median decision time on one core (s)."""
TARGET_MAX_S = 0.4
"""The expert's target longest decision (s)."""
REPLAYED_SHOTS = 32
"""Shots of a stored match the positions are taken among."""
DEFAULT_PLAYERS = "1,2,3,4,5,6," + RACED


@dataclass
class Timings:
    """Decision times (s) and shots simulated per decision of one player."""

    seconds: list[float] = field(default_factory=list)
    simulated: list[int] = field(default_factory=list)

    def add(self, seconds: float, info: object) -> None:
        self.seconds.append(seconds)
        count = info.get("simulated", 0) if isinstance(info, dict) else 0
        self.simulated.append(int(count) if isinstance(count, int) else 0)

    def row(self) -> str:
        s = sorted(self.seconds)
        if not s:
            return "no decisions"
        p90 = s[min(len(s) - 1, int(0.9 * len(s)))]
        shots = statistics.median(self.simulated)
        return f"{len(s):5d} {statistics.median(s):8.3f} {p90:8.3f} {s[-1]:8.3f} {shots:10.0f}"


def _decide(player_name: str, match: Match, seed: int, into: Timings) -> None:
    player = make_player(int(player_name) if player_name.isdigit() else player_name, seed=seed)
    t0 = time.process_time()
    try:
        decision = player.decide(match)
    except NoLegalShotError:
        return
    into.add(time.process_time() - t0, dict(decision.info))


def positions(count: int) -> list[tuple[int, int]]:
    """``count`` (match, shot) pairs spread evenly over the first :data:`REPLAYED_SHOTS` stored
    positions of the matches between baselines (:data:`~hikone_carrom.ai.levels.BASELINES`):
    those replay today exactly as they were stored (the levels have changed since, and a long
    replay drifts by float rounding)."""
    between = {k for k, (_, bots, _) in enumerate(MATCHES) if set(bots) <= set(BASELINES)}
    kept = [(p.match, p.shot) for p in stored() if p.match in between and p.shot < REPLAYED_SHOTS]
    step = max(1, len(kept) // max(1, count))
    return kept[step // 2 :: step][:count]


def replayed(count: int) -> list[Match]:
    """Matches set at ``count`` of the stored positions (:func:`positions`): the stored matches
    replayed to each, the layout and referee state taken there (Match.from_position)."""
    wanted: dict[int, set[int]] = {}
    for m, s in positions(count):
        wanted.setdefault(m, set()).add(s)
    out: list[Match] = []
    for m, shots in sorted(wanted.items()):
        players, bots, seed = MATCHES[m]
        match = Match(players, seed=seed)
        seats = [
            make_player(int(n) if n.isdigit() else n, seed=seed * 101 + i)
            for i, n in enumerate(bots)
        ]
        played = [0]

        def at(match: Match, shots: set[int] = shots, played: list[int] = played) -> None:
            if match.actions and match.actions[-1].play is None:
                return  # a pass: no stored position
            if match.actions:
                played[0] += 1
            if played[0] in shots and not match.is_over:
                out.append(
                    Match.from_position(
                        match.layout, match.referee.state, board=match.board, seed=match.seed
                    )
                )

        at(match)
        run_match(match, seats, max_actions=2 * (max(shots) + 1), on_action=at)
    return out


def _on_positions(names: Sequence[str], count: int, out: dict[str, Timings]) -> None:
    """Every player decides each of ``count`` stored positions."""
    for k, match in enumerate(replayed(count)):
        for name in names:
            _decide(name, match, k, out[name])


def _in_games(names: Sequence[str], games: int, out: dict[str, Timings]) -> None:
    """Each player's decisions in ``games`` whole games against greedy."""
    for name in names:
        for g in range(games):
            match = Match(2, seed=5000 + g)
            me = make_player(int(name) if name.isdigit() else name, seed=6000 + g)
            other = make_player("greedy", seed=7000 + g)
            seat = g % 2
            while not match.is_over and len(match.actions) < 300:
                if match.must_pass:
                    match.pass_turn()
                    continue
                if match.shooter != seat:
                    take_turn(match, other)
                    continue
                t0 = time.process_time()
                decision = me.decide(match)
                out[name].add(time.process_time() - t0, dict(decision.info))
                match.play(decision.shot, decision.noise)


def run_bench(names: Sequence[str], count: int, games: int) -> dict[str, dict[str, Timings]]:
    """Time the players; prints and returns the timings per set and player."""
    numba.set_num_threads(1)
    warm_up()
    figures: dict[str, dict[str, Timings]] = {}
    sets = (("positions", count, _on_positions), ("games", games, _in_games))
    for label, n, run in sets:
        if n <= 0:
            continue
        timings = {name: Timings() for name in names}
        run(names, n, timings)
        figures[label] = timings
        what = f"{n} stored positions" if label == "positions" else f"{n} games against greedy"
        print(f"decision time on one core, {what} (s)")
        print(f"  {'player':<16} {'n':>5} {'median':>8} {'p90':>8} {'max':>8} {'simulated':>10}")
        for name in names:
            print(f"  {name:<16} {timings[name].row()}")
        fast, expert = timings.get(RACED), timings.get("6")
        if fast and expert and fast.seconds and expert.seconds:
            time_ratio = statistics.median(fast.seconds) / statistics.median(expert.seconds)
            shot_ratio = statistics.median(fast.simulated) / statistics.median(expert.simulated)
            print(f"  {RACED} / 6: median time {time_ratio:.3f}x, shots {shot_ratio:.3f}x")
    print(f"targets for the expert: median <= {TARGET_MEDIAN_S} s, max <= {TARGET_MAX_S} s")
    return figures


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom bench ai``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom bench ai",
        description="Time the computer players' decisions on one core (stored positions and "
        "whole games), the raced expert beside / コンピュータの思考時間（1コア）",
    )
    parser.add_argument(
        "--players", default=DEFAULT_PLAYERS, help=f"comma separated ({DEFAULT_PLAYERS})"
    )
    parser.add_argument("--positions", type=int, default=12, help="stored positions (12)")
    parser.add_argument("--games", type=int, default=20, help="whole games per player (20)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a quick run: 4 positions, 2 games, the raced expert and level 6",
    )
    args = parser.parse_args(argv)
    if args.positions < 0 or args.games < 0:
        parser.error("--positions and --games must be >= 0")
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    count, games = args.positions, args.games
    if args.quick:
        names, count, games = [RACED, "6"], 4, 2
    for name in names:
        make_player(int(name) if name.isdigit() else name)  # raises UnknownPlayerError
    run_bench(names, count, games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
