"""MatchClock with a fake time source: match time (R7b, R7e) and the 10-second rule (R8a)."""

from __future__ import annotations

import pytest

from hikone_carrom.rules import ClockError, MatchClock, RuleOptions


class FakeTime:
    """A hand-driven monotonic clock, s."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_R7b_time_up_after_the_limit_pauses_excluded() -> None:
    now = FakeTime()
    clock = MatchClock(300.0, now)
    with pytest.raises(ClockError):
        clock.remaining()
    clock.start()
    now.t += 100.0
    assert clock.remaining() == 200.0 and not clock.time_up
    clock.pause()
    now.t += 500.0
    assert clock.remaining() == 200.0 and not clock.time_up
    clock.resume()
    now.t += 199.0
    assert not clock.time_up
    now.t += 1.0
    assert clock.time_up and clock.remaining() == 0.0


def test_R8a_ten_second_rule_in_the_last_minute_only() -> None:
    now = FakeTime()
    clock = MatchClock(300.0, now)
    clock.start()
    clock.turn_started()
    now.t += 239.0
    assert not clock.ten_second_rule_active and clock.turn_deadline() is None
    assert not clock.turn_expired
    now.t += 1.0  # 240 s: one minute left
    assert clock.ten_second_rule_active
    # the turn began before the rule: its 10 s run from the rule's start
    assert clock.turn_deadline() == 250.0 and clock.turn_remaining() == 10.0
    now.t += 10.0
    assert clock.turn_expired


def test_R8a_every_shot_a_continuation_too_gets_its_own_ten_seconds() -> None:
    now = FakeTime()
    clock = MatchClock(60.0, now)
    clock.start()
    clock.turn_started()
    now.t += 8.0
    clock.turn_started(continuation=True)
    now.t += 9.0
    assert not clock.turn_expired and clock.turn_deadline() == 18.0
    now.t += 1.0
    assert clock.turn_expired


def test_R8a_option_continuation_keeps_the_turns_deadline() -> None:
    now = FakeTime()
    clock = MatchClock.from_options(RuleOptions(match_time_s=60.0, shot_clock_each_shot=False), now)
    clock.start()
    clock.turn_started()
    now.t += 8.0
    clock.turn_started(continuation=True)
    assert clock.turn_deadline() == 10.0
    now.t += 2.0
    assert clock.turn_expired


def test_R8a_rule_still_applies_while_the_round_is_finished_after_time() -> None:
    now = FakeTime()
    clock = MatchClock(60.0, now)
    clock.start()
    now.t += 65.0
    clock.turn_started()
    assert clock.time_up and clock.ten_second_rule_active
    assert clock.turn_deadline() == 75.0


def test_clock_rejects_bad_use() -> None:
    now = FakeTime()
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ClockError):
            MatchClock(bad, now)
    with pytest.raises(ClockError):
        MatchClock.from_options(RuleOptions(), now)
    clock = MatchClock(10.0, now)
    with pytest.raises(ClockError):
        clock.pause()
    with pytest.raises(ClockError):
        clock.resume()
    clock.start()
    with pytest.raises(ClockError):
        clock.start()
    clock.pause()
    with pytest.raises(ClockError):
        clock.pause()
    assert clock.paused and clock.started


def test_R8a_the_ten_seconds_start_when_the_turn_reaches_the_player() -> None:
    """``turn_started(after=d)``: the last shot's pieces rest d seconds from now; the 10 s of
    R8a count from then, and the time left never shows more than 10 s."""
    now = FakeTime()
    clock = MatchClock(60.0, now)  # the rule applies from the start
    clock.start()
    clock.turn_started(after=2.5)
    assert clock.turn_remaining() == 10.0
    now.t += 12.4
    assert not clock.turn_expired and clock.turn_remaining() == pytest.approx(0.1)
    now.t += 0.1
    assert clock.turn_expired
    with pytest.raises(ClockError):
        clock.turn_started(after=-1.0)
