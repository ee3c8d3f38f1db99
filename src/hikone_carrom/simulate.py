"""``hikone-carrom simulate``: a whole computer-vs-computer match, with a record and a summary.

Timed matches (R7b) run on a virtual match clock: each shot costs a fixed setting-up time, taken
once the turn reaches the player (the pieces at rest, R8a), plus the time its disks take to come to
rest, so a seeded timed match is as reproducible as an untimed one.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from hikone_carrom import ai
from hikone_carrom.board_file import add_board_argument, board_from_args
from hikone_carrom.match import ActionKind, Match
from hikone_carrom.records import RecordFormatError, to_record, writable, write
from hikone_carrom.rules import Color, RuleOptions

__all__ = ["SETUP_TIME_S", "MatchSummary", "VirtualTime", "main", "run_match"]

SETUP_TIME_S = 5.0
"""Virtual time a player takes to place and aim before each shot, s (timed matches only); under
the 10 s of R8a, so a computer player never loses a shot to the clock."""


class VirtualTime:
    """A settable time source (s) for a timed match played faster than real time."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


@dataclass
class MatchSummary:
    """What a simulated match came to."""

    shots: int = 0
    penalties: int = 0
    wall_time_s: float = 0.0
    match_time_s: float = 0.0
    penalties_by_color: dict[Color, int] = field(default_factory=lambda: {c: 0 for c in Color})


def run_match(
    match: Match,
    players: Sequence[ai.Player],
    *,
    clock_time: VirtualTime | None = None,
    max_actions: int = 2000,
    on_action: Callable[[Match], None] | None = None,
) -> MatchSummary:
    """Play ``match`` to its end with one computer player per seat (R1c order).

    A timed match must be built with ``now=clock_time`` (a :class:`VirtualTime`): each shot then
    costs :data:`SETUP_TIME_S` from the moment the turn reaches the player (the last shot's pieces
    at rest, R8a) plus its motion time, and the match's clock calls time (R7b). A shooter with
    nowhere to put the striker passes (:attr:`Match.must_pass`, R2b reading).
    Stops after ``max_actions`` actions at the latest, or when a lot must decide (R7d).
    """
    if len(players) != match.players:
        raise ValueError(f"{match.players} players needed, {len(players)} given")
    if match.clock is not None and clock_time is None:
        raise ValueError("a timed match needs clock_time, the VirtualTime it was built with")
    summary = MatchSummary()
    started = time.perf_counter()
    match.start_clock()
    while not match.is_over and len(match.actions) < max_actions:
        if match.referee.state.awaiting_lot:
            break
        if clock_time is not None:
            clock_time.t += SETUP_TIME_S  # the shooter places and aims
            done = match.tick()
            if ActionKind.SKIP in done or match.is_over:
                continue  # the shot was lost (R8a): the next shooter sets up
            if done and on_action is not None:
                on_action(match)
        if match.must_pass:
            match.pass_turn()
        else:
            result = ai.take_turn(match, players[match.shooter])
            summary.shots += 1
            if result.ruling.penalty:
                summary.penalties += 1
                summary.penalties_by_color[result.ruling.color] += result.ruling.penalty
            if clock_time is not None:
                clock_time.t += result.result.duration  # until the pieces come to rest
        if on_action is not None:
            on_action(match)
    summary.wall_time_s = time.perf_counter() - started
    summary.match_time_s = 0.0 if match.clock is None else match.clock.elapsed()
    return summary


def _table(match: Match, summary: MatchSummary, names: Sequence[str]) -> Table:
    ref = match.referee
    table = Table(title="hikone-carrom simulate")
    table.add_column("")
    for c in Color:
        table.add_column(c.value)
    seats = {
        c: [f"{s}:{names[s]}" for s in range(match.players) if match.color(s) is c] for c in Color
    }
    table.add_row("seats", *(", ".join(seats[c]) for c in Color))
    table.add_row("pucks pocketed", *(str(ref.pocketed(c)) for c in Color))
    table.add_row("debt (R5i)", *(str(ref.debt(c)) for c in Color))
    table.add_row("penalty pucks", *(str(summary.penalties_by_color[c]) for c in Color))
    table.add_row("score (R7b)", *(str(ref.scores()[c]) for c in Color))
    return table


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


_count.__name__ = "positive int"  # how argparse names the type in its error


def main(argv: list[str] | None = None) -> int:
    """Simulate one match between computer players; exit 0 when it ran, 2 on bad arguments."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom simulate", description="Play a computer-vs-computer match."
    )
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument(
        "--bots", default="greedy,random", help="comma-separated players by seat (cycled)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seeds the match (an int >= 0)")
    parser.add_argument("--record", help="write the match record (JSON) here")
    parser.add_argument("--time-limit", type=float, help="match time, s (R7b); untimed if absent")
    parser.add_argument("--max-actions", type=_count, default=2000)
    add_board_argument(parser)
    args = parser.parse_args(argv)
    board = board_from_args(parser, args)
    console = Console()
    names = args.bots.split(",")
    names = [names[i % len(names)] for i in range(args.players)]
    vt = VirtualTime()
    try:
        if args.seed < 0:
            raise ValueError(f"--seed must be an int >= 0, not {args.seed}")
        bots = [ai.make_player(n, seed=args.seed * 101 + i) for i, n in enumerate(names)]
        options = RuleOptions(match_time_s=args.time_limit)
        match = Match(args.players, options, board=board, seed=args.seed, now=vt)
        if args.record:
            writable(args.record)
    except ValueError as exc:
        parser.error(str(exc))
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[counts]}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("pocketed", total=25, counts="")

        def update(m: Match) -> None:
            r = m.referee
            done = r.pocketed(Color.RED) + r.pocketed(Color.GREEN) + int(r.jack_pocketed)
            progress.update(task, completed=done, counts=f"shots {len(m.actions)}")

        try:
            summary = run_match(
                match, bots, clock_time=vt, max_actions=args.max_actions, on_action=update
            )
        except ai.NoLegalShotError as exc:
            print(f"hikone-carrom simulate: {exc.en}", file=sys.stderr)
            return 1
    console.print(_table(match, summary, names))
    outcome = match.outcome
    if outcome is None:
        verdict = (
            "unfinished (action cap)" if not match.referee.state.awaiting_lot else "lot pending"
        )
    else:
        verdict = "draw" if outcome.winner is None else f"{outcome.winner.value} wins"
        verdict += f" ({outcome.reason})"
    shots = sum(1 for a in match.actions if a.kind == ActionKind.SHOT)
    timing = f"match time {summary.match_time_s:.0f} s; " if match.clock is not None else ""
    console.print(
        f"{verdict}; {shots} shots, {summary.penalties} with penalties; "
        f"{timing}computed in {summary.wall_time_s:.1f} s"
    )
    if args.record:
        seats = [{"seat": i, "bot": n} for i, n in enumerate(names)]
        try:
            write(args.record, to_record(match, seats))
        except RecordFormatError as exc:
            print(f"hikone-carrom simulate: {exc}", file=sys.stderr)
            return 1
        console.print(Text(f"record written to {args.record}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
