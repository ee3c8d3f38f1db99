"""Printouts of an event as PDF (reportlab) in Japanese with the IPA Gothic font: pool sheets,
the board plan, brackets, results and certificates for places 1-3.

The font is Debian's ``fonts-ipafont-gothic`` (TrueType, embedded in every PDF).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from hikone_carrom.export_text import markup
from hikone_carrom.server.tournaments.views import clock
from hikone_carrom.tournament import BYE, Division, Tournament, TournamentError

if TYPE_CHECKING:
    from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = ["FONT", "KINDS", "bracket_pdf", "render"]

FONT = "IPAGothic"
FONT_PATHS = (
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
)
KINDS = ("pools", "plan", "bracket", "results", "certificates")


def _font() -> str:
    if FONT in pdfmetrics.getRegisteredFontNames():
        return FONT
    for path in FONT_PATHS:
        if Path(path).is_file():
            pdfmetrics.registerFont(TTFont(FONT, path))
            return FONT
    raise TournamentError(
        "no_font",
        "The Japanese font is missing: apt-get install fonts-ipafont-gothic",
        "日本語フォントがありません（apt-get install fonts-ipafont-gothic）",
    )


def _style(size: float = 9, leading: float | None = None) -> ParagraphStyle:
    return ParagraphStyle("t", fontName=_font(), fontSize=size, leading=leading or size * 1.3)


def _para(text: str, size: float) -> Paragraph:
    """A paragraph showing ``text`` literally: every Paragraph of the printouts is made here,
    so no user text is read as reportlab markup (``<img src=...>``, ``<b>``, ``&``)."""
    return Paragraph(markup(text), _style(size))


def _table(rows: Sequence[Sequence[Any]], widths: Sequence[float], size: float = 8) -> Table:
    table = Table([list(r) for r in rows], colWidths=list(widths), repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), _font()),
                ("FONTSIZE", (0, 0), (-1, -1), size),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8eef4")),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
    )
    return table


def _divisions(event: Tournament, division: str | None) -> list[Division]:
    if division is None:
        return list(event.divisions.values())
    return [event.division(division)]


def _title(live: LiveTournament, what_ja: str, what_en: str) -> list[Any]:
    s = live.event.settings
    return [
        _para(f"{s.name}　{what_ja}", 15),
        _para(f"{what_en} — {s.date}", 9),
        Spacer(1, 4 * mm),
    ]


def _pools(live: LiveTournament, division: str | None) -> list[Any]:
    event = live.event
    story: list[Any] = _title(live, "予選リーグ表", "Pool sheets")
    any_pool = False
    for d in _divisions(event, division):
        for pool in event.pools.get(d.id, ()):
            any_pool = True
            table = {s.entry: s for s in event.standings(d.id, pool.number)}
            story.append(
                _para(f"{d.name_ja}　{pool.label}リーグ（{d.name_en}, pool {pool.label}）", 12)
            )
            rows: list[list[Any]] = [
                ["No", "氏名 name", "よみ", "所属 club", "勝点", "得失点差", "パック", "順位"]
            ]
            for i, eid in enumerate(pool.entries, start=1):
                e, s = event.entry(eid), table[eid]
                rows.append(
                    [
                        i,
                        e.name,
                        e.reading,
                        e.club,
                        s.match_points,
                        s.difference,
                        s.pucks,
                        "棄権" if s.withdrawn else s.place,
                    ]
                )
            story.append(
                _table(
                    rows, [10 * mm, 50 * mm, 42 * mm, 40 * mm, 12 * mm, 15 * mm, 12 * mm, 12 * mm]
                )
            )
            story.append(Spacer(1, 3 * mm))
            games: list[list[Any]] = [
                ["試合", "台 board", "時刻", "サイド1", "得点", "得点", "サイド2"]
            ]
            for m in event.matches(d.id):
                if m.pool != pool.number:
                    continue
                slot = event.plan.slot(m.id) if event.plan else None
                a, b = event.side_names(m)
                r = event.results.get(m.id)
                games.append(
                    [
                        m.name_ja,
                        slot.board if slot else "",
                        clock(slot.start_s) if slot else "",
                        a,
                        r.scores[0] if r else "",
                        r.scores[1] if r else "",
                        b,
                    ]
                )
            story.append(
                _table(games, [32 * mm, 16 * mm, 14 * mm, 50 * mm, 14 * mm, 14 * mm, 50 * mm])
            )
            story.append(PageBreak())
    if not any_pool:
        raise TournamentError("not_drawn", "No pools drawn yet", "まだ組み合わせがありません")
    return story


def _plan(live: LiveTournament, division: str | None) -> list[Any]:
    event = live.event
    if event.plan is None:
        raise TournamentError("no_plan", "Make the board plan first", "先に台割りを作ってください")
    story: list[Any] = _title(live, "台割り表", "Board plan")
    rows: list[list[Any]] = [["時刻 time", "台 board", "部門", "試合", "サイド1", "サイド2"]]
    for slot in event.plan.slots:
        m = event.match(slot.match)
        if division is not None and m.division != division:
            continue
        a, b = event.side_names(m)
        rows.append(
            [f"{clock(slot.start_s)}–{clock(slot.end_s)}", slot.board, m.division, m.name_ja, a, b]
        )
    story.append(_table(rows, [26 * mm, 14 * mm, 14 * mm, 34 * mm, 48 * mm, 48 * mm]))
    return story


def _occupants(event: Tournament, division: str) -> list[list[str]]:
    """Names on each line of each round of a bracket (round 0 = the lines; "" = nobody)."""
    bracket = event.brackets[division]
    qualifiers = event.qualifiers(division)
    sides = bracket.sides(qualifiers, event.results)
    names: list[list[str]] = [
        [
            ""
            if p is None
            else (
                event.entry(qualifiers[p]).name
                if qualifiers.get(p)
                else ("—" if qualifiers.get(p) == BYE else "")
            )
            for p in bracket.lines
        ]
    ]
    ids: list[list[str | None]] = [
        [None if p is None else qualifiers.get(p) for p in bracket.lines]
    ]
    for rnd in range(1, bracket.rounds + 1):
        row: list[str] = []
        row_ids: list[str | None] = []
        for k in range(len(names[-1]) // 2):
            a_id, b_id = ids[-1][2 * k], ids[-1][2 * k + 1]
            match = next(
                (
                    m
                    for m in bracket.matches
                    if m.round == rnd and m.slot == k and not m.third_place
                ),
                None,
            )
            if match is None:  # a bye: the other side goes through
                carried = names[-1][2 * k] or names[-1][2 * k + 1]
                row.append(carried)
                row_ids.append(a_id if names[-1][2 * k] else b_id)
                continue
            result = event.results.get(match.id)
            pair = sides[match.id]
            if result is not None and result.winner is not None and None not in pair:
                winner = pair[result.winner]
                row.append(event.entry(winner).name if winner else "")
                row_ids.append(winner)
            else:
                row.append("")
                row_ids.append(None)
        names.append(row)
        ids.append(row_ids)
    return names


BLOCK = 32
"""Lines of a bracket on one page: a larger bracket is printed in blocks of this many lines
(their first five rounds), then the block winners on to the final."""


def _round_names(rounds: int) -> list[tuple[str, str]]:
    """(ja, en) name of each round 1..``rounds``; index 0 names the lines."""
    out = [("出場者", "Qualifiers")]
    for rnd in range(1, rounds + 1):
        to_go = rounds - rnd
        finals = (("決勝", "Final"), ("準決勝", "Semi-final"), ("準々決勝", "Quarter-final"))
        out.append(finals[to_go] if to_go < 3 else (f"{rnd}回戦", f"Round {rnd}"))
    out.append(("優勝", "Champion"))
    return out


def _fit(canvas: Canvas, text: str, size: float, width: float) -> str:
    """``text`` cut to ``width`` points in the bracket's font."""
    font = _font()
    while text and canvas.stringWidth(text, font, size) > width:
        text = text[:-1]
    return text


class _BracketPages:
    """Draws one division's bracket on landscape A4 pages (see :data:`BLOCK`)."""

    def __init__(self, canvas: Canvas, event: Tournament, division: Division) -> None:
        self.canvas = canvas
        self.event = event
        self.division = division
        self.names = _occupants(event, division.id)
        bracket = event.brackets[division.id]
        self.labels = ["" if p is None else p.label for p in bracket.lines]
        self.rounds = bracket.rounds
        self.round_names = _round_names(bracket.rounds)
        self.layout = self._layout(0, len(self.names[0]))

    def _layout(self, round0: int, lines: int) -> list[tuple[int, int, int, int]]:
        """Pages as (first round, first line, lines, rounds drawn): blocks of :data:`BLOCK`
        lines over their own rounds, then the block winners on (recursively)."""
        per_block = min(BLOCK, lines)
        depth = per_block.bit_length() - 1
        if lines <= BLOCK:
            return [(round0, 0, lines, self.rounds - round0)]
        pages = [(round0, start, per_block, depth) for start in range(0, lines, per_block)]
        return pages + self._layout(round0 + depth, lines // per_block)

    def draw(self) -> None:
        """Every page of the bracket."""
        for number, (round0, start, count, depth) in enumerate(self.layout, start=1):
            self._page(number, round0, start, count, depth)

    def _page(self, number: int, round0: int, start: int, count: int, depth: int) -> None:
        c = self.canvas
        font = _font()
        page_w, page_h = landscape(A4)
        d = self.division
        c.setFont(font, 13)
        c.drawString(
            12 * mm,
            page_h - 13 * mm,
            f"{self.event.settings.name}　{d.name_ja} 決勝トーナメント（{d.name_en} knockout）",
        )
        c.setFont(font, 9)
        blocks = sum(1 for p in self.layout if p[0] == round0)
        where = f"ブロック{start // count + 1} Block {start // count + 1}　" if blocks > 1 else ""
        c.drawRightString(
            page_w - 12 * mm, page_h - 13 * mm, f"{where}{number} / {len(self.layout)}"
        )
        top, bottom = page_h - 27 * mm, 14 * mm
        h = min((top - bottom) / count, 16 * mm)
        top -= ((page_h - 27 * mm - bottom) - h * count) / 2  # a short page is centred
        size = max(6.5, min(10.0, h * 0.62))
        first_w = 62 * mm if round0 == 0 else 50 * mm
        col = (page_w - 24 * mm - first_w) / max(depth, 1)

        def x_of(r: int) -> float:
            return 12 * mm + (0 if r == 0 else first_w + (r - 1) * col)

        for r in range(depth + 1):
            rnd = round0 + r
            ja, en = (
                self.round_names[rnd] if r or round0 == 0 else ("ブロック勝者", "Block winners")
            )
            c.setFont(font, 8)
            c.drawString(x_of(r) + 2, page_h - 21 * mm, f"{ja} {en}")
        for r in range(depth + 1):
            rnd = round0 + r
            span = 2**r
            width = first_w if r == 0 else col
            for k in range(count // span):
                idx = start // span + k
                name = self.names[rnd][idx]
                y = top - (k * span + span / 2) * h
                x = x_of(r)
                if r == 0 and round0 == 0:
                    label = self.labels[idx]
                    text = f"{label}  {name}" if label else "（不戦 bye）"
                    if label and not name:
                        text = f"{label}  （未定）"
                elif r == 0:
                    text = f"ブロック{idx + 1} Block {idx + 1}  {name}"
                else:
                    text = name
                c.setFont(font, size)
                c.drawString(x + 2, y + 2, _fit(c, text, size, width - 4))
                c.line(x, y, x + width, y)
                if r > 0:
                    c.line(x, y - span / 4 * h, x, y + span / 4 * h)
        if round0 + depth >= self.rounds:
            self._third_place(top)
        c.showPage()

    def _third_place(self, top: float) -> None:
        """The third-place match and the places, under the final on the last page."""
        c = self.canvas
        font = _font()
        page_w, _ = landscape(A4)
        lines = []
        third = next(
            (m for m in self.event.matches(self.division.id) if m.id.endswith("-3rd")), None
        )
        if third is not None:
            a, b = self.event.side_names(third)
            result = self.event.results.get(third.id)
            won = "" if result is None or result.winner is None else f" → {(a, b)[result.winner]}"
            lines.append(f"3位決定戦 Third-place match: {a} 対 {b}{won}")
        for place, ids in sorted(self.event.final_places(self.division.id).items()):
            names = "・".join(self.event.entry(e).name for e in ids)
            lines.append(f"第{place}位 Place {place}: {names}")
        c.setFont(font, 9)
        for i, text in enumerate(lines):
            c.drawString(page_w / 2, 14 * mm + (len(lines) - i) * 5 * mm, text)


def bracket_pdf(event: Tournament, division: str | None = None) -> bytes:
    """The knockout brackets (of one division or all) as PDF: up to 32 lines a page; a larger
    bracket in blocks of 32 lines, then a page from the block winners to the final (with the
    third-place match and the places)."""
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=landscape(A4))
    canvas.setTitle(f"{event.settings.name} bracket")
    drawn = False
    for d in _divisions(event, division):
        if d.id in event.brackets:
            _BracketPages(canvas, event, d).draw()
            drawn = True
    if not drawn:
        raise TournamentError("not_drawn", "No bracket yet", "まだトーナメント表がありません")
    canvas.save()
    return buf.getvalue()


def _results(live: LiveTournament, division: str | None) -> list[Any]:
    event = live.event
    story: list[Any] = _title(live, "成績表", "Results")
    for d in _divisions(event, division):
        story.append(_para(f"{d.name_ja}（{d.name_en}）", 12))
        places = event.final_places(d.id)
        rows: list[list[Any]] = [["順位 place", "氏名 name", "所属 club"]]
        for place in sorted(places):
            for eid in places[place]:
                e = event.entry(eid)
                rows.append([f"第{place}位", e.name, e.club])
        if len(rows) > 1:
            story.append(_table(rows, [25 * mm, 80 * mm, 60 * mm], size=10))
            story.append(Spacer(1, 3 * mm))
        for pool in event.pools.get(d.id, ()):
            table: list[list[Any]] = [
                ["順位", f"{pool.label}リーグ", "勝", "分", "負", "勝点", "得失点差", "パック"]
            ]
            for s in event.standings(d.id, pool.number):
                table.append(
                    [
                        ("棄権" if s.withdrawn else s.place),
                        event.entry(s.entry).name,
                        s.won,
                        s.drawn,
                        s.lost,
                        s.match_points,
                        s.difference,
                        s.pucks,
                    ]
                )
            story.append(
                _table(
                    table, [14 * mm, 60 * mm, 10 * mm, 10 * mm, 10 * mm, 14 * mm, 18 * mm, 14 * mm]
                )
            )
            story.append(Spacer(1, 2 * mm))
        story.append(PageBreak())
    return story


def _certificates(live: LiveTournament, division: str | None) -> bytes:
    event = live.event
    buf = io.BytesIO()
    width, height = A4
    canvas = Canvas(buf, pagesize=A4)
    font = _font()
    pages = 0
    for d in _divisions(event, division):
        places = event.final_places(d.id)
        for place in (1, 2, 3):
            for eid in places.get(place, []):
                for person in event.entry(eid).members:
                    pages += 1
                    canvas.setLineWidth(3)
                    canvas.rect(12 * mm, 12 * mm, width - 24 * mm, height - 24 * mm)
                    canvas.setFont(font, 44)
                    canvas.drawCentredString(width / 2, height - 60 * mm, "賞　状")
                    canvas.setFont(font, 12)
                    canvas.drawCentredString(width / 2, height - 70 * mm, "Certificate")
                    canvas.setFont(font, 28)
                    canvas.drawCentredString(width / 2, height - 100 * mm, f"第{place}位")
                    canvas.setFont(font, 16)
                    canvas.drawCentredString(width / 2, height - 115 * mm, d.name_ja)
                    canvas.setFont(font, 26)
                    canvas.drawCentredString(width / 2, height - 140 * mm, f"{person.name}　殿")
                    canvas.setFont(font, 13)
                    text = (
                        f"あなたは{event.settings.name}{d.name_ja}において",
                        "頭書の成績を収められましたので",
                        "ここにこれを賞します",
                    )
                    for i, line in enumerate(text):
                        canvas.drawCentredString(width / 2, height - (165 + 9 * i) * mm, line)
                    canvas.setFont(font, 10)
                    canvas.drawCentredString(
                        width / 2,
                        height - 200 * mm,
                        f"Place {place}, {d.name_en}, {event.settings.name}",
                    )
                    canvas.setFont(font, 13)
                    canvas.drawCentredString(width / 2, 45 * mm, event.settings.date)
                    canvas.drawCentredString(width / 2, 35 * mm, f"{event.settings.name} 大会長")
                    canvas.showPage()
    if not pages:
        raise TournamentError(
            "no_places", "No places 1-3 decided yet", "まだ1〜3位が決まっていません"
        )
    canvas.save()
    return buf.getvalue()


def render(live: LiveTournament, kind: str, division: str | None = None) -> bytes:
    """The PDF of ``kind`` (one of :data:`KINDS`) for one division or all."""
    if division is not None:
        live.event.division(division)
    if kind == "bracket":
        return bracket_pdf(live.event, division)
    if kind == "certificates":
        return _certificates(live, division)
    builders = {"pools": _pools, "plan": _plan, "results": _results}
    if kind not in builders:
        raise TournamentError("bad_kind", f"No printout {kind!r}", f"印刷物「{kind}」はありません")
    story = builders[kind](live, division)
    buf = io.BytesIO()
    doc = SimpleDocTemplate(
        buf,
        pagesize=A4,
        leftMargin=10 * mm,
        rightMargin=10 * mm,
        topMargin=12 * mm,
        bottomMargin=12 * mm,
        title=f"{live.event.settings.name} {kind}",
    )
    doc.build(story)
    return buf.getvalue()
