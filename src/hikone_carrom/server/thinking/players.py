"""Computer players as the server uses them: the levels that exist in ``hikone_carrom.ai``.

The server never chooses shots itself; a thinking worker asks the library's player of the room's
level for a decision (the shot meant and the hand's noise) and the room plays it on the same
checked path as a person's (``Match.play``).
"""

from __future__ import annotations

from dataclasses import dataclass

from hikone_carrom.ai import LEVELS

__all__ = ["LevelName", "available_levels", "level_names"]

_NAMED = {
    "random": ("Whimsical (shoots anywhere)", "きまぐれ（どこへでも打つ）"),
    "greedy": ("Pot hunter (takes the easiest pot)", "ねらい打ち（入れやすいパックだけねらう）"),
}
"""The two baselines as a player reads them (the library calls them "random" and "greedy")."""


@dataclass(frozen=True)
class LevelName:
    """A computer player one may choose: its id and its name in English and Japanese."""

    id: str
    en: str
    ja: str


def level_names() -> list[LevelName]:
    """The computer players that exist, weakest first: the baselines "random" and "greedy" (named
    for players, :data:`_NAMED`), then levels 1..6."""
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
