"""Whole computer-vs-computer matches reach an end allowed by R7, with every piece accounted for."""

from __future__ import annotations

import pytest
from match_helpers import accounted

from hikone_carrom import ai
from hikone_carrom.match import Match
from hikone_carrom.records import replay, to_record
from hikone_carrom.rules import RuleOptions
from hikone_carrom.simulate import VirtualTime, run_match


@pytest.mark.parametrize(
    ("players", "bots", "time_limit", "seed"),
    [
        (2, ("greedy", "random"), None, 1),
        (2, ("random", "greedy"), 240.0, 2),
        (4, ("greedy", "random", "greedy", "random"), None, 3),
        (4, ("random", "random", "random", "random"), 150.0, 4),
    ],
)
def test_match_reaches_an_R7_end_with_everythingaccounted(
    players: int, bots: tuple[str, ...], time_limit: float | None, seed: int
) -> None:
    vt = VirtualTime()
    m = Match(players, RuleOptions(match_time_s=time_limit), seed=seed, now=vt)
    seats = [ai.make_player(b, seed=seed * 10 + i) for i, b in enumerate(bots)]
    run_match(m, seats, clock_time=vt, max_actions=1500, on_action=accounted)
    assert m.is_over and m.outcome is not None
    if time_limit is None:
        # Untimed: only a jack pocketed after all twelve pucks ends the game (R7a, R6b).
        assert m.outcome.reason == "R7a"
        assert m.outcome.winner is not None and m.referee.pocketed(m.outcome.winner) == 12
    else:
        assert m.outcome.reason in ("R7a", "R7b", "R7c", "R7d")
        if m.outcome.reason != "R7a":
            assert m.referee.state.time_called
    # The record of the whole match replays to the same end.
    again = replay(to_record(m))
    assert again.outcome == m.outcome and again.referee.state == m.referee.state
