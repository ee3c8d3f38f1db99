"""Timed matches through the match clock: time is called when it runs out (R7b) and a shot not
taken within 10 s in the last minute is lost (R8a)."""

from __future__ import annotations

import math

from hikone_carrom import ai
from hikone_carrom.match import ActionKind, Match, Shot
from hikone_carrom.rules import RuleOptions
from hikone_carrom.simulate import VirtualTime, run_match


class FakeTime:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _timed(now: FakeTime, players: int = 2) -> Match:
    return Match(players, RuleOptions(match_time_s=300.0), seed=1, now=now)


def test_R8a_ten_seconds_in_the_last_minute_then_the_shot_is_lost() -> None:
    now = FakeTime()
    m = _timed(now)
    assert m.tick() == []  # starts the clock
    now.t += 200.0  # 200 s used: not yet the last minute
    assert m.tick() == [] and m.state.clock is not None
    assert not m.state.clock.ten_second_rule
    now.t += 45.0  # 245 s: the last minute has begun, the turn gets 10 s from 240 s
    assert m.state.clock.ten_second_rule
    assert m.state.clock.shot_remaining == 5.0
    now.t += 5.0
    assert m.tick() == ["skip"]
    assert m.shooter == 1 and m.actions[-1].ruling is not None and m.actions[-1].ruling.skipped
    now.t += 9.0
    assert m.tick() == []
    x, y = m.legal_placement().point
    m.play(Shot(x, y, -math.pi / 2, 2.0))  # a shot in time resets the 10 s for the next one
    assert m.state.clock.shot_remaining == 10.0


def test_R7b_time_called_when_the_clock_runs_out() -> None:
    now = FakeTime()
    m = _timed(now)
    m.start_clock()
    now.t += 301.0
    done = m.tick()
    assert done[0] == "call_time"
    assert m.referee.state.time_called


def test_untimed_match_has_no_clock() -> None:
    m = Match()
    assert m.clock is None and m.tick() == [] and m.state.clock is None


def test_R8a_the_ten_seconds_start_when_the_pieces_come_to_rest() -> None:
    now = FakeTime()
    m = Match(2, RuleOptions(match_time_s=60.0), seed=1, now=now)  # the rule applies throughout
    m.start_clock()
    now.t += 3.0
    x, y = m.legal_placement().point
    result = m.play(Shot(x, y, math.pi / 2, 3.0)).result
    assert result.duration > 0.5
    assert m.state.clock is not None and m.state.clock.shot_remaining == 10.0
    now.t += result.duration + 9.9  # the pieces rested 9.9 s ago
    assert m.tick() == []
    now.t += 0.2
    assert m.tick() == ["skip"]


def test_R7b_R8a_simulated_time_calls_never_cost_a_shot() -> None:
    """A computer player sets up in 5 s, under the 10 s of R8a: when time is called the player
    on turn still shoots; the shot is not lost at the time call."""
    calls = 0
    for seed in range(12):
        vt = VirtualTime()
        m = Match(2, RuleOptions(match_time_s=30.0), seed=seed, now=vt)
        bots = [ai.make_player("random", seed=seed), ai.make_player("aim", seed=seed + 1)]
        run_match(m, bots, clock_time=vt)
        kinds = [a.kind for a in m.actions]
        assert ActionKind.SKIP not in kinds, seed
        if ActionKind.CALL_TIME in kinds:
            calls += 1
            after = kinds[kinds.index(ActionKind.CALL_TIME) + 1 :]
            assert after and after[0] == ActionKind.SHOT
    assert calls >= 10
