"""The resumable results file of an evaluation: JSON lines, one finished task per line.

The first line is a header naming the format and the board the games are played on (its
figures, docs/physics.md); each further line holds ``key``, ``task`` and ``result``. A run
appends each result as it finishes; a run given the same file skips the tasks
already there. A last line cut short (the run was killed while writing) is dropped; any other
malformed line is an error naming it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hikone_carrom.ai.errors import EvaluationError
from hikone_carrom.board import BoardSpec

__all__ = ["RESULTS_FORMAT", "ResultsFile"]

RESULTS_FORMAT = "hikone-carrom/ai-eval/1"
"""The header's ``format`` value."""


class ResultsFile:
    """A JSON-lines results file at ``path`` (created with its header when missing).

    ``board``: the board of the run; a file whose header names another board is refused, so
    that games of two physics models never mix (a header without a board, written before the
    header named it, is taken as it is)."""

    def __init__(self, path: str | Path, board: BoardSpec | None = None) -> None:
        self.path = Path(path)
        self.board = board
        self.lines: dict[str, dict[str, Any]] = {}
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            header: dict[str, Any] = {"format": RESULTS_FORMAT}
            if self.board is not None:
                header["board"] = self.board.to_dict()
            self.path.write_text(json.dumps(header) + "\n", encoding="utf-8")
            return
        raw = self.path.read_text(encoding="utf-8")
        rows = raw.split("\n")
        complete = raw.endswith("\n")
        body = rows[:-1] if complete else rows
        keep: list[str] = []
        for number, text in enumerate(body, start=1):
            if not text.strip():
                continue
            try:
                data = json.loads(text)
                if number == 1:
                    if data.get("format") != RESULTS_FORMAT:
                        raise ValueError("format")
                    self._check_board(data.get("board"))
                else:
                    self.lines[str(data["key"])] = {"task": data["task"], "result": data["result"]}
            except (ValueError, KeyError, TypeError, AttributeError) as err:
                last = number == len(body) and not complete
                if last and number > 1:
                    break  # cut short by a killed run: drop it
                raise EvaluationError(
                    f"{self.path}:{number}: not a results line of {RESULTS_FORMAT} ({err})",
                    f"{self.path}:{number}: {RESULTS_FORMAT} の結果行として読めません（{err}）",
                ) from err
            keep.append(text)
        if not complete:
            self.path.write_text("\n".join(keep) + "\n", encoding="utf-8")

    def _check_board(self, figures: Any) -> None:
        if figures is None or self.board is None or figures == self.board.to_dict():
            return
        raise EvaluationError(
            f"{self.path} holds games played on another board: give another results file "
            "(or the same --board)",
            f"{self.path} は別の盤で打った対局の結果です。別の結果ファイルか同じ --board を"
            "指定してください",
        )

    def __contains__(self, key: str) -> bool:
        return key in self.lines

    def __len__(self) -> int:
        return len(self.lines)

    def append(self, line: dict[str, Any]) -> None:
        """Record one finished task (``key``, ``task``, ``result``) and flush it to disk."""
        key = str(line["key"])
        self.lines[key] = {"task": line["task"], "result": line["result"]}
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(line, separators=(",", ":")) + "\n")
