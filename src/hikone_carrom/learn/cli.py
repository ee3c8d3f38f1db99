"""``hikone-carrom puzzles build``: rebuild the shipped puzzles (same seed, same file).

The file is rewritten after each puzzle found, with the count it holds, so a build stopped early
leaves a whole file that ``--count`` of that many rebuilds bit for bit.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from importlib import resources
from pathlib import Path

from hikone_carrom.learn.generate import puzzles_of
from hikone_carrom.learn.puzzles import Puzzle, puzzles_to_dict

__all__ = ["main", "shipped_path", "write"]

DEFAULT_COUNT = 300
DEFAULT_SEED = 0


def shipped_path() -> Path:
    """Where the package keeps its puzzles (``learn/data/puzzles.json``)."""
    return Path(str(resources.files("hikone_carrom.learn").joinpath("data", "puzzles.json")))


def write(path: Path, puzzles: list[Puzzle], seed: int) -> None:
    """Write a puzzles file atomically (the build's seed and count recorded in it)."""
    data = puzzles_to_dict(puzzles, {"seed": seed, "count": len(puzzles)})
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    """Run ``puzzles build``; exit 2 on bad options."""
    parser = argparse.ArgumentParser(prog="hikone-carrom puzzles", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="rebuild the puzzles / 詰めカロムを作り直す")
    build.add_argument("--count", type=int, default=DEFAULT_COUNT, help="puzzles to find")
    build.add_argument("--seed", type=int, default=DEFAULT_SEED, help="first source match seed")
    build.add_argument("--out", type=Path, default=None, help="output file (default: shipped)")
    build.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    if args.count < 1 or args.seed < 0:
        parser.error("--count must be >= 1 and --seed >= 0 / --count は1以上、--seed は0以上です")
    out: Path = args.out or shipped_path()
    started = time.process_time()
    found: list[Puzzle] = []
    for puzzle in puzzles_of(args.seed):
        found.append(puzzle)
        write(out, found, args.seed)
        if not args.quiet:
            cpu = time.process_time() - started
            print(f"{len(found)} puzzles, {cpu:.0f} s CPU ({puzzle.source})", file=sys.stderr)
        if len(found) == args.count:
            break
    cpu = time.process_time() - started
    print(f"{len(found)} puzzles in {cpu:.0f} s CPU ({len(found) / cpu:.3f} per s) -> {out}")
    return 0
