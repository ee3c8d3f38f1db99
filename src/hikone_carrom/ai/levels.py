"""Named players and levels 1 (beginner) to 6 (expert): execution noise and search budget.

``make_player(name_or_level, seed)`` builds one: "random", "aim", "greedy" (direct pots and
the jack tried once each as meant, no noise sampling), a level 1..6 (also "level3",
"expert" = 6), or "expert-raced" (the expert raced over its shortlist, cheaper but weaker).
``noise_scale`` replaces the level's own hand by a multiple of the 1x tier (the evaluation's
noise tiers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from hikone_carrom.ai.candidates import CandidateBudget
from hikone_carrom.ai.errors import UnknownPlayerError
from hikone_carrom.ai.noise import BASE_NOISE
from hikone_carrom.ai.player import Player
from hikone_carrom.ai.players import AimPlayer, RandomPlayer, SearchPlayer
from hikone_carrom.ai.search import SearchConfig
from hikone_carrom.ai.sweep import SweepBudget
from hikone_carrom.ai.value import Weights

__all__ = [
    "BASELINES",
    "EXPERT_LEVEL",
    "GREEDY",
    "LEVELS",
    "RACED",
    "RACED_EXPERT",
    "Level",
    "make_player",
    "player_names",
]


@dataclass(frozen=True)
class Level:
    """A level of computer player: a row of :data:`LEVELS`.

    Attributes:
        number: 1 (beginner) to 6 (expert). name_en, name_ja: its name.
        hand: its execution noise, a multiple of the 1x tier (sigma 2 mm on each placement
            axis, 1.0 degree on the angle, 3 % on the speed).
        search: how it searches a position.
        late_search: how it searches once at most
            :data:`~hikone_carrom.ai.players.LATE_TARGETS` targets are left (None: ``search``
            throughout).
        weights: what outcomes are worth to it against an opponent (pucks).
        alone: what they are worth to it alone on the board (the solo clear).
    """

    number: int
    name_en: str
    name_ja: str
    hand: float
    search: SearchConfig
    late_search: SearchConfig | None = None
    weights: Weights = field(default_factory=Weights)
    alone: Weights = field(default_factory=Weights().alone)


EXPERT_LEVEL = 6

_EXPERT_CANDIDATES = CandidateBudget(
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
)
_EXPERT_JACK_CANDIDATES = CandidateBudget(
    placements=15,
    per_aim=4,
    arrivals=(0.15, 0.35, 0.6, 1.0, 1.5),
    max_cut=math.radians(80.0),
    banks=True,
)
_EXPERT_WEIGHTS = Weights(
    winning_jack_per_chance=30.0,
    # Our next shot is valued in the layout a shot leaves as meant, which a shot that passes
    # the turn does not leave: credited to the failures too, it favours lotteries with a good
    # as-meant leave.
    ours_after_pass=0.0,
    opponent_near_win=2.0,
    jack_foul_cost=7.0,
)

_EXPERT_ALONE = _EXPERT_WEIGHTS.alone(penalty_cost=1.0, layout_per_strike=0.8)
_EXPERT_LATE_SWEEP = SweepBudget(
    placements=25, step=0.5, speeds=(0.6, 0.9, 1.3, 1.9, 2.8, 4.0), keep=48
)
"""The expert's sweep with at most 3 targets left (the raced expert keeps it too)."""
_FAST_CANDIDATES = replace(_EXPERT_CANDIDATES, break_placements=3, bank_steps=30)
_FAST_JACK_CANDIDATES = replace(_EXPERT_JACK_CANDIDATES, bank_steps=30)
_FAST_SEARCH = SearchConfig(
    candidates=_FAST_CANDIDATES,
    jack_candidates=_FAST_JACK_CANDIDATES,
    # The expert's fine angle step from few placements: a coarser step (the sweep simulates
    # every other direction first) misses the narrow pots that decide duel positions.
    sweep=SweepBudget(placements=6, step=0.75, speeds=(0.9, 1.8, 3.3), keep=16),
    screen_draws=2,
    jack_screen_draws=8,
    shortlist=24,
    halving=(8, 16, 24),
    rollouts=4,
    rollout_draws=16,
    refined=2,
    refine_draws=8,
    final_draws=48,
)
# Few targets left: each miss costs a whole strike, so the expert's sweep, and draws
# raced over a wide shortlist.
_FAST_LATE_SEARCH = SearchConfig(
    candidates=_FAST_CANDIDATES,
    jack_candidates=_FAST_JACK_CANDIDATES,
    sweep=_EXPERT_LATE_SWEEP,
    screen_draws=8,
    jack_screen_draws=24,
    shortlist=32,
    # The first cut of a wide shortlist decides most: 32 draws before it, so that the jack
    # shot (R6b) is not cut on the luck of a few.
    halving=(32, 32, 64),
    rollouts=8,
    rollout_draws=40,
    refined=3,
    refine_draws=64,
    final_draws=200,
)

LEVELS: dict[int, Level] = {
    1: Level(
        1,
        "beginner",
        "入門",
        hand=3.0,
        search=SearchConfig(
            candidates=CandidateBudget(placements=3, arrivals=(0.8,)),
            shortlist=8,
            pick_among=4,
        ),
    ),
    2: Level(
        2,
        "novice",
        "初級",
        hand=2.0,
        search=SearchConfig(
            candidates=CandidateBudget(placements=4, arrivals=(0.5, 1.0)),
            shortlist=8,
            pick_among=2,
        ),
    ),
    3: Level(
        3,
        "intermediate",
        "中級",
        hand=1.5,
        search=SearchConfig(
            candidates=CandidateBudget(placements=5, arrivals=(0.5, 1.0), banks=True),
            shortlist=10,
            shortlist_draws=4,
        ),
    ),
    4: Level(
        4,
        "advanced",
        "上級",
        hand=1.0,
        search=SearchConfig(
            candidates=CandidateBudget(
                placements=6, arrivals=(0.4, 0.9), banks=True, combinations=True
            ),
            shortlist=12,
            shortlist_draws=8,
            ease_valued=4,
        ),
    ),
    5: Level(
        5,
        "master",
        "名人",
        hand=0.75,
        search=SearchConfig(
            candidates=CandidateBudget(
                placements=7,
                per_aim=2,
                arrivals=(0.4, 0.9),
                banks=True,
                combinations=True,
                breaks=True,
                safety=6,
            ),
            shortlist=16,
            shortlist_draws=10,
            ease_valued=6,
        ),
    ),
    6: Level(
        6,
        "expert",
        "達人",
        hand=0.5,
        search=SearchConfig(
            candidates=_EXPERT_CANDIDATES,
            jack_candidates=_EXPERT_JACK_CANDIDATES,
            sweep=SweepBudget(
                placements=17, step=0.75, speeds=(0.7, 1.1, 1.7, 2.6, 3.3, 4.0), keep=32
            ),
            screen_draws=4,
            jack_screen_draws=24,
            shortlist=24,
            shortlist_draws=24,
            rollouts=8,
            rollout_draws=40,
            refined=3,
            refine_draws=64,
            final_draws=200,
        ),
        # Few targets left: sparser positions and cheaper simulations, and each miss costs a
        # whole strike, so a finer sweep and more draws at every stage.
        late_search=SearchConfig(
            candidates=_EXPERT_CANDIDATES,
            jack_candidates=_EXPERT_JACK_CANDIDATES,
            sweep=_EXPERT_LATE_SWEEP,
            screen_draws=8,
            jack_screen_draws=24,
            shortlist=32,
            shortlist_draws=32,
            rollouts=10,
            rollout_draws=64,
            refined=4,
            refine_draws=96,
            final_draws=200,
        ),
        weights=_EXPERT_WEIGHTS,
        alone=_EXPERT_ALONE,
    ),
}
"""Levels 1..6, weakest first. Default levels decide within 0.5 s per shot on one core, the
expert within 3 s."""

RACED_EXPERT = Level(
    6,
    "expert (raced)",
    "達人（高速）",
    hand=0.5,
    search=_FAST_SEARCH,
    late_search=_FAST_LATE_SEARCH,
    weights=_EXPERT_WEIGHTS,
    alone=_EXPERT_ALONE,
)
"""The expert raced over its shortlist (:mod:`hikone_carrom.ai.racing`), a coarser early sweep
and fewer draws: about a fifth of the expert's decision time and a tenth of its simulations, but
weaker head to head (docs/ai.md), so not yet level 6; selectable as ``expert-raced``."""
RACED = "expert-raced"
"""The name :func:`make_player` gives :data:`RACED_EXPERT`."""

GREEDY = SearchConfig(candidates=CandidateBudget(placements=5, arrivals=(0.6,)), shortlist=1)
"""The greedy baseline: direct pots (and the jack when allowed), each tried once as meant,
the best played; it values outcomes by the default :class:`Weights`."""

BASELINES = ("random", "aim", "greedy")
"""The evaluation's baselines (docs/ai.md)."""


def player_names() -> tuple[str, ...]:
    """Every name :func:`make_player` accepts (besides level numbers)."""
    return (*BASELINES, *(f"level{n}" for n in LEVELS), "expert", RACED)


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
    """A computer player by name ("random", "aim", "greedy", "expert", "levelN",
    "expert-raced") or level 1..6.

    Args:
        seed: seeds every decision (with the number of actions of the match so far).
        noise_scale: the hand's noise as a multiple of the 1x tier (2 mm, 1.0 deg, 3 %);
            ``None`` = the level's own (baselines: 1x).
        solo: the player is alone on the board (a solo clear): only its own pucks and its
            strikes count (:attr:`Level.alone`, :meth:`Weights.alone`).

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
        weights = Weights().alone() if solo else Weights()
        return SearchPlayer("greedy", seed, noise, GREEDY, weights)
    number = None if key == RACED else _level_number(name_or_level)
    if key != RACED and (number is None or number not in LEVELS):
        raise UnknownPlayerError(
            f"unknown player {name_or_level!r}: use {', '.join(player_names())} or 1..6",
            f"不明なプレイヤー {name_or_level!r}：{', '.join(player_names())} または 1〜6",
        )
    level = RACED_EXPERT if number is None else LEVELS[number]
    name = RACED if number is None else f"level{number}"
    noise = BASE_NOISE.scaled(level.hand if noise_scale is None else noise_scale)
    weights = level.alone if solo else level.weights
    return SearchPlayer(name, seed, noise, level.search, weights, level.late_search)
