"""People: a name with its kana reading, club, prefecture, age and school year.

School years are one integer scale so that a class's age limits are plain ranges:
``PRESCHOOL`` (-3, 未就学: a preschool child whose year is not given), the three kindergarten
years -2, -1, 0 (年少, 年中, 年長: ages 3, 4, 5 at the start of the year), elementary 1-6 (小1-小6),
junior high 7-9 (中1-中3), high school 10-12 (高1-高3) and ``ADULT`` (13, 一般: university or
working age).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from hikone_carrom.name_text import unsafe_name
from hikone_carrom.tournament.errors import TournamentError

__all__ = [
    "ADULT",
    "PRESCHOOL",
    "Person",
    "fold_reading",
    "parse_school_year",
    "read_person",
    "school_year_label",
    "youngest_age",
]

PRESCHOOL = -3
"""School year of a child not yet at school whose kindergarten year is not given (未就学)."""
_KINDERGARTEN = {"年少": -2, "年中": -1, "年長": 0, "k3": -2, "k4": -1, "k5": 0}
"""The kindergarten years as forms write them (ja) and as this module labels them in English."""
ADULT = 13
"""School year of everyone past high school (一般)."""

_KANA = re.compile(r"^[\u3041-\u3096\u30a1-\u30fa\u30fc\u30fb\u309d\u309e\u30fd\u30fe\s]+$")
_STAGES = {
    "小": 0,
    "e": 0,
    "中": 6,
    "j": 6,
    "高": 9,
    "h": 9,
}
_GRADE = re.compile(r"^(小|中|高|e|j|h)(?:学)?(?:校)?([1-6])(?:年生?)?$")
_ADULT_WORDS = ("一般", "大人", "社会人", "大学", "大学生", "専門", "adult", "general", "a")
_PRESCHOOL_WORDS = ("未就学", "幼児", "保育", "幼稚園", "preschool", "p")


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


def fold_reading(text: str) -> str:
    """A search key: NFKC, katakana folded to hiragana, lower case, no spaces.

    ``fold_reading("ヤマダ タロウ") == fold_reading("やまだたろう")``; names in kanji or Latin
    letters fold the same way, so one search box finds both.
    """
    out = []
    for ch in _nfkc(text).lower():
        code = ord(ch)
        if 0x30A1 <= code <= 0x30F6:
            ch = chr(code - 0x60)
        if not ch.isspace() and ch not in "・･":
            out.append(ch)
    return "".join(out)


def parse_school_year(text: str, age: int | None = None) -> int:
    """The school year of ``text`` as written in entry forms: "小3", "中1", "高2", "一般", "年長",
    "E3"/"J1"/"H2", "3年"/"3" (elementary). Blank: ``ADULT`` for an age of 18 or more (or no age).

    Raises :class:`TournamentError` for text it cannot read or a blank grade under 18.
    """
    raw = _nfkc(text).lower().replace(" ", "")
    if not raw:
        if age is None or age >= 18:
            return ADULT
        raise TournamentError(
            "grade_missing",
            f"Give the school year of an entrant aged {age} (e.g. 小3, 中1)",
            f"{age}歳の方は学年を入れてください（例：小3、中1）",
        )
    if raw in _ADULT_WORDS:
        return ADULT
    if raw in _PRESCHOOL_WORDS:
        return PRESCHOOL
    if raw in _KINDERGARTEN:
        return _KINDERGARTEN[raw]
    match = _GRADE.match(raw)
    if match:
        stage, year = match.groups()
        limit = 6 if stage in ("小", "e") else 3
        if int(year) <= limit:
            return _STAGES[stage] + int(year)
    plain = re.match(r"^([1-6])(?:年生?)?$", raw)
    if plain:
        return int(plain.group(1))
    raise TournamentError(
        "bad_grade",
        f"Cannot read the school year {text!r} (write e.g. 年長, 小3, 中1, 高2, 一般)",
        f"学年「{text}」が読めません（年長、小3、中1、高2、一般 のように書いてください）",
    )


def youngest_age(year: int) -> int | None:
    """The youngest age (years) of a child in school year ``year`` (年長 5, 小1 6, 中1 12, 一般
    18); None for a preschool child whose year is not given."""
    return None if year <= PRESCHOOL else year + 5


def school_year_label(year: int, lang: str = "ja") -> str:
    """The school year as people write it: 年長/小3/中1/高2/一般 (ja) or K5/E3/J1/H2/adult (en)."""
    if year <= PRESCHOOL:
        return "未就学" if lang == "ja" else "preschool"
    if year <= 0:
        ja, en = ("年少", "年中", "年長")[year + 2], f"K{year + 5}"
        return ja if lang == "ja" else en
    if year >= ADULT:
        return "一般" if lang == "ja" else "adult"
    for stage, base, en in (("高", 9, "H"), ("中", 6, "J"), ("小", 0, "E")):
        if year > base:
            return f"{stage}{year - base}" if lang == "ja" else f"{en}{year - base}"
    raise AssertionError(year)  # pragma: no cover - every year falls in one stage


@dataclass(frozen=True)
class Person:
    """One player.

    Attributes:
        name: as printed (山田 太郎).
        reading: the name in kana (やまだ たろう), read out at board calls and searched.
        club: club or team (所属); empty when none.
        prefecture: prefecture (都道府県); empty when not given.
        age: years, or None when not given.
        school_year: on the scale of this module (``PRESCHOOL`` .. ``ADULT``).
    """

    name: str
    reading: str
    club: str = ""
    prefecture: str = ""
    age: int | None = None
    school_year: int = ADULT

    def __post_init__(self) -> None:
        if not _nfkc(self.name):
            raise TournamentError("name_missing", "A name is missing", "名前がありません")
        if not _nfkc(self.reading):
            raise TournamentError(
                "reading_missing",
                f"The reading of {self.name} is missing (write it in kana)",
                f"{self.name}さんのよみがながありません（かなで書いてください）",
            )
        if not _KANA.match(_nfkc(self.reading)):
            raise TournamentError(
                "bad_reading",
                f"The reading of {self.name} must be written in kana (got {self.reading!r})",
                f"{self.name}さんのよみがなはかなで書いてください（「{self.reading}」）",
            )
        if self.age is not None and not 2 <= self.age <= 120:
            raise TournamentError(
                "bad_age",
                f"The age of {self.name} must be 2-120 (got {self.age})",
                f"{self.name}さんの年齢は2〜120で入れてください（{self.age}）",
            )
        if not PRESCHOOL <= self.school_year <= ADULT:
            raise TournamentError(
                "bad_grade",
                f"School year {self.school_year} is out of range",
                f"学年 {self.school_year} は範囲外です",
            )

    @property
    def key(self) -> str:
        """Who this is across entries: the same name, reading and club is the same person (one
        child may play singles and family pairs; the board plan keeps their matches apart)."""
        return f"{_nfkc(self.name)}|{fold_reading(self.reading)}|{_nfkc(self.club)}"


def read_person(
    name: str,
    reading: str,
    club: str = "",
    prefecture: str = "",
    age: str = "",
    grade: str = "",
    *,
    partner: bool = False,
) -> Person:
    """A person from the text of an entry form or a CSV row (full-width letters and digits
    folded, the school year read by :func:`parse_school_year`); ``partner`` names the pair's
    second member in the messages. Raises :class:`TournamentError` with a sentence."""
    if not _nfkc(name):
        raise TournamentError(
            "name_missing",
            "A name is missing" + (" (partner)" if partner else ""),
            "名前がありません" + ("（ペアの相手）" if partner else ""),
        )
    if unsafe_name(_nfkc(name)):  # a pad's MatchSetup refuses them
        raise TournamentError(
            "bad_name",
            f"The name {_nfkc(name)!r} cannot contain <, > or control characters",
            f"名前 {_nfkc(name)!r} に < や > や制御文字は使えません",
        )
    age_text = _nfkc(age)
    try:
        years = int(age_text) if age_text else None
    except ValueError:
        raise TournamentError(
            "bad_age",
            f"The age of {name} is not a number ({age_text!r})",
            f"{name}さんの年齢が数字ではありません（{age_text}）",
        ) from None
    return Person(
        name=_nfkc(name),
        reading=_nfkc(reading),
        club=_nfkc(club),
        prefecture=prefecture.strip(),
        age=years,
        school_year=parse_school_year(grade, years),
    )
