"""The ``hikone-carrom`` command: one entry point, one module per sub-command.

Each sub-command lives in the module that owns the work and exposes ``main(argv) -> int``; this
dispatcher only routes, so that ``hikone-carrom --help`` stays fast and the core never imports
the server's dependencies.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

from hikone_carrom.bench import BENCHES

__all__ = ["COMMANDS", "main"]

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("hikone_carrom.server", "open the browser game / ブラウザでゲームを開く"),
    "serve": (
        "hikone_carrom.server",
        "run the game server without opening a browser / サーバーのみ起動",
    ),
    "simulate": ("hikone_carrom.simulate", "computer vs computer match / コンピュータ同士の対局"),
    "replay": ("hikone_carrom.records.replay_cli", "verify a match record / 棋譜を検証して表示"),
    "show": ("hikone_carrom.show", "draw a shot of a record / ショットを図にする"),
    "ai-eval": ("hikone_carrom.ai.eval_cli", "evaluate computer players / AIの評価"),
    "pot-table": (
        "hikone_carrom.ai.pot_table",
        "rebuild the expert's pot-chance table / 達人のポット確率表を作り直す",
    ),
    "puzzles": ("hikone_carrom.learn.cli", "rebuild the puzzles / 詰めカロムを作り直す"),
    "bench": ("hikone_carrom.bench", f"benchmarks: {' | '.join(BENCHES)} / ベンチマーク"),
    "calibrate": (
        "hikone_carrom.calibrate",
        "fit the board's physics to measured shots / 実測から盤の物理定数を求める",
    ),
}


def _usage() -> str:
    lines = ["usage: hikone-carrom COMMAND [options]", "", "commands:"]
    lines += [f"  {name:<10} {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "Run 'hikone-carrom COMMAND --help' for a command's options."]
    return "\n".join(lines)


def _entry(module: str) -> Callable[[list[str] | None], int]:
    entry: Callable[[list[str] | None], int] = importlib.import_module(module).main
    return entry


def main(argv: Sequence[str] | None = None) -> int:
    """Route ``hikone-carrom COMMAND ...`` to the command's module; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command == "--version":
        from hikone_carrom import __version__

        print(__version__)
        return 0
    if command not in COMMANDS:
        print(f"hikone-carrom: unknown command {command!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module = COMMANDS[command][0]
    if command == "serve":
        rest = ["--no-browser", *rest]
    try:
        return _entry(module)(rest)
    except KeyboardInterrupt:
        print(f"hikone-carrom {command}: interrupted", file=sys.stderr)
        return 130
    except OSError as err:  # a file named on the command line cannot be read or written
        where = f" ({err.filename})" if err.filename else ""
        print(f"hikone-carrom {command}: {err.strerror or err}{where}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
