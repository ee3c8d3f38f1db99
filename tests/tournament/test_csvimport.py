"""Entries from CSV in UTF-8 and Shift_JIS, with a row-by-row report."""

from __future__ import annotations

import pytest

from hikone_carrom.tournament import (
    Tournament,
    TournamentError,
    TournamentSettings,
    championship_divisions,
    parse_entries_csv,
    school_year_label,
)

GOOD = (
    "部門,氏名,よみがな,所属,都道府県,年齢,学年,氏名2,よみがな2,所属2,年齢2,学年2\n"
    "JA,山田 太郎,やまだ たろう,彦根クラブ,滋賀県,8,小2,,,,,\n"
    "一般（シングルス）,佐藤 花子,サトウ ハナコ,京都クラブ,京都府,35,,,,,,\n"
    "親子ペア,山田 一郎,やまだ いちろう,彦根クラブ,滋賀県,40,一般,山田 太郎,やまだ たろう,"
    "彦根クラブ,8,小2\n"
)


def _event() -> Tournament:
    return Tournament(TournamentSettings("テスト大会"), championship_divisions())


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp932"])
def test_utf8_and_shift_jis_files_read_the_same(encoding: str) -> None:
    event = _event()
    report = parse_entries_csv(GOOD.encode(encoding), event)
    assert report.ok, report.problems
    assert report.encoding == ("cp932" if encoding == "cp932" else "utf-8")
    assert [(e.division, e.name) for e in report.entries] == [
        ("JA", "山田 太郎"),
        ("GS", "佐藤 花子"),
        ("FP", "山田 一郎・山田 太郎"),
    ]
    # the child in singles and family pairs is one person for the board plan
    assert report.entries[0].people <= report.entries[2].people
    assert event.entries == {}  # parsing adds nothing


def test_every_bad_row_is_reported_with_its_row_number() -> None:
    text = (
        "division,name,reading,club,age,grade\n"
        "JA,Good Kid,グッド,C,7,E1\n"
        "XX,誰か,だれか,C,30,\n"  # 3: unknown division
        "JA,鈴木 次郎,すずき じろう,C,12,小6\n"  # 4: too old for junior A
        "GS,高橋 三郎,Takahashi,C,30,\n"  # 5: reading not in kana
        "JB,田中 四郎,たなか しろう,C,10,小9\n"  # 6: unreadable grade
        "JA,Good Kid,グッド,C,7,E1\n"  # 7: entered twice
        "GS,伊藤 五郎,いとう ごろう,C,abc,\n"  # 8: age not a number
        "FP,渡辺 六郎,わたなべ ろくろう,C,40,\n"  # 9: a pair with no partner
    )
    report = parse_entries_csv(text.encode(), _event())
    assert not report.ok
    assert [p.row for p in report.problems] == [3, 4, 5, 6, 7, 8, 9]
    assert all(p.en and p.ja for p in report.problems)
    assert "ジュニアA" in report.problems[1].ja


def test_a_file_without_the_needed_columns_is_refused() -> None:
    with pytest.raises(TournamentError) as err:
        parse_entries_csv("氏名,所属\n山田,彦根\n".encode(), _event())
    assert err.value.code == "missing_columns" and "部門" in err.value.ja


def test_an_undecodable_file_is_refused() -> None:
    with pytest.raises(TournamentError) as err:
        parse_entries_csv(b"\x82\xa0\xff\xfe\x81", _event())
    assert err.value.code == "bad_encoding"


def test_a_missing_reading_is_reported_as_missing_not_as_bad_kana() -> None:
    text = "division,name,reading,club,age,grade\nGS,高橋 三郎,,C,30,\n"
    [problem] = parse_entries_csv(text.encode(), _event()).problems
    assert problem.ja == "高橋 三郎さんのよみがながありません（かなで書いてください）"
    assert "missing" in problem.en and "「」" not in problem.ja


def test_a_row_repeating_an_earlier_one_names_both_rows_not_an_entry_never_made() -> None:
    text = (
        "division,name,reading,club,age,grade\n"
        "JA,山田 太郎,やまだ たろう,C,7,小1\n"
        "GS,佐藤 花子,さとう はなこ,C,30,\n"
        "JA,山田 太郎,やまだ たろう,C,7,小1\n"
    )
    [problem] = parse_entries_csv(text.encode(), _event()).problems
    assert problem.row == 4
    assert "2行目と4行目" in problem.ja and "rows 2 and 4" in problem.en
    assert "JA-" not in problem.ja + problem.en  # no id: the import is all or nothing


def test_a_kindergarten_year_is_kept_as_written() -> None:
    text = "division,name,reading,club,age,grade\nJA,小林 優,こばやし ゆう,C,,年長\n"
    report = parse_entries_csv(text.encode(), _event())
    assert report.ok, report.problems
    [entry] = report.entries
    assert school_year_label(entry.members[0].school_year) == "年長"
