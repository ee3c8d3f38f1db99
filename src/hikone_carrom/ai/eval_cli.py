"""``hikone-carrom ai-eval``: measure the computer players (the protocol of docs/ai.md).

Examples::

    hikone-carrom ai-eval --seeds 200 --results runs/eval.jsonl          # full protocol
    hikone-carrom ai-eval --players greedy,6 --tiers 1x --seeds 20 --duel-games 40
    hikone-carrom ai-eval --results runs/eval.jsonl --report-only --markdown tables.md
    hikone-carrom ai-eval --players expert-raced,6 --duels expert-raced:6 --tiers 1x \
        --seed-start 3000 --seeds 100 --duel-games 200 --compare expert-raced:6
    hikone-carrom ai-eval --ray local ...              # a private local Ray (needs the [ray] extra)
    hikone-carrom ai-eval --ray ray://head:10001 ...   # a Ray cluster (same version on every node)
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from hikone_carrom.ai.comparison import compare_table
from hikone_carrom.ai.errors import AIError, EvaluationError
from hikone_carrom.ai.eval_tables import (
    Table,
    decision_table,
    duel_table,
    markdown,
    phase_table,
    solo_table,
)
from hikone_carrom.ai.evaluation import OWN_TIER, DuelTask, SoloTask, Task
from hikone_carrom.ai.levels import make_player
from hikone_carrom.ai.noise import tier_scale
from hikone_carrom.ai.results import ResultsFile
from hikone_carrom.ai.runner import (
    RayConnectionError,
    RemoteTaskError,
    ray_session,
    require_ray,
    run_local,
    run_ray,
)
from hikone_carrom.board_file import add_board_argument, board_from_args

__all__ = ["DEFAULT_DUELS", "DEFAULT_PLAYERS", "build_parser", "main", "plan_tasks"]

DEFAULT_PLAYERS = "random,aim,greedy,1,2,3,4,5,6"
DEFAULT_DUELS = "6:random,6:greedy,greedy:random,aim:random"


def build_parser() -> argparse.ArgumentParser:
    """The command's arguments."""
    p = argparse.ArgumentParser(
        prog="hikone-carrom ai-eval",
        description="Measure the computer players: solo clear, duels, decision time "
        "/ コンピュータの強さを測る（ソロクリア・対戦・思考時間）",
    )
    p.add_argument(
        "--players",
        default=DEFAULT_PLAYERS,
        help="solo-clear players: names or levels, comma separated, or 'none' "
        f"(default {DEFAULT_PLAYERS})",
    )
    p.add_argument(
        "--duels",
        default=DEFAULT_DUELS,
        help=f"pairings A:B, comma separated, or 'none' (default {DEFAULT_DUELS})",
    )
    p.add_argument(
        "--tiers",
        default="0x,1x,5x",
        help="noise tiers: multiples of 1x, or 'own' for each level's own hand (default 0x,1x,5x)",
    )
    p.add_argument("--seeds", type=int, default=200, help="solo games per player and tier")
    p.add_argument(
        "--duel-games", type=int, default=None, help="games per pairing and tier (default: --seeds)"
    )
    p.add_argument("--seed-start", type=int, default=0, help="first game seed")
    p.add_argument("--cap", type=int, default=200, help="solo strike cap (default 200)")
    p.add_argument(
        "--max-shots",
        type=int,
        default=300,
        help="duel shots before time is called, R7b (default 300)",
    )
    p.add_argument(
        "--results",
        default="ai-eval.jsonl",
        help="results file (JSON lines; resumed when it exists)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=2,
        help="local worker processes, or CPUs of a --ray local instance (default 2)",
    )
    p.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="run on Ray: 'local' starts a private instance, 'auto', HOST:PORT or "
        "ray://HOST:PORT joins a cluster (needs hikone-carrom[ray] on every node)",
    )
    p.add_argument("--report-only", action="store_true", help="print the tables, run nothing")
    p.add_argument("--markdown", metavar="FILE", default=None, help="also write the tables here")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--compare",
        metavar="A:B",
        default=None,
        help="also print A against B from every game in the results file: solo-clear ratio "
        "(paired bootstrap) and duel score (Wilson), with their targets",
    )
    add_board_argument(p)
    return p


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        make_player(int(name) if name.isdigit() else name)  # raises UnknownPlayerError
    return names


def plan_tasks(args: argparse.Namespace) -> list[Task]:
    """Every task the arguments ask for, in a fixed order (raises AIError on bad arguments)."""
    if args.seeds < 0 or args.cap < 1 or args.max_shots < 1 or args.jobs < 1:
        raise EvaluationError(
            "--seeds must be >= 0, --cap, --max-shots and --jobs >= 1",
            "--seeds は0以上、--cap・--max-shots・--jobs は1以上です",
        )
    tiers = [t.strip() for t in args.tiers.split(",") if t.strip()]
    for tier in tiers:
        if tier != OWN_TIER:
            tier_scale(tier)
    players = [] if args.players.strip().lower() in ("", "none") else _names(args.players)
    if args.compare is not None:
        a, sep, b = args.compare.partition(":")
        if not sep or not a.strip() or not b.strip():
            raise EvaluationError(
                f"--compare is A:B, not {args.compare!r}",
                f"--compare の指定は A:B です（{args.compare!r} は不可）",
            )
    duels: list[tuple[str, str]] = []
    if args.duels.strip().lower() != "none":
        for pair in args.duels.split(","):
            a, sep, b = pair.strip().partition(":")
            if not sep:
                raise EvaluationError(
                    f"a pairing is A:B, not {pair!r}", f"対戦の指定は A:B です（{pair!r} は不可）"
                )
            _names(f"{a},{b}")
            duels.append((a.strip(), b.strip()))
    games = args.seeds if args.duel_games is None else args.duel_games
    tasks: list[Task] = []
    for tier in tiers:
        for s in range(args.seed_start, args.seed_start + args.seeds):
            tasks += [SoloTask(p, tier, s, args.cap) for p in players]
        for s in range(args.seed_start, args.seed_start + games):
            tasks += [DuelTask(a, b, tier, s, args.max_shots) for a, b in duels]
    return tasks


@contextmanager
def _stream(todo: list[Task], args: argparse.Namespace) -> Iterator[Iterator[dict[str, Any]]]:
    """Result lines of ``todo`` from the runner the arguments choose (Ray held for the block)."""
    if args.ray:
        with ray_session(args.ray, num_cpus=args.jobs):
            yield run_ray(todo, args.ray, num_cpus=args.jobs, board=args.board_spec)
    else:
        yield run_local(todo, args.jobs, args.board_spec)


def _print(console: Console, table: Table) -> None:
    rich = RichTable(title=table.title)
    for name in table.header:
        rich.add_column(name)
    for row in table.rows:
        rich.add_row(*row)
    console.print(rich)


@contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """While held, SIGTERM (``kill``, a service manager, a CI timeout) stops the run as Ctrl-C
    does, so the workers are stopped too instead of finishing games nobody will read."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may handle signals
        return
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: list[str] | None = None) -> int:
    """Run the evaluation; returns the exit code (0 done, 1 Ray unreachable or a task failed on
    it, the finished results kept for a resumed run; 2 bad arguments or results file; 130
    interrupted by Ctrl-C or SIGTERM, the finished results kept)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.board_spec = board_from_args(parser, args)
    with _sigterm_interrupts():
        try:
            return _run(args)
        except KeyboardInterrupt:
            print(
                f"hikone-carrom ai-eval: stopped; the finished games are in {args.results}: "
                "rerun the same command to resume / 中断しました。終わった対局は"
                f" {args.results} にあります。同じコマンドで再開できます",
                file=sys.stderr,
            )
            return 130


def _run(args: argparse.Namespace) -> int:
    console = Console()
    if not console.is_terminal:
        console = Console(width=200)
    try:
        tasks = plan_tasks(args)
        if args.ray and not args.report_only:
            require_ray(args.ray)  # a bad address or a missing Ray changes nothing on disk
        results = ResultsFile(args.results, args.board_spec)
        todo = [t for t in tasks if t.key not in results]
        if not args.report_only and todo:
            with Progress(
                TextColumn("[bold]ai-eval[/bold] {task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                disable=args.quiet,
            ) as progress:
                bar = progress.add_task(f"{len(tasks) - len(todo)} done before", total=len(todo))
                with _stream(todo, args) as stream:
                    for line in stream:
                        results.append(line)
                        progress.advance(bar)
        wanted = {t.key for t in tasks}
        lines = [v for k, v in results.lines.items() if k in wanted]
    except (RayConnectionError, RemoteTaskError) as err:
        print(f"hikone-carrom ai-eval: {err.en} / {err.ja}", file=sys.stderr)
        return 1
    except AIError as err:
        print(f"hikone-carrom ai-eval: {err.en} / {err.ja}", file=sys.stderr)
        return 2
    tables = [solo_table(lines), phase_table(lines), duel_table(lines), decision_table(lines)]
    if args.compare:
        a, _, b = args.compare.partition(":")
        tables.append(compare_table(results.lines.values(), a.strip(), b.strip()))
    for table in tables:
        if table.rows:
            _print(console, table)
    if args.markdown:
        text = "\n".join(markdown(t) for t in tables if t.rows)
        Path(args.markdown).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
