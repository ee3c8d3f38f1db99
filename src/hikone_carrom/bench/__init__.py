"""Benchmarks (``hikone-carrom bench ...``): figures printed, never asserted.

One module per sub-command, named after it (``tournament-live`` is :mod:`.tournament_live`);
:data:`BENCHES` is the one list of them. Helpers: :mod:`.server_load` (the load of
``bench server --rooms``), :mod:`.throwaway` (throwaway PostgreSQL, Redis and game servers for
tests and benchmarks), :mod:`.positions`, :mod:`.scenes`, :mod:`.pymunk_ref` (the physics
benchmark's inputs and peer).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

__all__ = ["BENCHES", "main"]

BENCHES: dict[str, tuple[str, str]] = {
    "physics": ("hikone_carrom.bench.physics", "the engine on real match positions, vs pymunk"),
    "server": ("hikone_carrom.bench.server", "the browser game's server on loopback"),
    "analysis": ("hikone_carrom.bench.analysis", "the post-game analysis of a game"),
    "tournament": ("hikone_carrom.bench.tournament", "plan a full-size championship's day"),
    "autocall": ("hikone_carrom.bench.autocall", "a championship's day by automatic mode alone"),
    "tournament-live": (
        "hikone_carrom.bench.tournament_live",
        "a championship's live updates to many spectators",
    ),
    "championship-day": (
        "hikone_carrom.bench.championship_day",
        "a compressed championship day: 124 pads, spectators, a Wi-Fi drop, kill -9",
    ),
    "flood": (
        "hikone_carrom.bench.flood",
        "health and shot latency while one client floods each socket kind",
    ),
    "env": ("hikone_carrom.bench.env", "RL environment steps per second"),
    "ai": ("hikone_carrom.bench.ai", "the computer players' decision time on one core"),
}
"""Sub-command -> (module with ``main(argv) -> int``, what it measures)."""


def _usage() -> str:
    return f"usage: hikone-carrom bench {{{','.join(BENCHES)}}} [options]"


def main(argv: Sequence[str] | None = None) -> int:
    """Route ``hikone-carrom bench NAME ...`` to the benchmark's module; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help"):
        lines = [_usage(), "", "benchmarks:"]
        lines += [f"  {name:<16} {help_}" for name, (_, help_) in BENCHES.items()]
        lines += ["", "Run 'hikone-carrom bench NAME --help' for a benchmark's options."]
        print("\n".join(lines))
        return 0
    if not args or args[0] not in BENCHES:
        print(_usage(), file=sys.stderr)
        return 2
    entry: Callable[[list[str] | None], int] = importlib.import_module(BENCHES[args[0]][0]).main
    return entry(args[1:])
