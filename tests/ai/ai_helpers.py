"""Shared helpers of the computer-player tests: fuzzed match situations, and the board and the
stored per-game results of the measured evaluation runs (docs/measured/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hikone_carrom.ai import NoLegalShotError, make_player
from hikone_carrom.board import BoardSpec
from hikone_carrom.match import Match

ALL_PLAYERS: tuple[str | int, ...] = ("random", "aim", "greedy", 1, 2, 3, 4, 5, 6)

MEASURED = Path(__file__).resolve().parents[2] / "docs" / "measured"
"""The committed results files of ``hikone-carrom ai-eval`` runs (docs/measured/README.md)."""

MEASURED_BOARD = BoardSpec.legacy()
"""The board, and so the physics model, the stored results in :data:`MEASURED` were measured
under: the physics before the friction models (docs/physics.md), which ``BoardSpec.legacy()``
reproduces bit for bit. The expert alone on the board uses the pot table built on that board
(``pot_table(MEASURED_BOARD)``, stored beside the default board's)."""


def scrambled_match(players: int, seed: int, shots: int) -> Match:
    """A match after ``shots`` random-player shots (seeded): a fuzzed mid-game situation."""
    match = Match(players=players, seed=seed)
    scrambler = make_player("random", seed=seed + 1000, noise_scale=1.0)
    for _ in range(shots):
        if match.is_over:
            break
        try:
            decision = scrambler.decide(match)
        except NoLegalShotError:
            match.pass_turn()
            continue
        match.play(decision.shot, decision.noise)
    return match


def measured_line(file: str, key: str) -> dict[str, Any]:
    """The line of task ``key`` in the results file ``file`` of :data:`MEASURED`."""
    with (MEASURED / file).open(encoding="utf-8") as fh:
        for text in fh:
            line = json.loads(text)
            if line.get("key") == key:
                return dict(line)
    raise KeyError(f"{key} is not in {file}")
