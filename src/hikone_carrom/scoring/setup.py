"""Who plays a refereed match and how: names per seat, colours and order, match time, R7d.

Seats are numbered in the order of play (R1c), as in docs/architecture.md: singles seat 0 south
(red, won rock-paper-scissors, R1b) and seat 1 north (green); doubles clockwise seat 0 south
(red A), 1 west (green A), 2 north (red B), 3 east (green B). A set-up can be typed on the pad or
made by the server for a board (a championship's board call) and sent to it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from hikone_carrom.name_text import unsafe_name
from hikone_carrom.rules import (
    CHAMPIONSHIP_MATCH_TIME_S,
    Color,
    RuleOptions,
    RulesError,
    seat_color,
)
from hikone_carrom.rules.messages import Lang
from hikone_carrom.rules.options import Deadlock
from hikone_carrom.scoring.errors import SetupError

__all__ = ["DEFAULT_MATCH_TIME_S", "MAX_NAME", "MatchSetup", "seat_side"]

DEFAULT_MATCH_TIME_S = CHAMPIONSHIP_MATCH_TIME_S
"""A pad's match time unless set otherwise, s (R7e: 5 minutes)."""

MAX_NAME = 40
"""Longest player name, characters."""

_SIDES = {2: ("S", "N"), 4: ("S", "W", "N", "E")}
_SIDE_NAMES = {
    "en": {"S": "South", "W": "West", "N": "North", "E": "East"},
    "ja": {"S": "南", "W": "西", "N": "北", "E": "東"},
}


def seat_side(seat: int, players: int, lang: Lang | None = None) -> str:
    """The side of the board a seat plays from: "S", "W", "N", "E" (or its name in ``lang``)."""
    side = _SIDES[players][seat]
    return side if lang is None else _SIDE_NAMES[lang][side]


@dataclass(frozen=True)
class MatchSetup:
    """A refereed match's set-up.

    Attributes:
        names: one name per seat in the order of play (2 for singles, 4 for doubles); the first
            seat plays red and shoots first (R1b, R1c).
        match_time_s: match time, s; ``None`` = untimed (finals, R7e).
        deadlock: still level after the extra rounds: "draw" or "lot" (rock-paper-scissors, R7d).
        title: what the match is, e.g. "第17台 予選A" (free text).
        options: every other rule option; ``match_time_s`` and ``deadlock`` above win, and
            refereed fouls (R5e, R5f) are always on (R5k).
    """

    names: tuple[str, ...]
    match_time_s: float | None = DEFAULT_MATCH_TIME_S
    deadlock: Deadlock = "draw"
    title: str = ""
    options: RuleOptions = field(default_factory=RuleOptions)

    def __post_init__(self) -> None:
        names = self.names
        if isinstance(names, str) or not isinstance(names, tuple | list):
            raise SetupError("names must be a list of names", "名前は名前の並びで指定してください")
        names = tuple(names)
        object.__setattr__(self, "names", names)
        if len(names) not in (2, 4):
            raise SetupError(
                f"a match has 2 players (singles) or 4 (doubles), not {len(names)}",
                f"試合は2人（シングルス）か4人（ダブルス）です（{len(names)}人は不可）",
            )
        for name in names:
            if not isinstance(name, str) or len(name) > MAX_NAME or not name.strip():
                raise SetupError(
                    f"every player needs a name of 1 to {MAX_NAME} characters",
                    f"全員に1〜{MAX_NAME}文字の名前が必要です",
                )
            if unsafe_name(name):
                raise SetupError(
                    f"the name {name!r} holds a control character or < >",
                    f"名前 {name!r} に制御文字か < > が含まれています",
                )
        object.__setattr__(self, "names", tuple(n.strip() for n in names))
        if not isinstance(self.title, str) or len(self.title) > 80:
            raise SetupError("the title is text of at most 80 characters", "題名は80文字までです")
        time_s = self.match_time_s
        if time_s is not None and (
            isinstance(time_s, bool)
            or not isinstance(time_s, int | float)
            or not math.isfinite(time_s)
            or not 0 < time_s <= 7200
        ):
            raise SetupError(
                f"the match time must be more than 0 and at most 120 minutes, not {time_s!r}",
                f"試合時間は0分より長く120分以内です（{time_s!r} は不可）",
            )
        if self.deadlock not in ("draw", "lot"):
            raise SetupError(
                'the deadlock result must be "draw" or "lot" (R7d)',
                "こう着時の決め方は「引き分け」か「じゃんけん」です（R7d）",
            )
        if not isinstance(self.options, RuleOptions):
            raise SetupError("options must be RuleOptions", "options は RuleOptions が必要です")
        try:
            merged = self.options.__class__(
                **{
                    **self.options.to_dict(),
                    "match_time_s": None if time_s is None else float(time_s),
                    "deadlock": self.deadlock,
                    "refereed_fouls": True,
                    "first_seat": 0,
                }
            )
        except RulesError as err:
            raise SetupError(err.en, err.ja) from err
        object.__setattr__(self, "options", merged)

    @classmethod
    def singles(
        cls,
        red: str,
        green: str,
        *,
        minutes: float | None = 5.0,
        deadlock: Deadlock = "draw",
        title: str = "",
    ) -> MatchSetup:
        """Singles: ``red`` won rock-paper-scissors and shoots first from the south (R1b)."""
        return cls((red, green), None if minutes is None else minutes * 60.0, deadlock, title)

    @classmethod
    def doubles(
        cls,
        red: tuple[str, str],
        green: tuple[str, str],
        *,
        minutes: float | None = 5.0,
        deadlock: Deadlock = "draw",
        title: str = "",
    ) -> MatchSetup:
        """Doubles: red A (south) shoots first, then green A (west), red B (north), green B
        (east), clockwise; partners sit opposite (R1c)."""
        names = (red[0], green[0], red[1], green[1])
        return cls(names, None if minutes is None else minutes * 60.0, deadlock, title)

    @property
    def players(self) -> int:
        """2 (singles) or 4 (doubles)."""
        return len(self.names)

    @property
    def timed(self) -> bool:
        """True for a timed match (R7b, R8a)."""
        return self.match_time_s is not None

    def color(self, seat: int) -> Color:
        """The colour a seat plays (R1c)."""
        return seat_color(seat)

    def side(self, seat: int, lang: Lang | None = None) -> str:
        """The side a seat plays from ("S", "W", "N", "E")."""
        return seat_side(seat, self.players, lang)

    def team(self, color: Color) -> tuple[str, ...]:
        """The names playing ``color``, in order of play."""
        return tuple(n for s, n in enumerate(self.names) if seat_color(s) is color)

    def seat_label(self, seat: int, lang: Lang = "en") -> str:
        """ "Tanaka (South, red)" / "田中（南・赤）"."""
        color = {
            "en": {Color.RED: "red", Color.GREEN: "green"},
            "ja": {Color.RED: "赤", Color.GREEN: "緑"},
        }
        side = self.side(seat, lang)
        if lang == "ja":
            return f"{self.names[seat]}（{side}・{color['ja'][self.color(seat)]}）"
        return f"{self.names[seat]} ({side}, {color['en'][self.color(seat)]})"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict."""
        return {
            "names": list(self.names),
            "match_time_s": self.match_time_s,
            "deadlock": self.deadlock,
            "title": self.title,
            "options": self.options.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> MatchSetup:
        """Rebuild from :meth:`to_dict` output (``options`` optional: the defaults)."""
        if not isinstance(data, dict):
            raise SetupError("a match set-up must be an object", "試合設定はオブジェクトが必要です")
        unknown = sorted(
            str(k) for k in set(data) - {"names", "match_time_s", "deadlock", "title", "options"}
        )
        if unknown:
            raise SetupError(
                f"unknown set-up fields: {', '.join(unknown)}",
                f"不明な試合設定の項目: {', '.join(unknown)}",
            )
        if "names" not in data:
            raise SetupError("the set-up lacks the names", "試合設定に名前がありません")
        try:
            options = RuleOptions.from_dict(data.get("options", {}))
        except RulesError as err:
            raise SetupError(err.en, err.ja) from err
        names = data["names"]
        if not isinstance(names, list):
            raise SetupError("names must be a list of names", "名前は名前の並びで指定してください")
        return cls(
            names=tuple(names),
            match_time_s=data.get("match_time_s", DEFAULT_MATCH_TIME_S),
            deadlock=data.get("deadlock", "draw"),
            title=data.get("title", ""),
            options=options,
        )
