"""``hikone-carrom bench tournament``: plan the whole day of a full-size championship.

The event (:func:`simulated_championship`): 800 entrants in the six classes of the Japan
Championship (singles junior A 110, junior B 110, general 300; pairs junior 40, family 60,
general 60, with 40 children playing both singles and family pairs), 60 clubs, 124 boards,
5-minute matches with a one-minute changeover and untimed finals on the golden board. The
benchmark times the draw, the board plan for the whole day and a re-plan at 11:00 with three
boards broken and the running matches overrunning. Figures only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from hikone_carrom.tournament import (
    Entry,
    Person,
    Result,
    Slot,
    Tournament,
    TournamentSettings,
    championship_divisions,
)

__all__ = ["main", "simulated_championship"]

PLAN_TARGET_S = 5.0
"""The time planning the whole day should stay within, s (docs/performance.md)."""

_SURNAMES = (
    ("山田", "やまだ"), ("佐藤", "さとう"), ("鈴木", "すずき"), ("高橋", "たかはし"),
    ("田中", "たなか"), ("伊藤", "いとう"), ("渡辺", "わたなべ"), ("中村", "なかむら"),
    ("小林", "こばやし"), ("加藤", "かとう"), ("吉田", "よしだ"), ("井上", "いのうえ"),
    ("木村", "きむら"), ("林", "はやし"), ("清水", "しみず"), ("森", "もり"),
    ("池田", "いけだ"), ("橋本", "はしもと"), ("石川", "いしかわ"), ("前田", "まえだ"),
)  # fmt: skip
_GIVEN = (
    ("太郎", "たろう"), ("花子", "はなこ"), ("翔", "しょう"), ("陽菜", "ひな"),
    ("大輝", "だいき"), ("結衣", "ゆい"), ("蓮", "れん"), ("葵", "あおい"),
    ("悠真", "ゆうま"), ("美咲", "みさき"), ("健", "けん"), ("さくら", "さくら"),
    ("拓海", "たくみ"), ("彩", "あや"), ("湊", "みなと"), ("凛", "りん"),
)  # fmt: skip
_PREFECTURES = ("滋賀県", "京都府", "大阪府", "岐阜県", "愛知県", "福井県", "三重県", "東京都")


def simulated_championship(boards: int = 124, seed: int = 0, scale: float = 1.0) -> Tournament:
    """The full-size event described in the module doc (``scale`` shrinks every class)."""
    rng = random.Random(seed)
    event = Tournament(
        TournamentSettings("カロム日本選手権大会（模擬）", "2026-07-12", boards=boards, seed=seed),
        championship_divisions(),
    )
    clubs = [f"彦根カロムクラブ{i + 1}" for i in range(60)]
    serial = 0

    def person(lo: int, hi: int, adult: bool = False) -> Person:
        nonlocal serial
        serial += 1
        (sn, sr), (gn, gr) = rng.choice(_SURNAMES), rng.choice(_GIVEN)
        year = 13 if adult else rng.randint(lo, hi)
        age = rng.randint(25, 60) if adult else (year + 6 if year else 5)
        return Person(
            f"{sn} {gn}{serial}",
            f"{sr} {gr}",
            rng.choice(clubs),
            rng.choice(_PREFECTURES),
            age=age,
            school_year=year,
        )

    def count(n: int) -> int:
        return max(2, round(n * scale))

    def add(division: str, *members: Person) -> None:
        event.add_entry(Entry(event.next_entry_id(division), division, members))

    children: list[Person] = []
    for _ in range(count(110)):
        p = person(0, 3)
        children.append(p)
        add("JA", p)
    for _ in range(count(110)):
        p = person(4, 6)
        children.append(p)
        add("JB", p)
    for _ in range(count(300)):
        add("GS", person(7, 13))
    for _ in range(count(40)):
        add("JP", person(1, 6), person(1, 6))
    both = rng.sample(children, min(len(children), count(40)))
    for i in range(count(60)):
        child = both[i] if i < len(both) else person(1, 6)
        add("FP", person(0, 0, adult=True), child)
    for _ in range(count(60)):
        add("GP", person(7, 13), person(7, 13))
    return event


def _timed(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}"


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom bench tournament``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom bench tournament",
        description="Plan the whole day of an 800-entrant championship on 124 boards.",
    )
    parser.add_argument("--boards", type=int, default=124, help="boards in the hall (124)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats per timing (median)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the simulated event")
    args = parser.parse_args(argv)
    if args.boards < 1 or args.repeats < 1:
        parser.error("--boards and --repeats must be >= 1")
    t0 = time.perf_counter()
    event = simulated_championship(args.boards, args.seed)
    build_s = time.perf_counter() - t0
    people = {k for e in event.entries.values() for k in e.people}

    def draw() -> None:
        for division in event.divisions:
            event.draw(division)

    draw_s = _timed(draw, args.repeats)
    plan_s = _timed(event.make_plan, args.repeats)
    plan = event.make_plan()
    jobs = event.jobs()
    stats = plan.stats(jobs)
    now = 11 * 3600
    finished: dict[str, Slot] = {}
    running: dict[str, Slot] = {}
    rng = random.Random(args.seed)
    for slot in plan.slots:
        match = event.match(slot.match)
        if slot.end_s <= now and match.playable:
            finished[slot.match] = slot
            event.record(slot.match, Result.from_scores(rng.randint(0, 12), rng.randint(0, 12)))
        elif slot.start_s <= now < slot.end_s:
            running[slot.match] = Slot(slot.start_s, slot.board, slot.match, now - 1)
    broken = frozenset({5, 17, 60})
    replan_s = _timed(
        lambda: event.replan(now, finished=finished, running=running, out_of_service=broken),
        args.repeats,
    )
    again = event.replan(now, finished=finished, running=running, out_of_service=broken)
    after = again.stats(event.jobs())
    print(f"event: {len(people)} entrants, {len(event.entries)} entries, {len(jobs)} matches, "
          f"{args.boards} boards (built in {build_s:.2f} s)")  # fmt: skip
    print(f"draw of the six classes:     {draw_s * 1000:8.1f} ms")
    print(
        f"board plan for the whole day: {plan_s * 1000:7.1f} ms "
        f"({plan_s / PLAN_TARGET_S:.3f} x the {PLAN_TARGET_S:.0f} s target)"
    )
    print(
        f"re-plan at {_clock(now)} (3 boards broken, {len(running)} running, "
        f"{len(finished)} finished): {replan_s * 1000:.1f} ms ({replan_s / plan_s:.2f} x the plan)"
    )
    print(
        f"plan: first match {_clock(plan.start_s)}, last ends {_clock(stats.end_s)}, "
        f"boards busy {stats.utilisation:.0%}, wait between a player's matches "
        f"mean {stats.mean_wait_s / 60:.1f} min, max {stats.max_wait_s / 60:.0f} min"
    )
    print(
        f"re-plan: last ends {_clock(after.end_s)}, boards busy {after.utilisation:.0%}, "
        f"max wait {after.max_wait_s / 60:.0f} min"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
