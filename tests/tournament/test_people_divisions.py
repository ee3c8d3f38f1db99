"""School years, kana folding and the eligibility of the six championship classes."""

from __future__ import annotations

import pytest

from hikone_carrom.tournament import (
    ADULT,
    PRESCHOOL,
    Division,
    Entry,
    Person,
    Tournament,
    TournamentError,
    TournamentSettings,
    championship_divisions,
    fold_reading,
    parse_school_year,
    school_year_label,
)


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("小3", 3), ("小学3年", 3), ("３", 3), ("中1", 7), ("中学1年生", 7), ("高2", 11),
        ("E6", 6), ("J3", 9), ("h1", 10), ("一般", ADULT), ("年長", 0), ("年中", -1),
        ("年少", -2), ("K5", 0), ("未就学", PRESCHOOL), ("幼稚園", PRESCHOOL),
    ],
)  # fmt: skip
def test_school_years_as_forms_write_them(text: str, year: int) -> None:
    assert parse_school_year(text) == year


def test_blank_school_year_is_adult_only_from_18() -> None:
    assert parse_school_year("", 40) == ADULT
    assert parse_school_year("") == ADULT
    with pytest.raises(TournamentError) as err:
        parse_school_year("", 12)
    assert err.value.code == "grade_missing"


def test_unreadable_school_year_is_refused_in_both_languages() -> None:
    with pytest.raises(TournamentError) as err:
        parse_school_year("小7")
    assert "小7" in err.value.ja and "小7" in err.value.en


def test_labels_round_trip() -> None:
    for year in range(PRESCHOOL, ADULT + 1):
        label = school_year_label(year)
        assert parse_school_year(label, 40 if year == ADULT else 6) == year


def test_kindergarten_years_have_their_own_labels_in_both_languages() -> None:
    assert [school_year_label(y) for y in (PRESCHOOL, -2, -1, 0, 1)] == [
        "未就学", "年少", "年中", "年長", "小1"
    ]  # fmt: skip
    assert [school_year_label(y, "en") for y in (PRESCHOOL, -2, -1, 0)] == [
        "preschool", "K3", "K4", "K5"
    ]  # fmt: skip


def test_reading_folds_katakana_width_and_spaces() -> None:
    assert fold_reading("ヤマダ タロウ") == fold_reading("やまだたろう") == "やまだたろう"
    assert fold_reading("ﾔﾏﾀﾞ") == "やまだ"


def test_reading_must_be_kana() -> None:
    with pytest.raises(TournamentError) as err:
        Person("山田 太郎", "山田")
    assert err.value.code == "bad_reading"


def _div(code: str) -> Division:
    return {d.id: d for d in championship_divisions()}[code]


def kid(year: int, age: int | None = None, name: str = "子ども") -> Person:
    return Person(name, "こども", age=age if age is not None else year + 6, school_year=year)


def grown(name: str = "大人") -> Person:
    return Person(name, "おとな", age=40)


def test_six_classes_of_the_championship() -> None:
    divisions = championship_divisions()
    assert [d.id for d in divisions] == ["JA", "JB", "GS", "JP", "FP", "GP"]
    assert [d.format for d in divisions] == ["singles"] * 3 + ["doubles"] * 3
    for d in divisions:
        assert d.match_time_s == 300.0 and d.final_untimed  # R7e
        assert (d.pool_size, d.advance) == (6, 3)


def test_junior_a_is_age_5_to_3rd_grade() -> None:
    ja = _div("JA")
    ja.check_members([kid(PRESCHOOL, age=5)])
    ja.check_members([kid(3)])
    for bad in (kid(PRESCHOOL, age=4), kid(4)):
        with pytest.raises(TournamentError) as err:
            ja.check_members([bad])
        assert err.value.code == "not_eligible"


def test_junior_a_takes_a_kindergarten_final_year_without_an_age_but_not_a_younger_one() -> None:
    ja = _div("JA")
    ja.check_members([Person("年長の子", "ねんちょうのこ", school_year=0)])
    for year in (-1, PRESCHOOL):  # 年中 is 4; a preschooler of no given year needs an age
        with pytest.raises(TournamentError) as err:
            ja.check_members([Person("小さい子", "ちいさいこ", school_year=year)])
        assert err.value.code == "not_eligible"


def test_junior_b_general_and_pairs() -> None:
    _div("JB").check_members([kid(4)])
    with pytest.raises(TournamentError):
        _div("JB").check_members([kid(7)])
    _div("GS").check_members([kid(7)])
    with pytest.raises(TournamentError):
        _div("GS").check_members([kid(6)])
    _div("JP").check_members([kid(2, name="a"), kid(6, name="b")])
    _div("FP").check_members([kid(2), grown()])  # either order
    _div("FP").check_members([grown(), kid(2)])
    with pytest.raises(TournamentError):
        _div("FP").check_members([grown("a"), grown("b")])
    _div("GP").check_members([kid(8, name="a"), grown()])


def test_a_pair_needs_two_different_people() -> None:
    with pytest.raises(TournamentError) as err:
        _div("GP").check_members([grown(), grown()])
    assert err.value.code == "same_partner"


def test_an_event_stored_before_the_kindergarten_years_reads_its_preschoolers_as_preschool() -> (
    None
):
    event = Tournament(TournamentSettings("古い大会"), championship_divisions())
    event.add_entry(
        Entry("JA-001", "JA", (Person("小林 優", "こばやし ゆう", age=5, school_year=0),))
    )
    old = event.to_dict()
    old["version"] = 1  # version 1: school year 0 was any preschool child, and the classes' floor
    for division in old["divisions"]:
        for rule in division["members"]:
            rule["min_year"] = max(rule["min_year"], 0)
    back = Tournament.from_dict(old)
    assert back.entry("JA-001").members[0].school_year == PRESCHOOL
    assert all(r.min_year == PRESCHOOL for r in back.division("JA").members)
    assert Tournament.from_dict(event.to_dict()).entry("JA-001").members[0].school_year == 0
