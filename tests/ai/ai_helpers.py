"""Shared helpers of the computer-player tests: fuzzed match situations."""

from __future__ import annotations

from hikone_carrom.ai import NoLegalShotError, make_player
from hikone_carrom.match import Match

ALL_PLAYERS: tuple[str | int, ...] = ("random", "aim", "greedy", 1, 2, 3, 4, 5, 6)


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
