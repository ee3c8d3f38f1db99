"""User text made inert where it is exported: reportlab's paragraph markup and spreadsheet CSV.

Names, clubs and titles are plain text: :func:`markup` escapes them for a reportlab
``Paragraph`` (whose text is XML-like markup: ``<img src=...>`` would embed a file the server can
read), and :func:`csv_text` writes every CSV the server hands out with formula prefixes
neutralised (OWASP "CSV injection": a cell starting ``=``, ``+``, ``-``, ``@``, tab or CR gets a
leading ``'``; so does one starting ``'``, so stripping one leading ``'`` gives the text back).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from xml.sax.saxutils import escape

__all__ = ["FORMULA_PREFIXES", "csv_cell", "csv_text", "markup"]

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "'")
"""First characters a spreadsheet may read as a formula (and the quote that marks them)."""


def markup(text: object) -> str:
    """``text`` as reportlab paragraph markup that shows it literally (``&``, ``<``, ``>``)."""
    return escape(str(text))


def csv_cell(value: object) -> object:
    """A CSV cell: text starting with a formula prefix gets a leading ``'``; numbers as is."""
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


def csv_text(rows: Iterable[Iterable[object]], lineterminator: str = "\r\n") -> str:
    """``rows`` as CSV text, every cell through :func:`csv_cell`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=lineterminator)
    writer.writerows([csv_cell(v) for v in row] for row in rows)
    return out.getvalue()
