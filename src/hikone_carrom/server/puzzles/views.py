"""JSON of a puzzle as the browser draws it: never the solution until it is solved or given up."""

from __future__ import annotations

from typing import Any

from hikone_carrom.learn import Puzzle, goal_text
from hikone_carrom.match import PlayResult
from hikone_carrom.server.rooms.views import shot_view, state_view

__all__ = ["puzzle_summary", "puzzle_view", "solution_view"]


def puzzle_summary(puzzle: Puzzle) -> dict[str, Any]:
    """What a list shows: id, goal (its code and sentence ja/en) and difficulty (1-5)."""
    ja, en = goal_text(puzzle.goal)
    return {
        "id": puzzle.id,
        "goal": puzzle.goal.value,
        "goal_text": {"ja": ja, "en": en},
        "difficulty": puzzle.difficulty,
    }


def puzzle_view(puzzle: Puzzle) -> dict[str, Any]:
    """The position to solve: the summary, the player's colour and the match state as a room
    shows it (layout, placement, counts)."""
    match = puzzle.match()
    return {
        **puzzle_summary(puzzle),
        "color": match.color(match.shooter).value,
        "state": state_view(match),
    }


def solution_view(puzzle: Puzzle, play: PlayResult) -> dict[str, Any]:
    """The solution and its shot played exactly (tracks for the replay), with its figure."""
    return {
        "shot": puzzle.solution.to_dict(),
        "robustness": puzzle.robustness,
        "play": shot_view(play, puzzle.match().board),
    }
