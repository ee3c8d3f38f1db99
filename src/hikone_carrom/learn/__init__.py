"""Learning to play: puzzles (詰めカロム) whose solutions the physics has proved (docs/learn.md).

No web, database or machine-learning import: the server's puzzle house wraps this package.
"""

from hikone_carrom.learn.goals import Goal, goal_reached, goal_text
from hikone_carrom.learn.puzzles import Puzzle, PuzzleFormatError, load_shipped, puzzle_by_id
from hikone_carrom.learn.verify import LIGHT_HAND, Verdict, verify

__all__ = [
    "LIGHT_HAND",
    "Goal",
    "Puzzle",
    "PuzzleFormatError",
    "Verdict",
    "goal_reached",
    "goal_text",
    "load_shipped",
    "puzzle_by_id",
    "verify",
]
