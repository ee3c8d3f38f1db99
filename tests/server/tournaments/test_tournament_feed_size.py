"""What a championship day costs the people watching it, in bytes: the simulated 124-board event
played at real pace (bench/live_pace.py) sends a spectator's page at most 0.5 kB a second as its
socket sends it (``?z=1`` frames, which every page asks for), whatever it shows, and the
director's console a few kB per change, never the whole event."""

from __future__ import annotations

from hikone_carrom.bench.live_pace import run_pace

TARGET = 500.0
"""Bytes a second a spectator's page may cost (issue 47, 1.3)."""


def test_a_spectator_costs_at_most_half_a_kilobyte_a_second_on_124_boards() -> None:
    pace = run_pace(seconds=1800.0)
    assert pace.boards == 124 and pace.results > 300  # every board played all along
    for name in ("boards", "pools", "find"):
        assert pace.frames_per_second(name) <= TARGET, (name, pace.frames_per_second(name))
    assert pace.pages["pools"].bytes.get("live", 0) == 0  # the pools show no live score
    _, most = pace.console_update()
    assert most * 100 < pace.full_view  # the console gets what changed, not the whole event
