"""A player against a reference, from an evaluation's results (``ai-eval --compare A:B``).

Two measures, each against its target (a cheaper player against the expert it should match):

- solo clear: A's and B's strikes on the seeds both played (same tier), the ratio of their
  means and its paired bootstrap 95 % interval (the seeds resampled together, seeded, so the
  interval is the same every time it is printed); target: the ratio within 1 +- 5 %;
- duels between A and B: A's score (wins + draws/2) over the games, either seat order, with its
  Wilson 95 % interval; target: at least 45 %.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from hikone_carrom.ai.eval_tables import Table
from hikone_carrom.ai.stats import wilson

__all__ = [
    "BOOTSTRAP",
    "DUEL_TARGET",
    "SOLO_MARGIN",
    "compare_table",
    "duel_score",
    "paired_ratio",
]

SOLO_MARGIN = 0.05
"""A's mean strikes may differ from B's by this share (5 %)."""
DUEL_TARGET = 0.45
"""A's least score against B in duels."""
BOOTSTRAP = 10_000
"""Resamples of the paired bootstrap."""


def paired_ratio(a: list[float], b: list[float], seed: int = 0) -> tuple[float, float, float]:
    """mean(a) / mean(b) over paired values and its paired bootstrap 95 % interval."""
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if not len(x) or y.sum() == 0.0:
        return math.nan, math.nan, math.nan
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(x), size=(BOOTSTRAP, len(x)))
    ratios = x[picks].sum(axis=1) / np.maximum(y[picks].sum(axis=1), 1e-12)
    lo, hi = np.percentile(ratios, [2.5, 97.5])
    return float(x.sum() / y.sum()), float(lo), float(hi)


def duel_score(lines: Iterable[Mapping[str, Any]], a: str, b: str, tier: str) -> tuple[float, int]:
    """A's score (wins + draws/2) and the games of the duels between A and B at ``tier``."""
    score, n = 0.0, 0
    for line in lines:
        task, result = line["task"], line["result"]
        if task["kind"] != "duel" or task["tier"] != tier or {task["a"], task["b"]} != {a, b}:
            continue
        winner = result["winner"]
        n += 1
        if winner == "draw":
            score += 0.5
        elif (winner == "a") == (task["a"] == a):
            score += 1.0
    return score, n


def compare_table(lines: Iterable[Mapping[str, Any]], a: str, b: str) -> Table:
    """A against B per tier: the solo clear's ratio and the duels' score, with the targets."""
    lines = list(lines)
    solo: dict[tuple[str, str], dict[int, float]] = {}
    tiers: set[str] = set()
    for line in lines:
        task = line["task"]
        tiers.add(task["tier"])
        if task["kind"] == "solo" and task["player"] in (a, b):
            solo.setdefault((task["tier"], task["player"]), {})[task["seed"]] = float(
                line["result"]["strikes"]
            )
    rows = []
    for tier in sorted(tiers):
        mine, theirs = solo.get((tier, a), {}), solo.get((tier, b), {})
        seeds = sorted(set(mine) & set(theirs))
        if seeds:
            x, y = [mine[s] for s in seeds], [theirs[s] for s in seeds]
            ratio, lo, hi = paired_ratio(x, y)
            ok = 1.0 - SOLO_MARGIN <= ratio <= 1.0 + SOLO_MARGIN
            rows.append(
                (
                    tier,
                    "solo clear: mean strikes A / B",
                    str(len(seeds)),
                    f"{np.mean(x):.2f} / {np.mean(y):.2f} = {ratio:.3f}",
                    f"{lo:.3f}-{hi:.3f} (paired bootstrap)",
                    f"{1 - SOLO_MARGIN:.2f}-{1 + SOLO_MARGIN:.2f}",
                    "yes" if ok else "no",
                )
            )
        score, n = duel_score(lines, a, b, tier)
        if n:
            w_lo, w_hi = wilson(score, n)
            rows.append(
                (
                    tier,
                    "duels: A's score (wins + draws/2)",
                    str(n),
                    f"{score:g} = {100 * score / n:.1f} %",
                    f"{100 * w_lo:.1f}-{100 * w_hi:.1f} % (Wilson)",
                    f">= {100 * DUEL_TARGET:.0f} %",
                    "yes" if score / n >= DUEL_TARGET else "no",
                )
            )
    header = ("tier", "measure", "games", "A", "95 % interval", "target", "met")
    return Table(f"{a} (A) against {b} (B)", header, tuple(rows))
