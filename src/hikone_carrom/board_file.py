"""Board files: a :class:`~hikone_carrom.board.BoardSpec` as a small JSON document.

Written by ``hikone-carrom calibrate`` (fitted to a club's measured shots) or by hand, and loaded
by every command that uses a board with ``--board FILE`` (docs/physics.md "Board files")::

    {"format": "hikone-carrom-board", "version": 1,
     "board": {"friction": 0.13, "restitution_rail": 0.62, ...},
     "note": "free text, e.g. where the figures come from"}

Figures left out of ``board`` take the defaults; unknown names and bad values are refused.
``--board`` also takes the names of the built-in boards (:data:`BUILT_IN`): ``standard`` (the
defaults) and ``legacy`` (the physics without disk, rail and stack friction that the computer
players were tuned and measured on, docs/ai.md).
"""

from __future__ import annotations

import argparse
import json
import os
import stat
from pathlib import Path
from typing import Any

from hikone_carrom.board import DEFAULT_BOARD, BoardError, BoardSpec

__all__ = [
    "BOARD_FILE_FORMAT",
    "BOARD_FILE_VERSION",
    "BUILT_IN",
    "add_board_argument",
    "board_document",
    "board_from_args",
    "read_board_file",
    "write_board_file",
]

BOARD_FILE_FORMAT = "hikone-carrom-board"
BOARD_FILE_VERSION = 1
BUILT_IN: dict[str, BoardSpec] = {"standard": DEFAULT_BOARD, "legacy": BoardSpec.legacy()}
"""Boards ``--board`` knows by name (a file of that name in the working folder wins)."""
MAX_BYTES = 1 << 20
"""A board file is a few hundred bytes; anything over 1 MiB is not one."""


def board_document(board: BoardSpec, note: str = "", **extra: Any) -> dict[str, Any]:
    """The JSON document of a board file (``extra``: further top-level keys, e.g. a fit's
    residuals)."""
    doc: dict[str, Any] = {
        "format": BOARD_FILE_FORMAT,
        "version": BOARD_FILE_VERSION,
        "board": board.to_dict(),
    }
    if note:
        doc["note"] = note
    doc.update(extra)
    return doc


def write_board_file(path: str | Path, board: BoardSpec, note: str = "", **extra: Any) -> None:
    """Write a board file atomically (a temporary file renamed into place)."""
    target = Path(path)
    text = json.dumps(board_document(board, note, **extra), ensure_ascii=False, indent=1) + "\n"
    tmp = target.with_name(target.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise BoardError(
            f"cannot write the board file {str(target)!r}: {err.strerror or err}"
        ) from err


def read_board_file(path: str | Path) -> BoardSpec:
    """The board of a board file; raises :class:`BoardError` (one sentence) on anything wrong."""
    name = str(path)
    try:
        info = os.stat(path)
    except OSError as err:
        raise BoardError(f"cannot read the board file {name!r}: {err.strerror or err}") from err
    if not stat.S_ISREG(info.st_mode):
        raise BoardError(f"the board file {name!r} is not a regular file")
    if info.st_size > MAX_BYTES:
        raise BoardError(f"the board file {name!r} is too large to be a board file")
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
        data = json.loads(raw)
    except OSError as err:
        raise BoardError(f"cannot read the board file {name!r}: {err.strerror or err}") from err
    except (ValueError, RecursionError) as err:
        raise BoardError(f"the board file {name!r} is not valid JSON") from err
    if not isinstance(data, dict) or data.get("format") != BOARD_FILE_FORMAT:
        raise BoardError(f"{name!r} is not a {BOARD_FILE_FORMAT} file")
    if data.get("version") != BOARD_FILE_VERSION:
        raise BoardError(
            f"the board file {name!r} has version {data.get('version')!r}; "
            f"this program reads version {BOARD_FILE_VERSION}"
        )
    try:
        return BoardSpec.from_dict(data.get("board"), complete=False)
    except BoardError as err:
        raise BoardError(f"the board file {name!r}: {err}") from err
    except TypeError as err:
        raise BoardError(f"the board file {name!r} has a malformed 'board' object") from err


def add_board_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--board FILE`` (a board file; default: the standard board) to a command."""
    parser.add_argument(
        "--board",
        metavar="FILE",
        help="board file (JSON, e.g. from 'hikone-carrom calibrate') or a built-in board: "
        "'standard' (default) or 'legacy' (no disk, rail or stack friction) / 盤の設定ファイル",
    )


def board_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> BoardSpec:
    """The board named by ``--board``, or the default; a bad file ends the command with one
    sentence (``parser.error``, exit status 2)."""
    path = getattr(args, "board", None)
    if path is None:
        return DEFAULT_BOARD
    if path in BUILT_IN and not Path(path).exists():
        return BUILT_IN[path]
    try:
        return read_board_file(path)
    except BoardError as err:
        parser.error(str(err))
