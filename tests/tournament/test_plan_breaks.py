"""The plan's settings: the ceremony and lunch kept free, the changeover, the finals' start, a
re-plan after an overrun, and events stored before these settings existed."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hikone_carrom.tournament import (
    Job,
    Slot,
    Tournament,
    TournamentError,
    TournamentSettings,
    plan_boards,
    replan,
    reslot,
)
from hikone_carrom.tournament.breaks import overlaps

from .helpers import general_event
from .test_boardplan import check_plan, job_sets

LUNCH = (12 * 3600, 12 * 3600 + 45 * 60)
CEREMONY = (9 * 3600, 9 * 3600 + 30 * 60)


def _planned_event(entries: int = 30, boards: int = 4, **changes: int | None) -> Tournament:
    event = general_event(entries, boards=boards)
    event.settings = replace(event.settings, **changes)  # type: ignore[arg-type]
    event.draw("GS")
    event.make_plan()
    return event


def test_the_defaults_fit_a_real_hall() -> None:
    s = TournamentSettings("大会")
    assert (s.start_s, s.changeover_s) == (9 * 3600 + 30 * 60, 180)
    assert s.breaks() == (CEREMONY, LUNCH)
    assert s.finals_start_s is None


def test_no_match_is_planned_across_lunch_and_the_changeover_holds() -> None:
    event = _planned_event(36, boards=3)
    plan = event.plan
    assert plan is not None and plan.breaks == (CEREMONY, LUNCH)
    assert not [s for s in plan.slots if overlaps(plan.breaks, s.start_s, s.end_s)]
    assert any(s.start_s == LUNCH[1] for s in plan.slots)  # play resumes when lunch ends
    assert any(s.end_s <= LUNCH[0] for s in plan.slots)
    check_plan(plan, event.jobs(), 180)


def test_no_match_is_planned_across_the_ceremony() -> None:
    event = _planned_event(12, start_s=8 * 3600 + 50 * 60)
    assert event.plan is not None
    starts = sorted({s.start_s for s in event.plan.slots})
    assert starts[:2] == [8 * 3600 + 50 * 60, CEREMONY[1]]  # 8:50-8:55, then 9:30
    assert not [s for s in event.plan.slots if overlaps([CEREMONY], s.start_s, s.end_s)]


def test_the_final_waits_for_the_last_pool_match_or_its_set_start() -> None:
    event = _planned_event(24)
    assert event.plan is not None
    at = event.plan.by_match()
    last_pool = max(
        s.end_s for m, s in at.items() if "-K" not in m and not m.endswith(("-F", "-3rd"))
    )
    assert at["GS-F"].start_s >= last_pool + 180
    fixed = _planned_event(24, finals_start_s=15 * 3600)
    assert fixed.plan is not None
    assert fixed.plan.by_match()["GS-F"].start_s == 15 * 3600


def test_a_replan_after_an_overrun_keeps_lunch_free() -> None:
    event = _planned_event(36, boards=3)
    plan = event.plan
    assert plan is not None
    before_lunch = [s for s in plan.slots if s.end_s <= LUNCH[0]]
    last_wave = max(s.start_s for s in before_lunch)
    late = next(s for s in plan.slots if s.end_s == last_wave - 180)  # the wave before the last
    now = late.end_s + 40  # it overran: still playing
    finished = {s.match: s for s in plan.slots if s.end_s <= now and s.match != late.match}
    new = event.replan(now, finished=finished, running={late.match: late})
    assert new.by_match()[late.match].end_s == now + 120
    pending = [s for s in new.slots if s.match not in finished and s.match != late.match]
    assert pending and all(s.start_s >= now for s in pending)
    assert not [s for s in pending if overlaps(new.breaks, s.start_s, s.end_s)]
    after_late = [s for s in pending if s.board == late.board]
    assert min(s.start_s for s in after_late) == LUNCH[1]  # no room before lunch any more


def test_a_changed_lunch_is_kept_by_the_next_replan() -> None:
    event = _planned_event(36, boards=3)
    event.settings = replace(event.settings, lunch_start_s=11 * 3600, lunch_length_s=3600)
    new = event.replan(10 * 3600, finished={}, running={})
    assert new.breaks == (CEREMONY, (11 * 3600, 12 * 3600))
    assert not [s for s in new.slots if overlaps(new.breaks, s.start_s, s.end_s)]


def test_refused_settings() -> None:
    for bad, code in (
        ({"lunch_length_s": 5 * 3600}, "bad_break"),
        ({"ceremony_start_s": -1}, "bad_break"),
        ({"lunch_start_s": 23 * 3600 + 3000, "lunch_length_s": 3600}, "bad_break"),
        ({"finals_start_s": 24 * 3600}, "bad_finals_start"),
    ):
        with pytest.raises(TournamentError) as err:
            TournamentSettings("大会", **bad)  # type: ignore[arg-type]
        assert err.value.code == code


def test_an_event_stored_before_the_breaks_loads_with_the_defaults() -> None:
    event = _planned_event(12)
    data = event.to_dict()
    for key in ("ceremony_start_s", "ceremony_length_s", "lunch_start_s", "lunch_length_s"):
        del data["settings"][key]
    del data["settings"]["finals_start_s"]
    del data["plan"]["breaks"]
    data["settings"]["changeover_s"] = 60
    back = Tournament.from_dict(data)
    assert back.settings.breaks() == (CEREMONY, LUNCH) and back.settings.changeover_s == 60
    assert back.plan is not None and event.plan is not None
    assert back.plan.breaks == () and back.plan.slots == event.plan.slots
    again = Tournament.from_dict(event.to_dict())
    assert again.settings == event.settings and again.plan == event.plan


breaks_strategy = st.lists(
    st.tuples(st.integers(34200, 34200 + 4 * 3600), st.integers(0, 3600)), max_size=3
).map(lambda spans: sorted((a, a + n) for a, n in spans if n > 0))


@settings(max_examples=120, deadline=None)
@given(job_sets(), st.integers(1, 6), st.integers(0, 240), breaks_strategy, st.data())
def test_no_planned_match_overlaps_a_break_or_another_on_its_board(
    jobs: list[Job],
    boards: int,
    changeover: int,
    breaks: list[tuple[int, int]],
    data: st.DataObject,
) -> None:
    plan = plan_boards(jobs, boards, 34200, changeover_s=changeover, breaks=breaks)
    check_plan(plan, jobs, changeover)
    assert not [s for s in plan.slots if overlaps(breaks, s.start_s, s.end_s)]
    now = data.draw(st.integers(34200, 34200 + 3 * 3600))
    finished = {s.match: s for s in plan.slots if s.end_s <= now}
    running = {s.match: s for s in plan.slots if s.start_s <= now < s.end_s}
    again = replan(jobs, plan, now, finished=finished, running=running)
    check_plan(again, jobs, changeover)
    kept = finished | running
    assert not [
        s for s in again.slots if s.match not in kept and overlaps(breaks, s.start_s, s.end_s)
    ]
    moving = data.draw(st.lists(st.sampled_from([j.id for j in jobs]), max_size=4))
    moved = reslot(jobs, plan, moving, now)
    check_plan(moved, jobs, changeover)
    assert not [s for s in moved.slots if overlaps(breaks, s.start_s, s.end_s)]


def test_reslot_keeps_a_job_held_until_its_time() -> None:
    jobs = [Job("a", frozenset({"x"}), 300), Job("f", frozenset({"y"}), 300, not_before_s=5000)]
    plan = plan_boards(jobs, 2, 0, changeover_s=0)
    assert plan.by_match()["f"].start_s == 5000
    moved = reslot(jobs, plan, ["f"], 0)
    assert moved.by_match()["f"] == Slot(5000, moved.by_match()["f"].board, "f", 5300)
