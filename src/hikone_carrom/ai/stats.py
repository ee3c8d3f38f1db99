"""Small statistics for the evaluation: summaries, percentiles and Wilson score intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Summary", "mean_interval", "percentile", "summarize", "wilson"]

_Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True)
class Summary:
    """n, mean, sample standard deviation, median, min and max of some numbers."""

    n: int
    mean: float
    sd: float
    median: float
    low: float
    high: float


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) with linear interpolation; nan for no values."""
    if not values:
        return math.nan
    data = sorted(values)
    pos = (len(data) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def summarize(values: Sequence[float]) -> Summary:
    """Summary of ``values`` (nan fields when empty; sd 0 for one value)."""
    n = len(values)
    if n == 0:
        return Summary(0, math.nan, math.nan, math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return Summary(n, mean, math.sqrt(var), percentile(values, 50.0), min(values), max(values))


def mean_interval(values: Sequence[float], z: float = _Z95) -> tuple[float, float]:
    """Confidence interval (default 95 %) of the mean of ``values`` by the normal approximation:
    mean +- z sd / sqrt(n) (nan for fewer than two values)."""
    s = summarize(values)
    if s.n < 2:
        return (math.nan, math.nan)
    half = z * s.sd / math.sqrt(s.n)
    return (s.mean - half, s.mean + half)


def wilson(successes: float, n: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval (default 95 %) for ``successes`` out of ``n`` (draws may count 0.5).

    Raises:
        ValueError: n < 0 or successes outside [0, n].
    """
    if n < 0 or not 0.0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))
