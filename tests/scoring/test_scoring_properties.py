"""Property tests: a refereed match told the counts of a physics match rules the same way, and
undo/correction always leave the match as if it had been entered that way from the start."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hikone_carrom.match import Match, Shot
from hikone_carrom.rules import RulesError, Ruling
from hikone_carrom.scoring import MatchSetup, RefereedMatch, SheetLine, Tap, replay_entries


def _comparable(ruling: Ruling) -> dict[str, Any]:
    """The ruling as a dict; pieces off the board as a multiset (a tap counts them by colour)."""
    data = ruling.to_dict()
    data["off_board"] = sorted(data["off_board"])
    return data


actions = st.lists(
    st.one_of(
        st.tuples(
            st.just("shot"),
            st.floats(0.05, 0.95),
            st.floats(-0.6, 0.6),
            st.floats(1.0, 5.0),
        ),
        st.tuples(st.just("skip"), st.just(0.0), st.just(0.0), st.just(0.0)),
        st.tuples(st.just("time"), st.just(0.0), st.just(0.0), st.just(0.0)),
    ),
    min_size=1,
    max_size=14,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 4]), seed=st.integers(0, 2**31), plan=actions)
def test_refereed_and_physics_matches_rule_alike_on_the_same_counts(
    players: int, seed: int, plan: list[tuple[str, float, float, float]]
) -> None:
    names = ("a", "b") if players == 2 else ("a", "b", "c", "d")
    setup = MatchSetup(names, match_time_s=300.0)
    physical = Match(players, setup.options, seed=seed)
    refereed = RefereedMatch(setup)
    for kind, where, aim, speed in plan:
        if physical.is_over or physical.referee.state.awaiting_lot:
            break
        if kind == "shot":
            placement = physical.legal_placement()
            free = placement.free_intervals()
            if not free:
                x, y = placement.point
            else:
                (x0, y0), (x1, y1) = placement.line
                lo, hi = max(free, key=lambda iv: iv[1] - iv[0])
                s = lo + (hi - lo) * (0.1 + 0.8 * where)
                x, y = x0 + (x1 - x0) * s, y0 + (y1 - y0) * s
            play = physical.play(Shot(x, y, math.atan2(-y, -x) + aim, speed))
            ruling = refereed.shot(Tap.of_report(play.report))
            assert _comparable(ruling) == _comparable(play.ruling)
        elif kind == "skip":
            assert refereed.skip_turn() == physical.skip_turn()
        elif not physical.referee.time_called:
            physical.call_time()
            refereed.call_time()
        assert refereed.state == physical.referee.state


taps = st.builds(
    Tap,
    red=st.integers(0, 4),
    green=st.integers(0, 4),
    jack=st.booleans(),
    red_off=st.integers(0, 1),
    green_off=st.integers(0, 1),
    striker_pocketed=st.booleans(),
    touched_striker=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(
    taps=st.lists(taps, min_size=2, max_size=25),
    at=st.integers(0, 24),
    replacement=taps,
)
def test_correction_equals_entering_it_that_way_and_a_refusal_changes_nothing(
    taps: list[Tap], at: int, replacement: Tap
) -> None:
    m = RefereedMatch(MatchSetup(("a", "b"), None))
    for tap in taps:
        try:
            m.shot(tap)
        except RulesError:
            continue
    if not m.entries:
        return
    n = at % len(m.entries) + 1
    before = m.steps
    wanted = [*m.entries[: n - 1], SheetLine.shot(replacement), *m.entries[n:]]
    try:
        expected = replay_entries(m.setup, wanted)
    except RulesError:
        expected = None
    try:
        m.correct(n, SheetLine.shot(replacement))
    except RulesError:
        assert expected is None and m.steps == before
    else:
        assert expected is not None and list(m.steps) == expected
        undone = len(m.entries) - n + 1
        m.undo(undone)
        assert list(m.steps) == expected[: n - 1]
