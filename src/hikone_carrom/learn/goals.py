"""A puzzle's goal, judged by the referee's own ruling of one shot (R3a, R6b, R7a).

A goal looks only at what the referee was told (:class:`ShotReport`) and the state its ruling
left: the same judgement a game makes, whether the shot was played by :meth:`Match.play` or read
from the physics batch (:func:`hikone_carrom.ai.outcomes.report_of_key`).
"""

from __future__ import annotations

from enum import StrEnum

from hikone_carrom.rules import Color, RefereeState, ShotReport

__all__ = ["Goal", "goal_reached", "goal_text"]


class Goal(StrEnum):
    """What the shooter must do in one strike."""

    POT_TWO = "pot-two"
    """Pot at least two of your pucks and keep the turn (R3a)."""
    POT_THREE = "pot-three"
    """Pot at least three of your pucks and keep the turn (R3a)."""
    JACK_LAST = "jack-last"
    """Pot the jack last, after every puck of your colour, and win the game (R6b, R7a)."""


_TEXT: dict[Goal, tuple[str, str]] = {
    Goal.POT_TWO: (
        "自分のパックを2枚以上入れて、手番を続けましょう（R3a）",
        "Pot two or more of your pucks and keep the turn (R3a)",
    ),
    Goal.POT_THREE: (
        "自分のパックを3枚以上入れて、手番を続けましょう（R3a）",
        "Pot three or more of your pucks and keep the turn (R3a)",
    ),
    Goal.JACK_LAST: (
        "最後にジャックを入れて勝ちましょう（R6b）",
        "Pot the jack last and win the game (R6b)",
    ),
}


def goal_text(goal: Goal) -> tuple[str, str]:
    """The goal as a sentence: (Japanese, English)."""
    return _TEXT[goal]


def goal_reached(goal: Goal, color: Color, report: ShotReport, after: RefereeState) -> bool:
    """Whether a shot by ``color``, reported as ``report``, reached ``goal``, given the referee's
    state ``after`` its ruling."""
    won = after.is_over and after.winner is color
    if goal is Goal.JACK_LAST:
        return won
    keeps = won or (not after.is_over and after.color(after.shooter) is color)
    own = sum(1 for p in report.pocketed if p is color.puck)
    return keeps and own >= (2 if goal is Goal.POT_TWO else 3)
