"""Angles of many shots at once: ``remainder_of_turns`` is ``math.remainder(a, 2 pi)``, bit for
bit, on the array path and the path of a few angles alike."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hikone_carrom.match.hand import TURN, remainder_of_turns

EDGES = [0.0, -0.0, math.pi, -math.pi, TURN, -TURN, 0.5 * TURN, 1.5 * TURN, -1.5 * TURN, 2.5 * TURN]


def _bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a, dtype=np.float64).tobytes()


def _want(values: np.ndarray) -> np.ndarray:
    return np.array([math.remainder(v, TURN) for v in values.tolist()])


@pytest.mark.parametrize("size", [1, 5, 15, 16, 300])
def test_remainder_of_turns_is_math_remainder_bit_for_bit(size: int) -> None:
    rng = np.random.default_rng(size)
    for scale in (0.5, 3.2, 7.0, 40.0, 1e7):
        a = rng.uniform(-scale, scale, size)
        a[: min(size, len(EDGES))] = EDGES[:size]  # signed zeros and exact half turns (ties)
        assert _bits(remainder_of_turns(a)) == _bits(_want(a))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=40))
def test_remainder_of_turns_agrees_with_math_remainder(values: list[float]) -> None:
    a = np.array(values)
    assert _bits(remainder_of_turns(a)) == _bits(_want(a))


@pytest.mark.parametrize("size", [1, 20])
def test_remainder_of_turns_keeps_nan_and_refuses_infinity_as_math_does(size: int) -> None:
    a = np.zeros(size)
    a[0] = math.nan
    assert math.isnan(remainder_of_turns(a)[0])
    a[0] = math.inf
    with pytest.raises(ValueError, match="math domain error"):
        remainder_of_turns(a)
