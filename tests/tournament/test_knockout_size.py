"""Knockout sizes on 11 pools x top 3 = 33 qualifiers: every qualifier with byes by pool order
or by results, or the 32 best; each choice's consequences; the choice stored per division."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hikone_carrom.tournament import BYE, Tournament, TournamentError
from hikone_carrom.tournament.knockout_size import (
    describe_sizes,
    knockout_places,
    rank_across_pools,
)

from .helpers import general_event
from .test_event import play_pools


def _drawn(size: str | None = None) -> Tournament:
    event = general_event(66, boards=12)
    if size is not None:
        event.set_knockout_size("GS", size)  # type: ignore[arg-type]
    event.draw("GS")
    assert len(event.pools["GS"]) == 11
    return event


def _closed(event: Tournament) -> Tournament:
    play_pools(event, seed=5)
    for pool in event.pools["GS"]:
        event.close_pool("GS", pool.number)
    return event


def _thirds_best_first(event: Tournament) -> list[str]:
    tables = {
        p.number: [s for s in event.standings("GS", p.number) if not s.withdrawn]
        for p in event.pools["GS"]
    }
    return rank_across_pools(tables, 3, event._rules())


def test_the_full_bracket_has_64_lines_and_31_byes_to_the_top_seeds() -> None:
    event = _drawn()
    bracket = event.brackets["GS"]
    assert len(bracket.lines) == 64 and len(bracket.places()) == 33
    first = [m for m in bracket.matches if m.round == 1]
    assert len(first) == 1
    sides = [f.place for f in first[0].feeds]
    assert all(p is not None and p.place == 3 and p.rank == 0 for p in sides)


def test_the_cut_takes_the_32_best_and_leaves_the_weakest_third_out() -> None:
    event = _closed(_drawn("cut"))
    bracket = event.brackets["GS"]
    assert len(bracket.lines) == 32 and None not in bracket.lines
    assert [m.round for m in bracket.matches].count(1) == 16
    thirds = _thirds_best_first(event)
    qualifiers = event.qualifiers("GS")
    assert len(qualifiers) == 32 and BYE not in qualifiers.values()
    assert set(qualifiers.values()) >= set(thirds[:10])
    assert thirds[10] not in qualifiers.values()  # the weakest third across the pools
    winners = {event.standings("GS", p.number)[0].entry for p in event.pools["GS"]}
    assert winners <= set(qualifiers.values())


def test_ranked_byes_send_the_two_weakest_thirds_into_the_preliminary() -> None:
    event = _closed(_drawn("ranked_byes"))
    bracket = event.brackets["GS"]
    assert len(bracket.lines) == 64
    thirds = _thirds_best_first(event)
    (first,) = [m for m in event.matches("GS") if m.stage == "knockout" and m.round == 1]
    assert set(first.sides) == set(thirds[9:])


def test_ranked_places_wait_for_every_pool() -> None:
    event = _drawn("cut")
    play_pools(event, seed=5)
    for pool in event.pools["GS"][:-1]:
        event.close_pool("GS", pool.number)
    assert not [p for p in event.qualifiers("GS") if p.rank]
    assert len(event.qualifiers("GS")) == 10 * 2
    event.close_pool("GS", 11)
    assert len([p for p in event.qualifiers("GS") if p.rank]) == 10


def test_each_choice_is_described_before_it_is_confirmed() -> None:
    event = _drawn()
    full, ranked, cut = describe_sizes("GS", event.pools["GS"], 3)
    assert (full.size, full.lines, full.byes, full.first_round, full.left_out) == (
        "full",
        64,
        31,
        1,
        0,
    )
    assert full.matches == 33  # 32 to find a champion of 33, and the third-place match
    assert (ranked.lines, ranked.byes, ranked.ranked_place, ranked.ranked_count) == (64, 31, 3, 11)
    assert (cut.lines, cut.entrants, cut.byes, cut.left_out, cut.matches) == (32, 32, 0, 1, 32)
    assert "3位11組のうち成績下位1組は出場しません" in cut.text("ja")
    assert "the weakest 1 of the 11 thirds do not play" in cut.text("en")
    assert "不戦勝31" in full.text("ja") and "31 byes" in full.text("en")
    assert "リーグをまたいだ成績順" in ranked.text("ja")


def test_a_power_of_two_is_the_same_bracket_under_every_choice() -> None:
    event = general_event(48, boards=8)  # 8 pools of 6 x 2 = 16
    event.divisions["GS"] = replace(event.divisions["GS"], advance=2)
    event.draw("GS")
    pools = event.pools["GS"]
    assert {tuple(knockout_places(pools, 2, s)) for s in ("full", "ranked_byes", "cut")} == {
        tuple(knockout_places(pools, 2, "full"))
    }


def test_the_choice_is_stored_and_replans_the_knockout() -> None:
    event = _drawn()
    event.make_plan()
    event.set_knockout_size("GS", "cut")
    assert event.plan is not None
    planned = {s.match for s in event.plan.slots}
    knockout = {m.id for m in event.matches("GS") if m.stage == "knockout"}
    assert knockout <= planned and len(knockout) == 32
    assert "GS-K1-16" in planned
    back = Tournament.from_dict(event.to_dict())
    assert back.divisions["GS"].knockout == "cut"
    assert back.brackets["GS"] == event.brackets["GS"]
    data = event.to_dict()
    del data["divisions"][0]["knockout"]
    assert Tournament.from_dict(data).divisions["GS"].knockout == "full"


def test_the_size_is_refused_once_the_knockout_has_begun() -> None:
    event = _closed(_drawn())
    (first,) = [m for m in event.matches("GS") if m.stage == "knockout" and m.round == 1]
    with pytest.raises(TournamentError) as err:
        event.set_knockout_size("GS", "cut", started={first.id})
    assert err.value.code == "knockout_begun"
    assert event.divisions["GS"].knockout == "full"
    with pytest.raises(TournamentError) as err:
        event.set_knockout_size("GS", "huge")  # type: ignore[arg-type]
    assert err.value.code == "bad_knockout_size"


def test_a_cut_at_a_whole_place_leaves_out_the_places_below() -> None:
    event = general_event(6)  # one pool: A1 A2 A3 into a bracket of 2
    event.draw("GS")
    _, _, cut = describe_sizes("GS", event.pools["GS"], 3)
    assert (cut.lines, cut.left_out, cut.ranked_place, cut.lower_place) == (2, 1, None, 3)
    assert cut.text("ja").endswith("3位以下の1組は出場しません")
    assert cut.text("en").endswith("the 1 placed 3rd or lower do not play")
    assert "None" not in cut.text("ja") + cut.text("en")
