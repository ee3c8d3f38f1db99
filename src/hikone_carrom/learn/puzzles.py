"""The puzzle record (詰めカロム): a position, a goal, the proved solution and its figures.

A puzzle is a position at rest with the referee's state (whose turn, counts, debt), the goal
of one strike (:mod:`hikone_carrom.learn.goals`), the solution shot that reaches it, the greedy
player's shot that does not, and the figures :mod:`hikone_carrom.learn.verify` measured: the
share of light-hand draws (0.5x) under which the solution still reaches the goal. The shipped
puzzles are ``learn/data/puzzles.json``, rebuilt by ``hikone-carrom puzzles build``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from hikone_carrom.board import DEFAULT_BOARD
from hikone_carrom.learn.goals import Goal
from hikone_carrom.match import Match, Shot
from hikone_carrom.match.pieces import disk_for
from hikone_carrom.physics import Disk
from hikone_carrom.rules import RefereeState

__all__ = [
    "FORMAT",
    "Puzzle",
    "PuzzleFormatError",
    "load_shipped",
    "puzzle_by_id",
    "puzzles_from_dict",
    "puzzles_to_dict",
]

FORMAT = "hikone-carrom/puzzles/1"
"""The ``format`` of a puzzles file."""
_DATA = "puzzles.json"


class PuzzleFormatError(ValueError):
    """A puzzles file or record that cannot be read; ``en`` and ``ja`` say why."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(f"{en} / {ja}")
        self.en = en
        self.ja = ja


@dataclass(frozen=True)
class Puzzle:
    """One puzzle on the default board, singles.

    Attributes:
        id: stable name ("p" + 4 digits, in build order). goal: what the strike must do.
        layout: the disks at rest: (id, x m, y m, layer). referee: the referee's state before the
            strike (its shooter is the player). seed: the physics seed of the strike (fly-off,
            R5c/R5d/R6c), as :meth:`Match.from_position` takes it.
        solution: the proved shot. greedy: the greedy player's shot, which fails the goal.
        robustness: share of :data:`~hikone_carrom.learn.verify.DRAWS` light-hand draws (0.5x)
            under which the solution reaches the goal. difficulty: 1 (easy) to 5 (hard).
        source: where the position comes from (the computer-played match's seed and shot index).
    """

    id: str
    goal: Goal
    layout: tuple[tuple[str, float, float, int], ...]
    referee: RefereeState
    seed: int
    solution: Shot
    greedy: Shot
    robustness: float
    difficulty: int
    source: str

    def disks(self) -> tuple[Disk, ...]:
        """The layout as disks of the default board."""
        return tuple(disk_for(DEFAULT_BOARD, i, x, y, layer) for i, x, y, layer in self.layout)

    def match(self) -> Match:
        """A match at the puzzle's position, ready for the player's strike."""
        return Match.from_position(self.disks(), self.referee, seed=self.seed)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON (m, rad, m/s)."""
        return {
            "id": self.id,
            "goal": self.goal.value,
            "layout": [list(d) for d in self.layout],
            "referee": self.referee.to_dict(),
            "seed": self.seed,
            "solution": self.solution.to_dict(),
            "greedy": self.greedy.to_dict(),
            "robustness": self.robustness,
            "difficulty": self.difficulty,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Puzzle:
        """Rebuild from :meth:`to_dict` output; raises :class:`PuzzleFormatError`."""
        try:
            return cls(
                id=str(data["id"]),
                goal=Goal(data["goal"]),
                layout=tuple(
                    (str(i), float(x), float(y), int(layer)) for i, x, y, layer in data["layout"]
                ),
                referee=RefereeState.from_dict(data["referee"]),
                seed=int(data["seed"]),
                solution=Shot.from_dict(data["solution"]),
                greedy=Shot.from_dict(data["greedy"]),
                robustness=float(data["robustness"]),
                difficulty=int(data["difficulty"]),
                source=str(data["source"]),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise PuzzleFormatError(
                f"not a puzzle: {err!r}", f"詰めカロムの問題として読めません: {err!r}"
            ) from err


def puzzles_to_dict(puzzles: Sequence[Puzzle], build: dict[str, Any]) -> dict[str, Any]:
    """A puzzles file: its format, how it was built (``build``: seed, count, ...) and the
    puzzles."""
    return {"format": FORMAT, "build": build, "puzzles": [p.to_dict() for p in puzzles]}


def puzzles_from_dict(data: Any) -> tuple[Puzzle, ...]:
    """The puzzles of a puzzles file (:func:`puzzles_to_dict`)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleFormatError(
            f"not a puzzles file (format {FORMAT!r} expected)",
            f"詰めカロムのファイルではありません（形式 {FORMAT!r} が必要です）",
        )
    return tuple(Puzzle.from_dict(p) for p in data["puzzles"])


@cache
def load_shipped() -> tuple[Puzzle, ...]:
    """The puzzles shipped in the package (``learn/data/puzzles.json``), in id order."""
    text = resources.files("hikone_carrom.learn").joinpath("data", _DATA).read_text("utf-8")
    return puzzles_from_dict(json.loads(text))


def puzzle_by_id(puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle named ``puzzle_id``, or ``None``."""
    return _by_id().get(puzzle_id)


@cache
def _by_id() -> dict[str, Puzzle]:
    return {p.id: p for p in load_shipped()}
