"""``hikone-carrom replay FILE``: verify a record by re-simulating it and print a shot table."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.table import Table

from hikone_carrom.records.codec import RecordFormatError, read
from hikone_carrom.records.replay import ReplayError, iter_replay

__all__ = ["main"]


def _pieces(names: list[str]) -> str:
    return " ".join(names) if names else "-"


def main(argv: list[str] | None = None) -> int:
    """Verify a record; exit 0 if every action replays, 1 naming the first that diverges."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom replay", description="Verify a match record and print its shots."
    )
    parser.add_argument("file", help="match record (JSON)")
    parser.add_argument("--quiet", action="store_true", help="print only the verdict")
    args = parser.parse_args(argv)
    console = Console()
    err = Console(stderr=True)
    table = Table(title=args.file)
    for col in ("#", "seat", "action", "pocketed", "off", "penalty", "rules", "next", "R/G"):
        table.add_column(col)
    try:
        record = read(args.file)
        last = None
        for step in iter_replay(record):
            e = step.entry
            counts = e["counts"]
            ruling = e.get("ruling") or {}
            outcome = e.get("outcome") or {}
            striker = []
            if outcome.get("striker_pocketed"):
                striker.append("striker")
            table.add_row(
                str(step.n),
                str(e["seat"]),
                e["kind"],
                _pieces(outcome.get("pocketed", []) + striker),
                _pieces(outcome.get("off_board", [])),
                str(ruling.get("penalty", "")),
                " ".join(ruling.get("reasons", [])),
                "-" if counts["next_seat"] is None else str(counts["next_seat"]),
                f"{counts['pocketed']['red']}/{counts['pocketed']['green']}",
            )
            last = step.match
    except RecordFormatError as exc:
        err.print(f"[red]not a readable record[/red]: {exc}")
        return 2
    except ReplayError as exc:
        if not args.quiet:
            console.print(table)
        err.print(f"[red]does not replay[/red] at action {exc.action}: {exc}")
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
