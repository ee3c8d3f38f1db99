"""The committed evaluation results (docs/measured/) are what the players play today, game for
game: a few games of the classic expert's runs (level 6 when they were measured, selected as
``expert-classic`` since the raced expert took level 6) replayed through the evaluation code
give the stored strikes, pucks to go, turns kept and penalties (solo clear), and the stored
winner, seats, ending rule, scores and shots (duels against greedy). Decision times are wall
clock and not compared. Games chosen to be short, and to pass through a penalty (R5), the stuck
guard (4 strikes in a row that passed the turn, alone on the board) and both seat orders."""

from __future__ import annotations

import pytest
from ai_helpers import MEASURED_BOARD, measured_line

from hikone_carrom.ai.evaluation import run_task, task_from_dict
from hikone_carrom.ai.levels import CLASSIC

_TIMES = ("times", "times_a", "times_b")

GAMES = [
    # solo clear at 1x, seeds 200-399: 23 strikes with 5 in a row that passed the turn
    ("solo-1x-expert-push22-seeds-200-399.jsonl", "solo/6/1x/cap200/391"),
    # solo clear at 1x, seeds 200-399: 18 strikes with a penalty
    ("solo-1x-expert-push22-seeds-200-399.jsonl", "solo/6/1x/cap200/398"),
    # expert against greedy at 1x: the expert red (first) and beaten
    ("duels-1x-expert-greedy-seeds-200-399.jsonl", "duel/6/greedy/1x/max300/262"),
    # expert against greedy at 1x: the expert green (second) and winning
    ("duels-1x-expert-greedy-seeds-200-399.jsonl", "duel/6/greedy/1x/max300/315"),
]


_EXPERT_THEN = "6"
"""The name the stored runs gave the expert they measured, the classic expert's today."""


def _as_classic(task: dict[str, object]) -> dict[str, object]:
    """The stored task with its expert selected under today's name (:data:`CLASSIC`)."""
    seats = ("player", "a", "b")
    return {k: CLASSIC if k in seats and v == _EXPERT_THEN else v for k, v in task.items()}


@pytest.mark.parametrize(("file", "key"), GAMES, ids=[key for _, key in GAMES])
def test_stored_games_replay_game_for_game(file: str, key: str) -> None:
    stored = measured_line(file, key)
    played = run_task(task_from_dict(_as_classic(stored["task"])), board=MEASURED_BOARD)
    assert played["key"] == key.replace(f"/{_EXPERT_THEN}/", f"/{CLASSIC}/")
    want = {k: v for k, v in stored["result"].items() if k not in _TIMES}
    got = {k: v for k, v in played["result"].items() if k not in _TIMES}
    assert got == want
