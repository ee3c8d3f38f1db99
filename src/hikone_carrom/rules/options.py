"""Rule options: every reading of docs/rules.md as a named option, the reading as its default.

A club with another house rule switches an option; the referee reads nothing else. Times are in
seconds (s). :meth:`RuleOptions.championship` gives the Japan Championship timing (R7e).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from hikone_carrom.rules.errors import InvalidOptionsError, StateFormatError

__all__ = [
    "CHAMPIONSHIP_MATCH_TIME_S",
    "CoveredAreaLine",
    "Deadlock",
    "RuleOptions",
    "WrongOrderTurn",
]

CHAMPIONSHIP_MATCH_TIME_S = 300.0
"""Japan Championship match time, s: 5 minutes, finals excepted (R7e)."""

CoveredAreaLine = Literal["nearest_free", "pass"]
Deadlock = Literal["draw", "lot"]
WrongOrderTurn = Literal["rightful", "after_offender"]


@dataclass(frozen=True)
class RuleOptions:
    """Named choices where the official text is silent or ambiguous (the readings of docs/rules.md).

    Attributes:
        first_seat: seat that won rock-paper-scissors; it plays red and shoots first (R1b).
        first_shot_per_player: each player's first shot is from the tee spot (True), or only the
            game's very first shot (False) (R2a).
        covered_area_line: when no free place for the striker overlaps the shooter's area line,
            the striker goes at the free point nearest the tee spot, as for a covered tee spot
            ("nearest_free"), or the turn passes without penalty ("pass") (R2b; the source is
            silent, docs/rules.md).
        unshootable_penalty: pucks owed for hitting an unshootable piece first-hand (R4c; 0 = the
            source lists none, 1 = a common house rule).
        penalties_add_up: counts of several fouls in one shot add up (True) or the largest one
            applies (False) (R5g).
        debt_payment_is_success: an own puck that goes in and pays debt still makes the shot a
            success, so the shooter continues (R5i, R3a).
        foul_voids_win: any other foul in the shot that pockets the jack after all own pucks voids
            the win (R6b).
        debt_counts_in_score: outstanding debt is subtracted from the score at time (R7b).
        deadlock: result when still level after the extra rounds: "draw" or "lot"
            (rock-paper-scissors, supplied by the caller) (R7d).
        max_extra_rounds: cap on extra full rounds after a level timed match; ``None`` = no cap
            (R7c, R7d).
        shot_clock_each_shot: every shot, a continuation too, gets its own 10 s (R8a).
        refereed_fouls: accept R5e (wrong order) and R5f (touched striker) in reports; the digital
            game, which prevents them, turns this off (R5k).
        wrong_order_turn: after a shot out of turn, the seat whose turn it was keeps it
            ("rightful") or the turn passes to the seat after the offender ("after_offender")
            (R5e; the source is silent, this is the referee's own reading).
        match_time_s: match time, s; ``None`` = untimed (R7b, R7e).
        final_phase_s: the 10-second rule applies this long before the end, s (R8a).
        shot_time_s: time allowed for a shot under the 10-second rule, s (R8a).
    """

    first_seat: int = 0
    first_shot_per_player: bool = True
    covered_area_line: CoveredAreaLine = "nearest_free"
    unshootable_penalty: int = 0
    penalties_add_up: bool = True
    debt_payment_is_success: bool = True
    foul_voids_win: bool = True
    debt_counts_in_score: bool = True
    deadlock: Deadlock = "draw"
    max_extra_rounds: int | None = 3
    shot_clock_each_shot: bool = True
    refereed_fouls: bool = True
    wrong_order_turn: WrongOrderTurn = "rightful"
    match_time_s: float | None = None
    final_phase_s: float = 60.0
    shot_time_s: float = 10.0

    def __post_init__(self) -> None:
        for name in (
            "first_shot_per_player",
            "penalties_add_up",
            "debt_payment_is_success",
            "foul_voids_win",
            "debt_counts_in_score",
            "shot_clock_each_shot",
            "refereed_fouls",
        ):
            if not isinstance(getattr(self, name), bool):
                _bad(name, "must be True or False", "True か False で指定してください")
        _check_count("first_seat", self.first_seat, upper=3)
        _check_count("unshootable_penalty", self.unshootable_penalty, upper=12)
        if self.max_extra_rounds is not None:
            _check_count("max_extra_rounds", self.max_extra_rounds, upper=1000)
        if self.covered_area_line not in ("nearest_free", "pass"):
            _bad(
                "covered_area_line",
                'must be "nearest_free" or "pass"',
                '"nearest_free" か "pass" で指定してください',
            )
        if self.deadlock not in ("draw", "lot"):
            _bad("deadlock", 'must be "draw" or "lot"', '"draw" か "lot" で指定してください')
        if self.wrong_order_turn not in ("rightful", "after_offender"):
            _bad(
                "wrong_order_turn",
                'must be "rightful" or "after_offender"',
                '"rightful" か "after_offender" で指定してください',
            )
        for name, allow_zero in (
            ("match_time_s", False),
            ("final_phase_s", True),
            ("shot_time_s", False),
        ):
            value = getattr(self, name)
            if value is not None or name != "match_time_s":
                object.__setattr__(self, name, _seconds(name, value, allow_zero=allow_zero))

    @classmethod
    def championship(cls, **changes: Any) -> RuleOptions:
        """Japan Championship settings: 5-minute matches with the 10-second rule (R7e, R8a)."""
        values: dict[str, Any] = {"match_time_s": CHAMPIONSHIP_MATCH_TIME_S}
        values.update(changes)
        return cls(**values)

    @property
    def timed(self) -> bool:
        """True when the match has a time limit (R7b)."""
        return self.match_time_s is not None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict of every option."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> RuleOptions:
        """Rebuild from :meth:`to_dict` output; missing keys take their defaults."""
        if not isinstance(data, dict):
            raise StateFormatError(
                "rule options must be a dict", "ルールオプションは dict が必要です"
            )
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise StateFormatError(
                f"unknown rule options: {', '.join(map(str, unknown))}",
                f"不明なルールオプション: {', '.join(map(str, unknown))}",
            )
        try:
            return cls(**data)
        except InvalidOptionsError as err:
            raise StateFormatError(err.en, err.ja) from err


def _bad(name: str, en: str, ja: str) -> None:
    raise InvalidOptionsError(f"RuleOptions.{name} {en}", f"RuleOptions.{name}：{ja}")


def _check_count(name: str, value: object, *, upper: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= upper:
        _bad(name, f"must be an integer 0..{upper}", f"0〜{upper} の整数で指定してください")


def _seconds(name: str, value: object, *, allow_zero: bool) -> float:
    """``value`` as a float number of seconds, or InvalidOptionsError."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            seconds = float(value)
        except OverflowError:  # an int too large for a float
            seconds = math.inf
        if math.isfinite(seconds) and (seconds >= 0.0 if allow_zero else seconds > 0.0):
            return seconds
    raise InvalidOptionsError(
        f"RuleOptions.{name} must be a finite positive number of seconds (s)",
        f"RuleOptions.{name}：秒単位の有限な正の数で指定してください",
    )
