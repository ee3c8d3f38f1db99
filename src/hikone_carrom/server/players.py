"""Computer players as the server uses them: the levels that exist in ``hikone_carrom.ai``.

The server never chooses shots itself; it asks the library's players for a decision (the shot
meant and the hand's noise) and plays it on the same checked path as a person's
(``Match.play``).
"""

from __future__ import annotations

from dataclasses import dataclass

from hikone_carrom.ai import LEVELS, Player, make_player
from hikone_carrom.match import Match, Noise, Shot

__all__ = [
    "ComputerPlayer",
    "LevelName",
    "UnknownLevelError",
    "available_levels",
    "level_names",
    "make_computer",
]

_NAMED = {
    "random": ("random shots", "ランダム"),
    "greedy": ("greedy", "貪欲"),
}


class UnknownLevelError(ValueError):
    """No computer player of that level exists."""


@dataclass(frozen=True)
class LevelName:
    """A computer player one may choose: its id and its name in English and Japanese."""

    id: str
    en: str
    ja: str


def level_names() -> list[LevelName]:
    """The computer players that exist, weakest first: "random", "greedy", then levels 1..6."""
    out = [LevelName(key, en, ja) for key, (en, ja) in _NAMED.items()]
    for number, level in sorted(LEVELS.items()):
        out.append(
            LevelName(
                str(number),
                f"Level {number} ({level.name_en})",
                f"レベル{number}（{level.name_ja}）",
            )
        )
    return out


def available_levels() -> list[str]:
    """Ids of the computer players that exist, weakest first."""
    return [level.id for level in level_names()]


@dataclass
class ComputerPlayer:
    """A library player bound to a seed; :meth:`choose` gives the shot and its hand's noise."""

    level: str
    player: Player

    def choose(self, match: Match) -> tuple[Shot, Noise]:
        """The shot this player takes now (runs the player's search; call off the event loop)."""
        decision = self.player.decide(match)
        return decision.shot, decision.noise


def make_computer(level: str, seed: int) -> ComputerPlayer:
    """A computer player of ``level`` (one of :func:`available_levels`) seeded with ``seed``."""
    if level not in available_levels():
        raise UnknownLevelError(f"no computer player {level!r}")
    key: int | str = int(level) if level.isdigit() else level
    return ComputerPlayer(level, make_player(key, seed % (1 << 62)))
