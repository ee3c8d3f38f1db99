"""What a table referee taps for one shot (:class:`Tap`), and how it reads (ja/en).

A tap holds counts only, never positions: pucks and the jack pocketed or flown off the board,
the striker's fate, and the conduct fouls a referee sees (R4c, R5e, R5f). ``Tap()`` is the
one-tap "no pocket" entry.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from hikone_carrom.rules import Foul, Piece, ShotReport
from hikone_carrom.rules.messages import Lang
from hikone_carrom.scoring.errors import EntryError

__all__ = ["FIELD_NAMES", "MAX_COUNT", "Tap", "describe_tap"]

MAX_COUNT = 12
"""Most pucks of one colour a tap may name (R1a: 12 per colour)."""

_COUNTS = ("red", "green", "red_off", "green_off")
_FLAGS = (
    "jack",
    "jack_off",
    "striker_pocketed",
    "striker_off",
    "touched_striker",
    "unshootable_hit",
)


@dataclass(frozen=True)
class Tap:
    """One shot as the referee saw it.

    Attributes:
        red, green: pucks of each colour pocketed (0..12).
        jack: the jack was pocketed (R5b, R6a, R6b, R7a).
        red_off, green_off: pucks that flew off the board (R6c).
        jack_off: the jack flew off the board (R5d).
        striker_pocketed: the shooter's striker was pocketed (R5a).
        striker_off: the shooter's striker flew off the board (R5c).
        touched_striker: someone touched the moving striker (R5f).
        unshootable_hit: doubles: the striker hit an unshootable piece first-hand (R4c).
        wrong_order_seat: the seat that shot out of turn (R5e), ``None`` for a shot in turn.
    """

    red: int = 0
    green: int = 0
    jack: bool = False
    red_off: int = 0
    green_off: int = 0
    jack_off: bool = False
    striker_pocketed: bool = False
    striker_off: bool = False
    touched_striker: bool = False
    unshootable_hit: bool = False
    wrong_order_seat: int | None = None

    def __post_init__(self) -> None:
        for name in _COUNTS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise EntryError(
                    f"{_EN[name]} must be a whole number, not {value!r}",
                    f"{_JA[name]}は整数で入力してください（{value!r} は不可）",
                )
            if value < 0:
                raise EntryError(
                    f"{_EN[name]} cannot be negative ({value})",
                    f"{_JA[name]}に負の数（{value}）は入力できません",
                )
            if value > MAX_COUNT:
                raise EntryError(
                    f"{_EN[name]}: {value} is more than the {MAX_COUNT} pucks of a colour (R1a)",
                    f"{_JA[name]}：{value}個は1色の{MAX_COUNT}個を超えています（R1a）",
                )
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise EntryError(
                    f"{_EN[name]} must be yes or no", f"{_JA[name]}は「はい」か「いいえ」です"
                )
        seat = self.wrong_order_seat
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or seat < 0):
            raise EntryError(
                f"the seat that shot out of turn must be a seat number, not {seat!r} (R5e)",
                f"順番違いで打った席は席番号で指定してください（{seat!r} は不可、R5e）",
            )
        if self.jack and self.jack_off:
            raise EntryError(
                "there is one jack: it cannot be both pocketed and off the board",
                "ジャックは1個です。ポケットに入り、同時に盤の外に出ることはありません",
            )
        if self.striker_pocketed and self.striker_off:
            raise EntryError(
                "the striker cannot be both pocketed and off the board",
                "ストライカーがポケットに入り、同時に盤の外に出ることはありません",
            )

    @property
    def is_no_pocket(self) -> bool:
        """True for the one-tap entry: nothing pocketed, nothing off, no foul."""
        return self == Tap()

    def report(self) -> ShotReport:
        """The referee's :class:`ShotReport`: pieces in the order red, green, jack."""
        fouls = (Foul.TOUCHED_STRIKER,) if self.touched_striker else ()
        if self.wrong_order_seat is not None:
            fouls = (Foul.WRONG_ORDER, *fouls)
        return ShotReport(
            pocketed=(Piece.RED,) * self.red
            + (Piece.GREEN,) * self.green
            + ((Piece.JACK,) if self.jack else ()),
            off_board=(Piece.RED,) * self.red_off
            + (Piece.GREEN,) * self.green_off
            + ((Piece.JACK,) if self.jack_off else ()),
            striker_pocketed=self.striker_pocketed,
            striker_off_board=self.striker_off,
            unshootable_hit=self.unshootable_hit,
            fouls=fouls,
            seat=self.wrong_order_seat,
        )

    @classmethod
    def of_report(cls, report: ShotReport) -> Tap:
        """The tap a referee would make for ``report`` (the counts of each piece)."""
        return cls(
            red=report.count(Piece.RED),
            green=report.count(Piece.GREEN),
            jack=Piece.JACK in report.pocketed,
            red_off=report.count_off(Piece.RED),
            green_off=report.count_off(Piece.GREEN),
            jack_off=Piece.JACK in report.off_board,
            striker_pocketed=report.striker_pocketed,
            striker_off=report.striker_off_board,
            touched_striker=Foul.TOUCHED_STRIKER in report.fouls,
            unshootable_hit=report.unshootable_hit,
            wrong_order_seat=report.seat if Foul.WRONG_ORDER in report.fouls else None,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (every field)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Any) -> Tap:
        """Rebuild from :meth:`to_dict` output; missing fields take their defaults, unknown or
        mistyped ones raise :class:`EntryError`."""
        if not isinstance(data, dict):
            raise EntryError("a tap must be an object", "タップの内容はオブジェクトが必要です")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in set(data) - known)
        if unknown:
            raise EntryError(
                f"unknown tap fields: {', '.join(unknown)}",
                f"不明なタップの項目: {', '.join(unknown)}",
            )
        return cls(**data)


_EN = {
    "red": "Red pucks pocketed",
    "green": "Green pucks pocketed",
    "red_off": "Red pucks off the board",
    "green_off": "Green pucks off the board",
    "jack": "Jack pocketed",
    "jack_off": "Jack off the board",
    "striker_pocketed": "Striker pocketed",
    "striker_off": "Striker off the board",
    "touched_striker": "Touching the striker",
    "unshootable_hit": "Unshootable piece hit",
}
_JA = {
    "red": "ポケットに入った赤のパック",
    "green": "ポケットに入った緑のパック",
    "red_off": "盤外に出た赤のパック",
    "green_off": "盤外に出た緑のパック",
    "jack": "ジャックのポケット",
    "jack_off": "ジャックの盤外",
    "striker_pocketed": "ストライカーのポケット",
    "striker_off": "ストライカーの盤外",
    "touched_striker": "ストライカーへの接触",
    "unshootable_hit": "打てないパックへの直接の当たり",
}

FIELD_NAMES: dict[str, dict[Lang, str]] = {k: {"en": _EN[k], "ja": _JA[k]} for k in _EN}
"""Each tap field as its error messages name it (the pad's offline checks share them)."""

_SHORT = {
    "en": {
        "red": "red {n}",
        "green": "green {n}",
        "jack": "jack",
        "red_off": "red {n} off",
        "green_off": "green {n} off",
        "jack_off": "jack off",
        "striker_pocketed": "striker pocketed (R5a)",
        "striker_off": "striker off (R5c)",
        "touched_striker": "striker touched (R5f)",
        "unshootable_hit": "unshootable hit (R4c)",
        "wrong_order": "out of turn by seat {n} (R5e)",
        "none": "no pocket",
    },
    "ja": {
        "red": "赤{n}",
        "green": "緑{n}",
        "jack": "ジャック",
        "red_off": "赤{n}盤外",
        "green_off": "緑{n}盤外",
        "jack_off": "ジャック盤外",
        "striker_pocketed": "ストライカーがポケット（R5a）",
        "striker_off": "ストライカー盤外（R5c）",
        "touched_striker": "ストライカーに接触（R5f）",
        "unshootable_hit": "打てないパックに当てた（R4c）",
        "wrong_order": "席{n}が順番違い（R5e）",
        "none": "ポケットなし",
    },
}


def describe_tap(tap: Tap, lang: Lang = "en") -> str:
    """What was tapped, short: "red 2, jack, striker pocketed (R5a)" / "赤2、ジャック、..."."""
    words = _SHORT[lang]
    parts: list[str] = []
    for name in ("red", "green"):
        if getattr(tap, name):
            parts.append(words[name].format(n=getattr(tap, name)))
    if tap.jack:
        parts.append(words["jack"])
    for name in ("red_off", "green_off"):
        if getattr(tap, name):
            parts.append(words[name].format(n=getattr(tap, name)))
    for name in ("jack_off", "striker_pocketed", "striker_off", "touched_striker"):
        if getattr(tap, name):
            parts.append(words[name])
    if tap.unshootable_hit:
        parts.append(words["unshootable_hit"])
    if tap.wrong_order_seat is not None:
        parts.append(words["wrong_order"].format(n=tap.wrong_order_seat))
    if not parts:
        return words["none"]
    return ("、" if lang == "ja" else ", ").join(parts)
