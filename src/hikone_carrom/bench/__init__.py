"""Benchmarks (``hikone-carrom bench ...``): figures printed, never asserted."""

__all__: list[str] = []
