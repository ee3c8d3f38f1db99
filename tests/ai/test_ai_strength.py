"""Strength on a small seeded set: greedy beats random; the levels keep their order on solo clear.

Results are deterministic for the seeds (same platform, same physics), so these are exact
regression checks of a quick version of ``hikone-carrom ai-eval``.
"""

from __future__ import annotations

from statistics import mean

from hikone_carrom.ai.evaluation import DuelTask, SoloTask, run_task


def _solo(player: str, seeds: range, cap: int = 120, tier: str = "1x") -> list[int]:
    return [run_task(SoloTask(player, tier, s, cap))["result"]["strikes"] for s in seeds]


def test_greedy_beats_random_head_to_head() -> None:
    winners = [
        run_task(DuelTask("greedy", "random", "1x", s, max_shots=120))["result"]["winner"]
        for s in range(4)
    ]
    assert winners.count("a") >= 3, winners


def test_levels_keep_their_order_on_solo_clear() -> None:
    """Levels with their own hands (tier "own"): beginner > intermediate > expert in strikes."""
    seeds = range(4)
    level1 = mean(_solo("1", seeds, tier="own"))
    level3 = mean(_solo("3", seeds, tier="own"))
    level6 = mean(_solo("6", seeds, tier="own"))
    assert level1 > level3 > level6, (level1, level3, level6)


def test_baselines_keep_their_order_on_solo_clear() -> None:
    seeds = range(4)
    random = mean(_solo("random", seeds, cap=60))
    greedy = mean(_solo("greedy", seeds))
    expert = mean(_solo("6", seeds))
    assert random > greedy > expert, (random, greedy, expert)
