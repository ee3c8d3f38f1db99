"""The score sheet of a refereed match: one row per entry with its ruling, as the pad's history,
the CSV export and the printed PDF show it (Japanese or English)."""

from __future__ import annotations

from dataclasses import dataclass

from hikone_carrom.export_text import csv_text
from hikone_carrom.rules import Color, Piece
from hikone_carrom.rules.messages import Lang, color_name
from hikone_carrom.scoring.refereed import EntryKind, JudgedLine, RefereedMatch
from hikone_carrom.scoring.tap import describe_tap

__all__ = ["SheetRow", "pile_text", "sheet_csv", "sheet_rows"]

_PIECE = {
    "en": {Piece.RED: "R", Piece.GREEN: "G", Piece.JACK: "J"},
    "ja": {Piece.RED: "赤", Piece.GREEN: "緑", Piece.JACK: "ジ"},
}

_WORDS = {
    "en": {
        "lost": "lost shot (R8a)",
        "time": "time called (R7b)",
        "lot": "rock-paper-scissors: {color} (R7d)",
        "over": "over",
    },
    "ja": {
        "lost": "打つ権利を失った（R8a）",
        "time": "試合時間終了（R7b）",
        "lot": "じゃんけん：{color}（R7d）",
        "over": "終了",
    },
}


def pile_text(pieces: tuple[Piece, ...], lang: Lang = "en") -> str:
    """Pieces to the jack spot, bottom to top (R6d, R6e): "G R R J" / "緑 赤 赤 ジ"."""
    return " ".join(_PIECE[lang][p] for p in pieces)


@dataclass(frozen=True)
class SheetRow:
    """One line of the sheet; every field is text ready to print."""

    n: int
    at: str
    seat: str
    player: str
    color: str
    entry: str
    penalty: str
    rules: str
    pile: str
    red: str
    green: str
    next: str
    ruling: str


def _at(seconds: float | None) -> str:
    if seconds is None:
        return ""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _row(match: RefereedMatch, step: JudgedLine, lang: Lang) -> SheetRow:
    setup = match.setup
    words = _WORDS[lang]
    entry = step.entry
    if entry.kind is EntryKind.SHOT:
        assert entry.tap is not None
        what = describe_tap(entry.tap, lang)
    elif entry.kind is EntryKind.SKIP:
        what = words["lost"]
    elif entry.kind is EntryKind.CALL_TIME:
        what = words["time"]
    else:
        assert entry.winner is not None
        what = words["lot"].format(color=color_name(entry.winner, lang))
    ruling = step.ruling
    after = step.after

    def count(color: Color) -> str:
        debt = after.debt_of(color)
        text = str(after.pocketed_of(color))
        return f"{text} (-{debt})" if debt else text

    nxt = words["over"] if after.is_over else setup.names[after.shooter]
    return SheetRow(
        n=step.n,
        at=_at(entry.at),
        seat=setup.side(step.seat, lang),
        player=setup.names[step.seat],
        color=color_name(setup.color(step.seat), lang),
        entry=what,
        penalty=str(ruling.penalty) if ruling is not None and ruling.penalty else "",
        rules=" ".join(ruling.reasons) if ruling is not None else "",
        pile=pile_text(ruling.returned, lang) if ruling is not None else "",
        red=count(Color.RED),
        green=count(Color.GREEN),
        next="" if after.awaiting_lot else nxt,
        ruling=_sentences(step.explain(lang), lang),
    )


def _sentences(lines: tuple[str, ...], lang: Lang) -> str:
    end = "。" if lang == "ja" else ". "
    return (end.join(lines) + end).strip()


def sheet_rows(match: RefereedMatch, lang: Lang = "en") -> list[SheetRow]:
    """Every entry of ``match`` as a sheet row."""
    return [_row(match, s, lang) for s in match.steps]


_HEADERS = {
    "en": (
        "#",
        "time",
        "side",
        "player",
        "colour",
        "entry",
        "penalty",
        "rules",
        "jack spot (bottom to top)",
        "red in",
        "green in",
        "next",
        "ruling",
    ),
    "ja": (
        "番号",
        "時間",
        "席",
        "選手",
        "色",
        "入力",
        "ペナルティ",
        "ルール",
        "ジャックスポット（下から上）",
        "赤",
        "緑",
        "次",
        "裁定",
    ),
}


def sheet_csv(match: RefereedMatch, lang: Lang = "en") -> str:
    """The sheet as CSV text (a header row, then one row per entry; formulas neutralised)."""
    rows = [
        (
            row.n,
            row.at,
            row.seat,
            row.player,
            row.color,
            row.entry,
            row.penalty,
            row.rules,
            row.pile,
            row.red,
            row.green,
            row.next,
            row.ruling,
        )
        for row in sheet_rows(match, lang)
    ]
    return csv_text([_HEADERS[lang], *rows])
