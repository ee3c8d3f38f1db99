"""Divisions (classes) of an event and who may enter them; the Japan Championship's six classes.

A division is singles or doubles, has an eligibility rule per member, a match time, a pool size,
how many of each pool advance to the knockout, whether there is a third-place match and whether
the final is untimed (R7e: 5-minute matches, finals excepted).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Literal, get_args

from hikone_carrom.rules import CHAMPIONSHIP_MATCH_TIME_S
from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.people import (
    ADULT,
    PRESCHOOL,
    Person,
    school_year_label,
    youngest_age,
)

__all__ = [
    "Division",
    "Format",
    "KnockoutSize",
    "MemberRule",
    "championship_divisions",
]

Format = Literal["singles", "doubles"]
KnockoutSize = Literal["full", "ranked_byes", "cut"]
"""How many qualifiers a division's knockout takes (:mod:`~.knockout_size`)."""


@dataclass(frozen=True)
class MemberRule:
    """Who may fill one place of an entry: a school-year range and an optional minimum age.

    Attributes:
        min_year, max_year: inclusive school years (``people.PRESCHOOL`` .. ``people.ADULT``).
        min_age: youngest age allowed, years (without an age, the youngest of the school year
            counts: 年長 5, 小1 6; a preschooler whose year is not given needs an age).
        en, ja: how the rule reads on forms ("4th-6th grade", "小4〜小6").
    """

    min_year: int = PRESCHOOL
    max_year: int = ADULT
    min_age: int | None = None
    en: str = ""
    ja: str = ""

    def admits(self, person: Person) -> bool:
        """Whether ``person`` may fill this place."""
        if not self.min_year <= person.school_year <= self.max_year:
            return False
        if self.min_age is None:
            return True
        if person.age is None:
            youngest = youngest_age(person.school_year)
            return youngest is not None and youngest >= self.min_age
        return person.age >= self.min_age

    def describe(self, lang: str = "ja") -> str:
        """The rule as people read it."""
        text = self.ja if lang == "ja" else self.en
        if text:
            return text
        lo, hi = school_year_label(self.min_year, lang), school_year_label(self.max_year, lang)
        return f"{lo}〜{hi}" if lang == "ja" else f"{lo} to {hi}"


@dataclass(frozen=True)
class Division:
    """One class of an event.

    Attributes:
        id: short stable id used in match ids and URLs ("JA", "GS"...), letters, digits, '-'.
        name_ja, name_en: display names.
        format: "singles" (one member per entry) or "doubles" (two).
        members: one :class:`MemberRule` per member; in doubles the two members may fill the two
            rules in either order (family pairs: an adult and a child).
        match_time_s: time of a match, s (R7b, R7e); ``None`` = untimed.
        pool_size: entries per pool (pools differ by at most one entry).
        advance: entries per pool that go on to the knockout.
        third_place: whether the knockout has a third-place match.
        final_untimed: whether the final is untimed (R7e).
        untimed_estimate_s: time the board plan reserves for an untimed match, s.
        knockout: the knockout's size (:mod:`~.knockout_size`): every qualifier (``full``,
            the default), the same with byes by results (``ranked_byes``), or the next power
            of two down (``cut``).
    """

    id: str
    name_ja: str
    name_en: str
    format: Format = "singles"
    members: tuple[MemberRule, ...] = (MemberRule(),)
    match_time_s: float | None = CHAMPIONSHIP_MATCH_TIME_S
    pool_size: int = 6
    advance: int = 3
    third_place: bool = True
    final_untimed: bool = True
    untimed_estimate_s: float = 900.0
    knockout: KnockoutSize = "full"

    def __post_init__(self) -> None:
        if not self.id or not all(c.isalnum() or c == "-" for c in self.id) or len(self.id) > 12:
            raise TournamentError(
                "bad_division_id",
                f"Division id {self.id!r} must be 1-12 letters, digits or '-'",
                f"部門ID「{self.id}」は英数字と「-」の1〜12文字にしてください",
            )
        if len(self.members) != self.players:
            raise TournamentError(
                "bad_members",
                f"A {self.format} division needs {self.players} member rule(s)",
                f"{'シングルス' if self.players == 1 else 'ダブルス'}の部門には"
                f"{self.players}人分の条件が要ります",
            )
        if not 2 <= self.pool_size <= 16:
            raise TournamentError(
                "bad_pool_size",
                f"Pool size must be 2-16 (got {self.pool_size})",
                f"予選リーグの人数は2〜16にしてください（{self.pool_size}）",
            )
        if not 1 <= self.advance <= self.pool_size:
            raise TournamentError(
                "bad_advance",
                f"Entries advancing per pool must be 1-{self.pool_size} (got {self.advance})",
                f"各リーグからの勝ち上がりは1〜{self.pool_size}にしてください（{self.advance}）",
            )
        if self.match_time_s is not None and not 60 <= self.match_time_s <= 3600:
            raise TournamentError(
                "bad_match_time",
                f"Match time must be 60-3600 s (got {self.match_time_s})",
                f"試合時間は60〜3600秒にしてください（{self.match_time_s}）",
            )
        if self.knockout not in get_args(KnockoutSize):
            raise TournamentError(
                "bad_knockout_size",
                f"Knockout size {self.knockout!r} must be full, ranked_byes or cut",
                f"決勝トーナメントの大きさ「{self.knockout}」は"
                "full・ranked_byes・cutのどれかにしてください",
            )
        if not 60 <= self.untimed_estimate_s <= 7200:
            raise TournamentError(
                "bad_estimate",
                "The time kept for an untimed match must be 60-7200 s",
                "時間無制限の試合に見込む時間は60〜7200秒にしてください",
            )

    @property
    def players(self) -> int:
        """Members per entry: 1 in singles, 2 in doubles."""
        return 1 if self.format == "singles" else 2

    def name(self, lang: str = "ja") -> str:
        """The display name in ``lang``."""
        return self.name_ja if lang == "ja" else self.name_en

    def duration_s(self, final: bool = False) -> float:
        """Time the board plan reserves for one match, s (untimed: ``untimed_estimate_s``)."""
        if final and self.final_untimed:
            return self.untimed_estimate_s
        return self.untimed_estimate_s if self.match_time_s is None else self.match_time_s

    def check_members(self, members: Sequence[Person]) -> None:
        """Raise :class:`TournamentError` unless ``members`` may enter together (any order)."""
        if len(members) != self.players:
            raise TournamentError(
                "wrong_member_count",
                f"{self.name_en} takes {self.players} player(s) per entry, not {len(members)}",
                f"{self.name_ja}は1組{self.players}人です（{len(members)}人になっています）",
            )
        if self.players == 2 and members[0].key == members[1].key:
            raise TournamentError(
                "same_partner",
                f"{members[0].name} cannot partner themself",
                f"{members[0].name}さんが2人分入っています",
            )
        for order in permutations(self.members):
            if all(rule.admits(p) for rule, p in zip(order, members, strict=True)):
                return
        rules_en = " + ".join(r.describe("en") for r in self.members)
        rules_ja = "＋".join(r.describe("ja") for r in self.members)
        who = "・".join(
            f"{p.name} ({school_year_label(p.school_year, 'en')}"
            + ("" if p.age is None else f", {p.age}")
            + ")"
            for p in members
        )
        who_ja = "・".join(
            f"{p.name}（{school_year_label(p.school_year)}"
            + ("" if p.age is None else f"、{p.age}歳")
            + "）"
            for p in members
        )
        raise TournamentError(
            "not_eligible",
            f"{who} may not enter {self.name_en} ({rules_en})",
            f"{who_ja}は{self.name_ja}（{rules_ja}）に出場できません",
        )


_JUNIOR_A = MemberRule(PRESCHOOL, 3, 5, "age 5 to 3rd grade", "5歳〜小3")
_JUNIOR_B = MemberRule(4, 6, None, "4th-6th grade", "小4〜小6")
_GENERAL = MemberRule(7, ADULT, None, "junior high and up", "中学生以上")
_CHILD = MemberRule(PRESCHOOL, 6, 5, "a child aged 5 to 6th grade", "5歳〜小6の子ども")
_ADULT = MemberRule(ADULT, ADULT, 18, "an adult", "大人")


def championship_divisions(match_time_s: float = CHAMPIONSHIP_MATCH_TIME_S) -> tuple[Division, ...]:
    """The six classes of the Japan Carrom Championship: pools of 6, the best 3 into the knockout,
    5-minute matches with an untimed final (R7e).

    Singles junior A (age 5 to 3rd grade), junior B (4th-6th grade), general (junior high and
    up); doubles junior pairs (two children, age 5 to 6th grade), family pairs (an adult with a
    child of age 5 to 6th grade), general pairs (junior high and up).
    """

    def div(id_: str, ja: str, en: str, *rules: MemberRule) -> Division:
        return Division(
            id=id_,
            name_ja=ja,
            name_en=en,
            format="singles" if len(rules) == 1 else "doubles",
            members=rules,
            match_time_s=match_time_s,
        )

    return (
        div("JA", "ジュニアA（シングルス）", "Junior A singles", _JUNIOR_A),
        div("JB", "ジュニアB（シングルス）", "Junior B singles", _JUNIOR_B),
        div("GS", "一般（シングルス）", "General singles", _GENERAL),
        div("JP", "ジュニアペア", "Junior pairs", _CHILD, _CHILD),
        div("FP", "親子ペア", "Family pairs", _ADULT, _CHILD),
        div("GP", "一般ペア", "General pairs", _GENERAL, _GENERAL),
    )
