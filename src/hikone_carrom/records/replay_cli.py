"""``hikone-carrom replay FILE``: verify a record by re-simulating it and print a shot table."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from hikone_carrom.match import Match
from hikone_carrom.records.codec import RecordFormatError, counts_of, read
from hikone_carrom.records.replay import ReplayError, ReplayStep, iter_replay
from hikone_carrom.rules import Ruling, ShotReport

__all__ = ["main"]


def _pieces(names: list[str]) -> str:
    return " ".join(names) if names else "-"


def _described(step: ReplayStep) -> tuple[int, Ruling | None, ShotReport | None]:
    """Who acted, the ruling and what the referee was told, from the replayed game (not from
    the record's text, which only the replay has checked)."""
    game = step.match
    if isinstance(game, Match):
        action = game.actions[-1]
        return action.seat, action.ruling, None if step.play is None else step.play.report
    last = game.steps[-1]
    return last.seat, last.ruling, None if last.entry.tap is None else last.entry.tap.report()


def main(argv: list[str] | None = None) -> int:
    """Verify a record; exit 0 if every action replays, 1 naming the first that diverges."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom replay", description="Verify a match record and print its shots."
    )
    parser.add_argument("file", help="match record (JSON)")
    parser.add_argument("--quiet", action="store_true", help="print only the verdict")
    args = parser.parse_args(argv)
    console = Console()
    err = Console(stderr=True, soft_wrap=True)
    table = Table(title=Text(args.file))
    for col in ("#", "seat", "action", "pocketed", "off", "penalty", "rules", "next", "R/G"):
        table.add_column(col)
    try:
        record = read(args.file)
        last = None
        for step in iter_replay(record):
            seat, ruling, report = _described(step)
            pocketed = [] if report is None else [p.value for p in report.pocketed]
            if report is not None and report.striker_pocketed:
                pocketed.append("striker")
            off = [] if report is None else [p.value for p in report.off_board]
            counts = counts_of(step.match)
            table.add_row(
                str(step.n),
                str(seat),
                str(step.entry["kind"]),
                _pieces(pocketed),
                _pieces(off),
                "" if ruling is None else str(ruling.penalty),
                "" if ruling is None else " ".join(ruling.reasons),
                "-" if counts["next_seat"] is None else str(counts["next_seat"]),
                f"{counts['pocketed']['red']}/{counts['pocketed']['green']}",
            )
            last = step.match
    except RecordFormatError as exc:
        err.print(f"[red]not a readable record[/red]: {escape(str(exc))}")
        return 2
    except ReplayError as exc:
        if not args.quiet:
            console.print(table)
        err.print(f"[red]does not replay[/red] at action {exc.action}: {escape(str(exc))}")
        return 1
    if not args.quiet:
        console.print(table)
    outcome_text = "in progress"
    if last is not None and last.outcome is not None:
        w = last.outcome.winner
        reason = last.outcome.reason
        outcome_text = f"winner {w.value} ({reason})" if w is not None else f"draw ({reason})"
    hints = len(record.get("hints", []))
    used = f"; {hints} hint{'s' if hints != 1 else ''} used" if hints else ""
    console.print(
        f"[green]OK[/green]: {len(record['actions'])} actions replay exactly; {outcome_text}{used}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
