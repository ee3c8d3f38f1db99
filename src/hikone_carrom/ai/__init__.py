"""Computer players of Hikone Carrom, from beginner to expert, and their evaluation (docs/ai.md).

    from hikone_carrom.ai import make_player, take_turn
    from hikone_carrom.match import Match
    m = Match(players=2, seed=1)
    red, green = make_player("greedy", seed=1), make_player(6, seed=2)
    while not m.is_over:
        take_turn(m, red if m.shooter == 0 else green)

Every player decides a :class:`Decision` (the shot meant and its hand's execution noise, seeded
by the player's seed and the number of actions so far) and plays it through ``Match.play``.
"""

from hikone_carrom.ai.candidates import Candidate, CandidateBudget, ShotKind, generate
from hikone_carrom.ai.errors import AIError, EvaluationError, NoLegalShotError, UnknownPlayerError
from hikone_carrom.ai.hint import hint
from hikone_carrom.ai.levels import (
    BASELINES,
    EXPERT_LEVEL,
    GREEDY,
    LEVELS,
    Level,
    make_player,
    player_names,
)
from hikone_carrom.ai.noise import BASE_NOISE, NOISE_TIERS, NoiseModel, decision_rng, tier_scale
from hikone_carrom.ai.player import MIN_SPEED, Decision, Plan, Player, legal_shot, take_turn
from hikone_carrom.ai.players import AimPlayer, RandomPlayer, SearchPlayer
from hikone_carrom.ai.search import SearchConfig, SearchResult, search
from hikone_carrom.ai.sweep import SweepBudget
from hikone_carrom.ai.value import Weights
from hikone_carrom.ai.view import TableView

__all__ = [
    "BASELINES",
    "BASE_NOISE",
    "EXPERT_LEVEL",
    "GREEDY",
    "LEVELS",
    "MIN_SPEED",
    "NOISE_TIERS",
    "AIError",
    "AimPlayer",
    "Candidate",
    "CandidateBudget",
    "Decision",
    "EvaluationError",
    "Level",
    "NoLegalShotError",
    "NoiseModel",
    "Plan",
    "Player",
    "RandomPlayer",
    "SearchConfig",
    "SearchPlayer",
    "SearchResult",
    "ShotKind",
    "SweepBudget",
    "TableView",
    "UnknownPlayerError",
    "Weights",
    "decision_rng",
    "generate",
    "hint",
    "legal_shot",
    "make_player",
    "player_names",
    "search",
    "take_turn",
    "tier_scale",
]
