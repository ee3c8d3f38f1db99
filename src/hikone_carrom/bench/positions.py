"""Real match positions for the physics benchmark: every shot of a few computer-played matches.

The positions are the layouts the computer players actually faced (opening breaks, scattered
mid-game layouts, piles on the jack spot after penalties, R6e) with the shot as executed
(placement, angle and speed after the hand's noise). They are generated deterministically by
playing seeded matches with ``hikone-carrom simulate``'s match loop (:func:`generate`) and
stored in the package (``bench/data/match_positions.json.gz``, written by :func:`write`)::

    python -m hikone_carrom.bench.positions PATH   # regenerate the stored file (about a minute)
"""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from hikone_carrom import ai
from hikone_carrom.board import DEFAULT_BOARD, BoardSpec
from hikone_carrom.match import Match
from hikone_carrom.match.pieces import STRIKER_ID, disk_for
from hikone_carrom.physics import Disk

__all__ = ["MATCHES", "Position", "generate", "load", "stored", "write"]

MATCHES: tuple[tuple[int, tuple[str, ...], int], ...] = (
    (2, ("greedy", "greedy"), 1),
    (2, ("greedy", "random"), 2),
    (2, ("4", "greedy"), 3),
    (4, ("greedy", "random", "greedy", "random"), 4),
    (2, ("greedy", "greedy"), 5),
    (2, ("random", "greedy"), 6),
    (2, ("3", "random"), 7),
    (4, ("greedy", "greedy", "greedy", "greedy"), 8),
)
"""The matches played: (players, computer players by seat, seed)."""
MAX_SHOTS = 90
"""Shots kept per match (the opening break first)."""
_DATA = "match_positions.json.gz"


@dataclass(frozen=True)
class Position:
    """A layout at rest (id, x, y, layer per disk; m) and the striker's executed shot (x, y m,
    vx, vy m/s), from shot ``shot`` of match ``match``."""

    match: int
    shot: int
    disks: tuple[tuple[str, float, float, int], ...]
    striker: tuple[float, float, float, float]

    def layout(self, board: BoardSpec = DEFAULT_BOARD) -> tuple[Disk, ...]:
        """The disks at rest."""
        return tuple(disk_for(board, i, x, y, layer) for i, x, y, layer in self.disks)

    def shot_disks(self, board: BoardSpec = DEFAULT_BOARD) -> list[Disk]:
        """The layout and the striker in motion, ready to simulate."""
        x, y, vx, vy = self.striker
        return [*self.layout(board), Disk.striker(STRIKER_ID, x, y, vx, vy, board=board)]

    @property
    def stacked(self) -> bool:
        """Does a disk lie on another (a pile, R6e)?"""
        return any(layer > 0 for *_, layer in self.disks)


def generate(matches: Sequence[tuple[int, tuple[str, ...], int]] = MATCHES) -> list[Position]:
    """Play the matches as ``hikone-carrom simulate`` does (its :func:`run_match`, on the
    default board, untimed) and keep each shot's position: the first :data:`MAX_SHOTS`."""
    from hikone_carrom.simulate import run_match

    out: list[Position] = []
    for k, (players, names, seed) in enumerate(matches):
        match = Match(players, seed=seed)
        bots = [
            ai.make_player(int(n) if n.isdigit() else n, seed=seed * 101 + i)
            for i, n in enumerate(names)
        ]
        kept: list[Position] = []

        def keep(m: Match, k: int = k, kept: list[Position] = kept) -> None:
            play = m.actions[-1].play
            if play is None or len(kept) >= MAX_SHOTS:
                return
            vx, vy = play.executed.velocity
            layout = tuple((d.id, d.x, d.y, d.layer) for d in play.before)
            kept.append(Position(k, len(kept), layout, (play.executed.x, play.executed.y, vx, vy)))

        run_match(match, bots, max_actions=2 * MAX_SHOTS, on_action=keep)
        out += kept
    return out


def write(path: str | Path, positions: Sequence[Position]) -> None:
    """Store positions (gzip'd JSON, floats exact)."""
    doc = {
        "matches": [list(m) for m in MATCHES],
        "positions": [
            {"m": p.match, "s": p.shot, "d": [list(d) for d in p.disks], "st": list(p.striker)}
            for p in positions
        ],
    }
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump(doc, fh, separators=(",", ":"))


def load(fh: Any) -> list[Position]:
    """Positions from a file object written by :func:`write`."""
    doc = json.loads(gzip.decompress(fh.read()).decode("utf-8"))
    return [
        Position(
            p["m"],
            p["s"],
            tuple((str(i), float(x), float(y), int(layer)) for i, x, y, layer in p["d"]),
            (float(p["st"][0]), float(p["st"][1]), float(p["st"][2]), float(p["st"][3])),
        )
        for p in doc["positions"]
    ]


def stored() -> list[Position]:
    """The positions stored in the package."""
    with resources.files("hikone_carrom.bench").joinpath("data", _DATA).open("rb") as fh:
        return load(fh)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("data") / _DATA
    write(target, generate())
    print(f"wrote {target}")
