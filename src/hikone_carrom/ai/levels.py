"""Named players and levels 1 (beginner) to 6 (expert): execution noise and search budget.

``make_player(name_or_level, seed)`` builds one: "random", "aim", "greedy" (issue 4: direct pots
and the jack tried once each as meant, no noise sampling), or a level 1..6 (also "level3",
"expert" = 6). ``noise_scale`` replaces the level's own hand by a multiple of the 1x tier
(the evaluation's noise tiers, issue 6).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from hikone_carrom.ai.candidates import CandidateBudget
from hikone_carrom.ai.errors import UnknownPlayerError
from hikone_carrom.ai.noise import BASE_NOISE
from hikone_carrom.ai.player import Player
from hikone_carrom.ai.players import AimPlayer, RandomPlayer, SearchPlayer
from hikone_carrom.ai.search import SearchConfig
from hikone_carrom.ai.sweep import SweepBudget
from hikone_carrom.ai.value import Weights

__all__ = ["BASELINES", "EXPERT_LEVEL", "GREEDY", "LEVELS", "Level", "make_player", "player_names"]


@dataclass(frozen=True)
class Level:
    """A level: its names (en, ja), its hand (multiple of the 1x noise), its search and, alone
    on the board, the extra cost of a penalty and the value of the layout's cost
    (:meth:`Weights.solo`)."""

    number: int
    name_en: str
    name_ja: str
    noise_scale: float
    search: SearchConfig
    solo_foul: float = 0.0
    solo_layout: float = 0.0


EXPERT_LEVEL = 6

_EXPERT_EARLY = SearchConfig(
    budget=CandidateBudget(
        placements=9,
        per_aim=2,
        arrivals=(0.3, 0.7, 1.2),
        max_cut=math.radians(75.0),
        banks=True,
        combinations=True,
        breaks=True,
        safety=8,
        break_groups=5,
        break_placements=5,
        break_speeds=(2.0, 3.0, 4.5),
        break_spread=(-0.06, 0.0, 0.06),
    ),
    keep=24,
    samples=24,
    screen=4,
    rollout=8,
    confirm_samples=40,
    refine=3,
    jack_budget=CandidateBudget(
        placements=15,
        per_aim=4,
        arrivals=(0.15, 0.35, 0.6, 1.0, 1.5),
        max_cut=math.radians(80.0),
        banks=True,
    ),
    jack_screen=24,
    sweep=SweepBudget(placements=17, step=0.75, speeds=(0.7, 1.1, 1.7, 2.6, 3.3, 4.0), keep=32),
    final_samples=200,
    # regain 0: our next shot is valued in the layout the shot leaves as meant, which a shot
    # that passes the turn does not leave (docs/ai.md, the fourteenth push).
    weights=Weights(jack_ease=30.0, deny=2.0, jack_foul=7.0, regain=0.0),
)
_EXPERT = replace(
    _EXPERT_EARLY,
    late=replace(
        _EXPERT_EARLY,
        keep=32,
        samples=32,
        screen=8,
        rollout=10,
        confirm_samples=64,
        refine=4,
        refine_samples=96,
        sweep=SweepBudget(placements=25, step=0.5, speeds=(0.6, 0.9, 1.3, 1.9, 2.8, 4.0), keep=48),
    ),
)
"""The expert: a wider sweep and more noise draws once at most 3 targets are left
(:attr:`SearchConfig.late`), where its decisions are cheapest and each miss costs most."""


LEVELS: dict[int, Level] = {
    1: Level(
        1,
        "beginner",
        "入門",
        3.0,
        SearchConfig(budget=CandidateBudget(placements=3, arrivals=(0.8,)), keep=8, choice_top=4),
    ),
    2: Level(
        2,
        "novice",
        "初級",
        2.0,
        SearchConfig(
            budget=CandidateBudget(placements=4, arrivals=(0.5, 1.0)), keep=8, choice_top=2
        ),
    ),
    3: Level(
        3,
        "intermediate",
        "中級",
        1.5,
        SearchConfig(
            budget=CandidateBudget(placements=5, arrivals=(0.5, 1.0), banks=True),
            keep=10,
            samples=4,
        ),
    ),
    4: Level(
        4,
        "advanced",
        "上級",
        1.0,
        SearchConfig(
            budget=CandidateBudget(
                placements=6, arrivals=(0.4, 0.9), banks=True, combinations=True
            ),
            keep=12,
            samples=8,
            position=4,
        ),
    ),
    5: Level(
        5,
        "master",
        "名人",
        0.75,
        SearchConfig(
            budget=CandidateBudget(
                placements=7,
                per_aim=2,
                arrivals=(0.4, 0.9),
                banks=True,
                combinations=True,
                breaks=True,
                safety=6,
            ),
            keep=16,
            samples=10,
            position=6,
        ),
    ),
    6: Level(6, "expert", "達人", 0.5, _EXPERT, solo_foul=1.0, solo_layout=0.8),
}
"""Levels 1..6; default levels decide within 0.5 s per shot on one core, the expert within 3 s."""

GREEDY = SearchConfig(budget=CandidateBudget(placements=5, arrivals=(0.6,)), keep=1)
"""Issue 4's greedy player: direct pots (and the jack when allowed), each tried once as meant."""

BASELINES = ("random", "aim", "greedy")
"""The evaluation's baselines (issue 6 section 2)."""


def player_names() -> tuple[str, ...]:
    """Every name :func:`make_player` accepts (besides level numbers)."""
    return (*BASELINES, *(f"level{n}" for n in LEVELS), "expert")


def _level_number(name_or_level: str | int) -> int | None:
    if isinstance(name_or_level, bool):
        return None
    if isinstance(name_or_level, int):
        return name_or_level
    text = name_or_level.strip().lower()
    if text == "expert":
        return EXPERT_LEVEL
    text = text.removeprefix("level").removeprefix("l")
    return int(text) if text.isdigit() else None


def make_player(
    name_or_level: str | int, seed: int = 0, noise_scale: float | None = None, solo: bool = False
) -> Player:
    """A computer player by name ("random", "aim", "greedy", "expert", "levelN") or level 1..6.

    Args:
        seed: seeds every decision (with the number of actions of the match so far).
        noise_scale: the hand's noise as a multiple of the 1x tier (2 mm, 1.0 deg, 3 %);
            ``None`` = the level's own (baselines: 1x).
        solo: the player is alone on the board (a solo clear): only its own pucks and its
            strikes count (:meth:`Weights.solo`).

    Raises:
        UnknownPlayerError: unknown name or level, or a bad seed or noise scale.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise UnknownPlayerError(
            f"seed must be a non-negative int, got {seed!r}",
            f"シードは0以上の整数です（{seed!r} は不可）",
        )
    if noise_scale is not None and (
        isinstance(noise_scale, bool)
        or not isinstance(noise_scale, int | float)
        or not math.isfinite(noise_scale)
        or noise_scale < 0
    ):
        raise UnknownPlayerError(
            f"noise_scale must be a number >= 0, got {noise_scale!r}",
            f"noise_scale は0以上の数です（{noise_scale!r} は不可）",
        )
    if not isinstance(name_or_level, str | int):
        raise UnknownPlayerError(
            f"unknown player {name_or_level!r}", f"不明なプレイヤー {name_or_level!r}"
        )
    key = name_or_level.strip().lower() if isinstance(name_or_level, str) else name_or_level
    if key in BASELINES:
        noise = BASE_NOISE.scaled(1.0 if noise_scale is None else noise_scale)
        if key == "random":
            return RandomPlayer("random", seed, noise)
        if key == "aim":
            return AimPlayer("aim", seed, noise)
        return SearchPlayer("greedy", seed, noise, _alone(GREEDY) if solo else GREEDY)
    number = _level_number(name_or_level)
    if number is None or number not in LEVELS:
        raise UnknownPlayerError(
            f"unknown player {name_or_level!r}: use {', '.join(player_names())} or 1..6",
            f"不明なプレイヤー {name_or_level!r}：{', '.join(player_names())} または 1〜6",
        )
    level = LEVELS[number]
    scale = level.noise_scale if noise_scale is None else noise_scale
    config = _alone(level.search, level.solo_foul, level.solo_layout) if solo else level.search
    return SearchPlayer(f"level{number}", seed, BASE_NOISE.scaled(scale), config)


def _alone(config: SearchConfig, foul: float = 0.0, layout: float = 0.0) -> SearchConfig:
    return replace(config, weights=config.weights.solo(foul, layout))
