"""The printable score sheet of a refereed match: A4 PDF with Japanese fonts (reportlab).

Needs reportlab (the ``server`` extra) and a Japanese TrueType font: IPA Gothic from Debian's
``fonts-ipafont-gothic`` by default (``HIKONE_CARROM_PDF_FONT`` names another file).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from hikone_carrom.export_text import markup
from hikone_carrom.rules import Color, explain_outcome
from hikone_carrom.rules.messages import Lang, color_name
from hikone_carrom.scoring.errors import ScoringError
from hikone_carrom.scoring.refereed import RefereedMatch
from hikone_carrom.scoring.sheet import sheet_rows

__all__ = ["FONT_CANDIDATES", "FONT_ENV_VAR", "sheet_pdf"]

FONT_ENV_VAR = "HIKONE_CARROM_PDF_FONT"
"""Environment variable naming a Japanese TrueType font file for the sheet."""

FONT_CANDIDATES = (
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
)
"""Where the IPA Gothic font lies on Debian (package fonts-ipafont-gothic)."""

_FONT = "HikoneSheetGothic"

_WORDS = {
    "en": {
        "title": "Hikone Carrom score sheet",
        "players": "Players",
        "time": "Match time",
        "untimed": "untimed",
        "minutes": "{m} min",
        "result": "Result",
        "score": "Score (100 x jack + pucks - debt, R7b)",
        "playing": "in progress",
        "confirmed": "confirmed at the board",
        "sign": "Referee ____________    Red ____________    Green ____________",
    },
    "ja": {
        "title": "彦根カロム 記録用紙",
        "players": "選手",
        "time": "試合時間",
        "untimed": "時間制限なし",
        "minutes": "{m}分",
        "result": "結果",
        "score": "得点（ジャック100＋パック−借り、R7b）",
        "playing": "試合中",
        "confirmed": "ボードで確定済み",
        "sign": "審判 ____________    赤 ____________    緑 ____________",
    },
}


_HEAD = {
    "en": ("#", "time", "player", "entry", "pen.", "jack spot", "R / G", "ruling"),
    "ja": ("番号", "時間", "選手", "入力", "罰", "ジャックスポット", "赤/緑", "裁定"),
}


def _font() -> str:
    if _FONT in pdfmetrics.getRegisteredFontNames():
        return _FONT
    chosen = os.environ.get(FONT_ENV_VAR)
    paths = [chosen] if chosen else list(FONT_CANDIDATES)
    for path in paths:
        if path and Path(path).is_file():
            pdfmetrics.registerFont(TTFont(_FONT, path))
            return _FONT
    raise ScoringError(
        "no Japanese font for the score sheet: apt-get install fonts-ipafont-gothic "
        f"(or set {FONT_ENV_VAR})",
        "記録用紙の日本語フォントがありません：apt-get install fonts-ipafont-gothic "
        f"（または {FONT_ENV_VAR} を設定）",
    )


def _text(text: str, style: ParagraphStyle) -> Paragraph:
    """A paragraph showing ``text`` literally (names and titles are never reportlab markup)."""
    return Paragraph(markup(text), style)


def sheet_pdf(match: RefereedMatch, lang: Lang = "ja", board: str = "") -> bytes:
    """The score sheet as PDF bytes: A4 portrait, every entry with its ruling and rule ids."""
    font = _font()
    words = _WORDS[lang]
    base = ParagraphStyle("base", fontName=font, fontSize=8, leading=10, wordWrap="CJK")
    small = ParagraphStyle("small", parent=base, fontSize=7, leading=8.5)
    title = ParagraphStyle("title", parent=base, fontSize=15, leading=19)
    out = io.BytesIO()
    doc = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=12 * mm,
        bottomMargin=12 * mm,
        title=words["title"],
        author="hikone-carrom",
    )
    heading = " · ".join(x for x in (words["title"], board, match.setup.title) if x)
    story: list[Flowable] = [_text(heading, title), Spacer(1, 2 * mm)]
    story += [_facts_table(match, lang, base), Spacer(1, 4 * mm)]
    story += [_entries_table(match, lang, small), Spacer(1, 8 * mm)]
    story.append(_text(words["sign"], base))
    doc.build(story)
    return out.getvalue()


def _facts_table(match: RefereedMatch, lang: Lang, style: ParagraphStyle) -> Table:
    """The sheet's head: players, match time, result and score."""
    words = _WORDS[lang]
    setup = match.setup
    players = "　".join(
        f"{color_name(c, lang)}: {'・'.join(setup.team(c))}" for c in (Color.RED, Color.GREEN)
    )
    minutes = (
        words["untimed"]
        if setup.match_time_s is None
        else words["minutes"].format(m=f"{setup.match_time_s / 60:g}")
    )
    scores = match.scores()
    if match.outcome is not None:
        result = explain_outcome(match.outcome, lang)
        if match.confirmed:
            result += f"（{words['confirmed']}）" if lang == "ja" else f" ({words['confirmed']})"
    else:
        result = words["playing"]
    facts = [
        (words["players"], players),
        (words["time"], minutes),
        (words["result"], result),
        (
            words["score"],
            f"{color_name(Color.RED, lang)} {scores[Color.RED]} — "
            f"{color_name(Color.GREEN, lang)} {scores[Color.GREEN]}",
        ),
    ]
    table = Table(
        [[_text(k, style), _text(v, style)] for k, v in facts],
        colWidths=[48 * mm, 138 * mm],
    )
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#f1ece2")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return table


def _entries_table(match: RefereedMatch, lang: Lang, small: ParagraphStyle) -> Table:
    """Every entry of the sheet (:func:`sheet_rows`) with its ruling and rule ids."""
    rows: list[list[object]] = [[_text(h, small) for h in _HEAD[lang]]]
    for r in sheet_rows(match, lang):
        seat = f"{r.seat}・{r.color}" if lang == "ja" else f"{r.seat}, {r.color}"
        rows.append(
            [
                _text(str(r.n), small),
                _text(r.at, small),
                Paragraph(f"{markup(r.player)}<br/>{markup(seat)}", small),
                _text(r.entry, small),
                _text(r.penalty, small),
                _text(r.pile, small),
                _text(f"{r.red} / {r.green}", small),
                Paragraph(
                    f"{markup(r.ruling)}<br/><font color='#8a5a00'>{markup(r.rules)}</font>", small
                ),
            ]
        )
    widths = [9 * mm, 11 * mm, 24 * mm, 28 * mm, 8 * mm, 23 * mm, 15 * mm, 68 * mm]
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.3, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e4dccb")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
                ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ]
        )
    )
    return table
