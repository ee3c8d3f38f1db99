"""The board plan: no player twice at once, no board twice at once, busy boards, re-planning."""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hikone_carrom.tournament import (
    BoardPlan,
    Job,
    Slot,
    TournamentError,
    clashes,
    plan_boards,
    replan,
    reslot,
)


def check_plan(plan: BoardPlan, jobs: list[Job], changeover: int) -> None:
    """The invariants every plan keeps."""
    at = plan.by_match()
    assert set(at) == {j.id for j in jobs}
    by_board: dict[int, list[Slot]] = defaultdict(list)
    by_person: dict[str, list[Slot]] = defaultdict(list)
    for job in jobs:
        slot = at[job.id]
        assert slot.end_s - slot.start_s == job.duration_s
        by_board[slot.board].append(slot)
        for person in job.people:
            by_person[person].append(slot)
        for dep in job.after:
            assert at[dep].end_s + changeover <= slot.start_s
    for slots in by_board.values():  # no board holds two matches at once
        slots.sort()
        for a, b in pairwise(slots):
            assert a.end_s + changeover <= b.start_s
    for slots in by_person.values():  # nobody is on two boards at once
        slots.sort()
        for a, b in pairwise(slots):
            assert a.end_s + changeover <= b.start_s


@st.composite
def job_sets(draw: st.DrawFn) -> list[Job]:
    people = [f"p{i}" for i in range(draw(st.integers(2, 20)))]
    jobs = []
    for i in range(draw(st.integers(1, 40))):
        who = draw(st.lists(st.sampled_from(people), min_size=2, max_size=4, unique=True))
        after: tuple[str, ...] = ()
        if jobs and draw(st.booleans()):
            earlier = st.sampled_from([j.id for j in jobs])
            after = tuple(draw(st.lists(earlier, max_size=2, unique=True)))
        duration = draw(st.sampled_from([300, 360, 900]))
        priority = (draw(st.integers(0, 3)),)
        jobs.append(Job(f"m{i:02d}", frozenset(who), duration, after, priority=priority))
    return jobs


@settings(max_examples=120, deadline=None)
@given(job_sets(), st.integers(1, 6), st.integers(0, 120))
def test_nobody_twice_at_once_and_no_board_twice_at_once(
    jobs: list[Job], boards: int, changeover: int
) -> None:
    plan = plan_boards(jobs, boards, 34200, changeover_s=changeover)
    check_plan(plan, jobs, changeover)
    assert all(1 <= s.board <= boards and s.start_s >= 34200 for s in plan.slots)


@settings(max_examples=80, deadline=None)
@given(job_sets(), st.integers(1, 6), st.integers(0, 6000), st.data())
def test_replanning_never_moves_a_finished_or_running_match(
    jobs: list[Job], boards: int, elapsed: int, data: st.DataObject
) -> None:
    plan = plan_boards(jobs, boards, 34200, changeover_s=60)
    now = 34200 + elapsed
    finished = {s.match: s for s in plan.slots if s.end_s <= now}
    running = {s.match: s for s in plan.slots if s.start_s <= now < s.end_s}
    broken = frozenset(data.draw(st.lists(st.integers(1, boards), max_size=boards - 1)))
    again = replan(jobs, plan, now, finished=finished, running=running, out_of_service=broken)
    at = again.by_match()
    for match, slot in {**finished, **running}.items():
        assert (at[match].board, at[match].start_s) == (slot.board, slot.start_s)
    for slot in again.slots:
        if slot.match not in finished and slot.match not in running:
            assert slot.start_s >= now and slot.board not in broken
    check_plan(again, jobs, 60)


def test_a_running_match_that_overran_gets_more_time() -> None:
    jobs = [Job("a", frozenset({"x", "y"}), 300), Job("b", frozenset({"x", "z"}), 300)]
    plan = plan_boards(jobs, 1, 0, changeover_s=0)
    assert [s.match for s in plan.slots] == ["a", "b"]
    now = 400  # "a" should have ended at 300
    again = replan(jobs, plan, now, finished={}, running={"a": plan.slots[0]}, overrun_s=120)
    assert again.slot("a") == Slot(0, 1, "a", 520)
    b = again.slot("b")
    assert b is not None and b.start_s == 520


def test_boards_are_kept_busy() -> None:
    jobs = [Job(f"m{i}", frozenset({f"p{2 * i}", f"p{2 * i + 1}"}), 300) for i in range(8)]
    plan = plan_boards(jobs, 4, 0, changeover_s=60)
    assert sorted({s.start_s for s in plan.slots}) == [0, 360]  # two full waves on 4 boards


def test_a_final_is_pinned_to_the_golden_board() -> None:
    jobs = [
        Job("semi", frozenset({"a", "b"}), 300),
        Job("final", frozenset({"a", "c"}), 900, ("semi",), board=3),
    ]
    plan = plan_boards(jobs, 4, 0)
    final = plan.slot("final")
    assert final is not None and final.board == 3
    broken = plan_boards(jobs, 4, 0, out_of_service=frozenset({3}))
    moved = broken.slot("final")
    assert moved is not None and moved.board != 3


def test_a_match_waiting_on_an_unknown_one_is_refused() -> None:
    with pytest.raises(TournamentError) as err:
        plan_boards([Job("x", frozenset(), 300, ("nope",))], 2, 0)
    assert err.value.code == "unknown_feed"


def test_a_full_championship_plan_keeps_every_invariant() -> None:
    from hikone_carrom.bench.tournament import simulated_championship

    event = simulated_championship(seed=3, scale=0.25)
    for division in event.divisions:
        event.draw(division)
    plan = event.make_plan()
    jobs = event.jobs()
    check_plan(plan, jobs, event.settings.changeover_s)
    stats = plan.stats(jobs)
    assert 0 < stats.utilisation <= 1 and stats.end_s > plan.start_s


@settings(max_examples=100, deadline=None)
@given(job_sets(), st.integers(1, 6), st.integers(0, 3000), st.data())
def test_reslotting_moves_only_the_matches_asked_and_those_after_them(
    jobs: list[Job], boards: int, elapsed: int, data: st.DataObject
) -> None:
    plan = plan_boards(jobs, boards, 34200, changeover_s=60)
    now = 34200 + elapsed
    moving = set(data.draw(st.lists(st.sampled_from([j.id for j in jobs]), max_size=5)))
    again = reslot(jobs, plan, moving, now)
    check_plan(again, jobs, 60)
    waits_on_moving = set(moving)
    for job in jobs:  # jobs come after their feeds in the list
        if any(a in waits_on_moving for a in job.after):
            waits_on_moving.add(job.id)
    before, after = plan.by_match(), again.by_match()
    for match, slot in before.items():
        if match not in waits_on_moving:
            assert after[match] == slot  # nobody else's slot moves
        else:
            assert after[match].start_s >= now


def test_a_match_whose_players_became_known_is_moved_off_a_clash() -> None:
    # the knockout match "ko" was planned before its players were known (no people)
    unknown = [
        Job("pool1", frozenset({"child", "mother"}), 300, priority=(0,)),
        Job("pool2", frozenset({"a", "b"}), 300, priority=(0,)),
        Job("ko", frozenset(), 300, ("pool2",), priority=(1,)),
        Job("pool3", frozenset({"child", "mother"}), 300, priority=(2,)),
    ]
    plan = plan_boards(unknown, 2, 0, changeover_s=60)
    ko, pool3 = plan.slot("ko"), plan.slot("pool3")
    assert ko is not None and pool3 is not None and ko.start_s == pool3.start_s
    known = [*unknown[:2], Job("ko", frozenset({"child", "a"}), 300, ("pool2",), priority=(1,)),
             unknown[3]]  # fmt: skip
    assert clashes(plan, known) == {"ko", "pool3"}
    fixed = reslot(known, plan, {"ko"}, 0)
    assert clashes(fixed, known) == set()
    assert fixed.slot("pool3") == pool3
    moved = fixed.slot("ko")
    assert moved is not None and moved.start_s >= pool3.end_s + 60


def test_a_feed_planned_to_end_after_its_match_starts_is_a_clash() -> None:
    plan = BoardPlan(2, 0, 60, (Slot(0, 1, "a", 300), Slot(200, 2, "b", 500)))
    jobs = [Job("a", frozenset({"x"}), 300), Job("b", frozenset({"y"}), 300, ("a",))]
    assert clashes(plan, jobs) == {"b"}
