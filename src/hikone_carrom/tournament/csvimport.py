"""Entries from a CSV file, as Japanese spreadsheets export them (UTF-8, with or without BOM,
or Shift_JIS/cp932), with a row-by-row report of what is wrong.

Columns are found by their header, in Japanese or English (any order, extra columns ignored):

=============  ==========================  ===========================================
meaning        Japanese headers            English headers
=============  ==========================  ===========================================
division       部門, 種目, クラス            division, class
name           氏名, 名前                    name
reading        よみがな, ふりがな, フリガナ   reading, kana
club           所属, クラブ, チーム           club, team
prefecture     都道府県                      prefecture
age            年齢                          age
school year    学年                          grade
seed           シード                        seed
=============  ==========================  ===========================================

A doubles row names the partner in the same columns with "2" appended (氏名2, よみがな2, ...).
A division is given by its id ("GS") or its name in either language. Import is all or nothing:
:attr:`ImportReport.ok` is true only when every row is right.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from hikone_carrom.tournament.entries import Entry
from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.event import Tournament
from hikone_carrom.tournament.people import Person, read_person

__all__ = ["ImportReport", "RowProblem", "decode_csv", "parse_entries_csv"]

_HEADERS = {
    "division": ("部門", "種目", "クラス", "division", "class"),
    "name": ("氏名", "名前", "name"),
    "reading": ("よみがな", "ふりがな", "フリガナ", "ヨミガナ", "reading", "kana"),
    "club": ("所属", "クラブ", "チーム", "club", "team"),
    "prefecture": ("都道府県", "prefecture"),
    "age": ("年齢", "age"),
    "grade": ("学年", "grade"),
    "seed": ("シード", "seed"),
}
MAX_BYTES = 2_000_000
"""Largest file accepted, bytes."""


@dataclass(frozen=True)
class RowProblem:
    """What is wrong with one row (``row`` counts as the spreadsheet does: the header is 1)."""

    row: int
    en: str
    ja: str


@dataclass(frozen=True)
class ImportReport:
    """The entries read, the problems found and the encoding the file was in."""

    entries: tuple[Entry, ...]
    problems: tuple[RowProblem, ...]
    encoding: str
    rows: int = field(default=0)

    @property
    def ok(self) -> bool:
        """Every row is right."""
        return not self.problems


def decode_csv(data: bytes) -> tuple[str, str]:
    """(text, encoding): UTF-8 (a BOM is dropped) when it decodes, else cp932 (Shift_JIS)."""
    if len(data) > MAX_BYTES:
        raise TournamentError(
            "file_too_large",
            f"The file is larger than {MAX_BYTES // 1_000_000} MB",
            f"ファイルが{MAX_BYTES // 1_000_000}MBを超えています",
        )
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp932"), "cp932"
    except UnicodeDecodeError as err:
        raise TournamentError(
            "bad_encoding",
            "The file is neither UTF-8 nor Shift_JIS; save it as CSV (UTF-8) and try again",
            "文字コードがUTF-8でもShift_JISでもありません。CSV（UTF-8）で保存し直してください",
        ) from err


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().lower()


def _columns(header: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for i, raw in enumerate(header):
        cell = _norm(raw)
        for key, names in _HEADERS.items():
            for name in names:
                n = _norm(name)
                if cell == n:
                    found.setdefault(key, i)
                elif cell == n + "2":
                    found.setdefault(key + "2", i)
    return found


def parse_entries_csv(data: bytes, event: Tournament) -> ImportReport:
    """Read entries for ``event`` from CSV bytes; every row is checked as
    :meth:`Tournament.add_entry` would, against the event and the rows above it. Nothing is added
    to ``event``."""
    text, encoding = decode_csv(data)
    rows = list(csv.reader(io.StringIO(text)))
    while rows and not any(c.strip() for c in rows[-1]):
        rows.pop()
    if not rows:
        raise TournamentError("empty_file", "The file is empty", "ファイルが空です")
    cols = _columns(rows[0])
    missing = [k for k in ("division", "name", "reading") if k not in cols]
    if missing:
        names = "、".join(_HEADERS[k][0] for k in missing)
        raise TournamentError(
            "missing_columns",
            f"The header lacks the column(s) {', '.join(missing)} ({names})",
            f"見出し行に「{names}」の列がありません",
        )
    by_name: dict[str, str] = {}
    for d in event.divisions.values():
        for key in (d.id, d.name_ja, d.name_en):
            by_name[_norm(key)] = d.id
    trial = Tournament.from_dict(event.to_dict())
    entries: list[Entry] = []
    rows_of: dict[str, int] = {}
    problems: list[RowProblem] = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue

        def cell(key: str, row: list[str] = row) -> str:
            i = cols.get(key)
            return row[i].strip() if i is not None and i < len(row) else ""

        try:
            division = by_name.get(_norm(cell("division")))
            if division is None:
                raise TournamentError(
                    "no_division",
                    f"Unknown division {cell('division')!r} (use one of "
                    f"{', '.join(event.divisions)})",
                    f"部門「{cell('division')}」がありません（{'、'.join(event.divisions)}）",
                )
            size = event.divisions[division].players
            members = tuple(_person(cell, suffix) for suffix in ("", "2")[:size])
            if size == 1 and cell("name2"):
                raise TournamentError(
                    "partner_in_singles",
                    "A singles row names a partner",
                    "シングルスの行にペアの相手が書かれています",
                )
            seed_text = unicodedata.normalize("NFKC", cell("seed"))
            seed = int(seed_text) if seed_text else None
            entry = Entry(trial.next_entry_id(division), division, members, seed=seed)
            _once_in_file(entry, number, entries, rows_of)
            trial.add_entry(entry)
            entries.append(entry)
            rows_of[entry.id] = number
        except TournamentError as err:
            problems.append(RowProblem(number, err.en, err.ja))
        except ValueError:
            problems.append(
                RowProblem(number, "Seed must be a whole number", "シードは整数で入れてください")
            )
    return ImportReport(tuple(entries), tuple(problems), encoding, rows=len(rows) - 1)


def _once_in_file(entry: Entry, row: int, earlier: list[Entry], rows_of: dict[str, int]) -> None:
    """Nobody is entered twice in one division by this file (named by its rows: the import is all
    or nothing, so the earlier row's entry id does not exist)."""
    for other in earlier:
        if other.division == entry.division and other.people & entry.people:
            who = next(p.name for p in entry.members if p.key in other.people)
            at = rows_of[other.id]
            raise TournamentError(
                "entered_twice",
                f"{who} is entered twice in this file (rows {at} and {row})",
                f"{who}さんがこのファイルで2回エントリーされています（{at}行目と{row}行目）",
            )


def _person(get: Callable[[str], str], suffix: str) -> Person:
    return read_person(
        get("name" + suffix),
        get("reading" + suffix),
        get("club" + suffix),
        get("prefecture" + suffix),
        get("age" + suffix),
        get("grade" + suffix),
        partner=bool(suffix),
    )
