"""Tables of an evaluation's results: solo clear, duels (Wilson 95 % intervals), decision times.

Each table is a header and rows of strings, printed with rich by the command and written as
Markdown for docs/ai.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from hikone_carrom.ai.stats import mean_interval, percentile, summarize, wilson

__all__ = [
    "BUCKETS",
    "PHASES",
    "Table",
    "decision_table",
    "duel_table",
    "markdown",
    "phase_table",
    "solo_table",
]

BUCKETS: tuple[tuple[int, int], ...] = (
    (1, 20),
    (21, 30),
    (31, 40),
    (41, 60),
    (61, 100),
    (101, 199),
)
"""Strike ranges of the solo-clear distribution; games not cleared are counted apart."""

_MORE = 99
"""Upper end of an open phase ("10+"): debt (R5i) can put more than 12 pucks to go."""

PHASES: tuple[tuple[int, int], ...] = (
    (10, _MORE),
    (7, 9),
    (4, 6),
    (3, 3),
    (2, 2),
    (1, 1),
    (0, 0),
)
"""Ranges of own pucks still to pocket before a strike (0: the jack, R6b) in the phase table."""


@dataclass(frozen=True)
class Table:
    """A titled table of strings."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def _f(value: float, digits: int = 1) -> str:
    return "-" if value != value else f"{value:.{digits}f}"


def _tier_order(tier: str) -> float:
    try:
        return float(tier.removesuffix("x"))
    except ValueError:
        return float("inf")


def _solo_results(
    lines: Iterable[Mapping[str, Any]], field: str = "strikes"
) -> list[tuple[str, str, list[Mapping[str, Any]]]]:
    """Solo-clear results that have ``field``, grouped by (tier, player) in table order."""
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for line in lines:
        task, result = line["task"], line["result"]
        if task["kind"] == "solo" and field in result:
            groups[(task["tier"], task["player"])].append(result)
    order = sorted(groups, key=lambda k: (_tier_order(k[0]), k[1]))
    return [(tier, player, groups[(tier, player)]) for tier, player in order]


def solo_table(lines: Iterable[Mapping[str, Any]]) -> Table:
    """Strikes to clear per tier and player: games, cleared, mean and its 95 % confidence
    interval, sd, median, range, buckets."""
    rows = []
    for tier, player, results in _solo_results(lines):
        strikes = [float(r["strikes"]) for r in results]
        s = summarize(strikes)
        lo, hi = mean_interval(strikes)
        cleared = sum(1 for r in results if r["cleared"])
        dist = [
            str(sum(1 for r in results if r["cleared"] and lo <= r["strikes"] <= hi))
            for lo, hi in BUCKETS
        ]
        rows.append(
            (
                tier,
                player,
                str(s.n),
                str(cleared),
                _f(s.mean, 2),
                "-" if lo != lo else f"{lo:.2f}-{hi:.2f}",
                _f(s.sd),
                _f(s.median),
                f"{int(s.low)}-{int(s.high)}",
                *dist,
                str(s.n - cleared),
            )
        )
    header = (
        "tier",
        "player",
        "games",
        "cleared",
        "mean",
        "95 % CI",
        "sd",
        "median",
        "range",
        *(f"{lo}-{hi}" for lo, hi in BUCKETS),
        "not cleared",
    )
    return Table("Solo clear: strikes to win (cap counts as the cap)", header, tuple(rows))


def _phase_name(lo: int, hi: int) -> str:
    if hi == 0:
        return "jack"
    if lo == hi:
        return str(lo)
    return f"{lo}+" if hi == _MORE else f"{lo}-{hi}"


def phase_table(lines: Iterable[Mapping[str, Any]]) -> Table:
    """Where a solo clear's strikes go, per tier and player: strikes a game with so many own
    pucks still to pocket (:data:`PHASES`), each with the share that kept the turn or won
    (R3a, R7a), and penalties a game (R5). Results without per-strike data are left out."""
    rows = []
    for tier, player, results in _solo_results(lines, "togo"):
        n = len(results)
        cells = []
        for lo, hi in PHASES:
            outcomes = [
                k
                for r in results
                for t, k in zip(r["togo"], r["kept"], strict=True)
                if lo <= t <= hi
            ]
            share = f"{100 * sum(outcomes) / len(outcomes):.0f} %" if outcomes else "-"
            cells.append(f"{len(outcomes) / n:.2f} ({share})")
        penalties = sum(r["penalties"] for r in results) / n
        rows.append((tier, player, str(n), *cells, f"{penalties:.2f}"))
    header = ("tier", "player", "games", *(_phase_name(*p) for p in PHASES), "penalties")
    title = (
        "Solo clear: strikes a game by own pucks still to pocket "
        "(share that kept the turn or won; penalties a game)"
    )
    return Table(title, header, tuple(rows))


def duel_table(lines: Iterable[Mapping[str, Any]]) -> Table:
    """Win rate of A against B per tier (draws count half), with Wilson 95 % intervals."""
    groups: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for line in lines:
        task = line["task"]
        if task["kind"] == "duel":
            groups[(task["tier"], task["a"], task["b"])].append(line["result"]["winner"])
    rows = []
    for tier, a, b in sorted(groups, key=lambda k: (_tier_order(k[0]), k[1], k[2])):
        winners = groups[(tier, a, b)]
        n = len(winners)
        wins = winners.count("a")
        draws = winners.count("draw")
        score = wins + 0.5 * draws
        lo, hi = wilson(score, n)
        rows.append(
            (
                tier,
                a,
                b,
                str(n),
                str(wins),
                str(draws),
                str(n - wins - draws),
                f"{100 * score / n:.1f} %",
                f"{100 * lo:.1f}-{100 * hi:.1f} %",
            )
        )
    header = ("tier", "A", "B", "games", "A wins", "draws", "B wins", "A score", "Wilson 95 %")
    return Table("Duels, seats alternated (A's score: wins + draws/2)", header, tuple(rows))


def decision_table(lines: Iterable[Mapping[str, Any]]) -> Table:
    """Decision time per shot (s) per player over every task: count, median, p95, max."""
    times: dict[str, list[float]] = defaultdict(list)
    for line in lines:
        task, result = line["task"], line["result"]
        if task["kind"] == "solo":
            times[task["player"]].extend(result["times"])
        else:
            times[task["a"]].extend(result["times_a"])
            times[task["b"]].extend(result["times_b"])
    rows = []
    for player in sorted(times):
        t = times[player]
        rows.append(
            (
                player,
                str(len(t)),
                _f(percentile(t, 50.0), 4),
                _f(percentile(t, 95.0), 4),
                _f(max(t) if t else float("nan"), 4),
            )
        )
    header = ("player", "decisions", "median s", "p95 s", "max s")
    return Table("Decision time per shot", header, tuple(rows))


def markdown(table: Table) -> str:
    """The table as GitHub Markdown, with its title as a bold line."""
    out = [
        f"**{table.title}**",
        "",
        "| " + " | ".join(table.header) + " |",
        "|" + "|".join("---" for _ in table.header) + "|",
    ]
    out += ["| " + " | ".join(row) + " |" for row in table.rows]
    return "\n".join(out) + "\n"
