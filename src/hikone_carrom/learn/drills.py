"""Drills (練習): set positions to practise one kind of shot, scored by the strikes it took.

Each drill is a position on the default board, singles, red (south) to shoot, with a goal of
one strike (:mod:`hikone_carrom.learn.goals`) and a shot known to reach it (checked by the
tests under the exact physics). The player strikes from the same position until the goal is
reached; the fewer strikes, the more stars (:func:`stars`). Attempts are judged like a
puzzle's, by :meth:`Match.play` and the referee.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hikone_carrom.board import DEFAULT_BOARD
from hikone_carrom.learn.goals import Goal
from hikone_carrom.match import Match, Shot
from hikone_carrom.match.pieces import disk_for
from hikone_carrom.rules import RefereeState

__all__ = ["DRILLS", "Drill", "drill_by_id", "stars"]

_PLAYED = (True, True)  # both players have shot: the striker goes anywhere free on the line


@dataclass(frozen=True)
class Drill:
    """One drill: id, its name and what it teaches (ja, en), the goal, the disks at rest
    ((id, x m, y m, layer)), the pucks already in the pockets (red, green) and a shot known to
    reach the goal."""

    id: str
    name: tuple[str, str]
    tip: tuple[str, str]
    goal: Goal
    layout: tuple[tuple[str, float, float, int], ...]
    pocketed: tuple[int, int]
    solution: Shot
    referee: RefereeState = field(init=False)

    def __post_init__(self) -> None:
        state = RefereeState(pocketed=self.pocketed, has_shot=_PLAYED, shots=2)
        object.__setattr__(self, "referee", state)

    def match(self) -> Match:
        """A match at the drill's position, red to shoot."""
        disks = tuple(disk_for(DEFAULT_BOARD, i, x, y, layer) for i, x, y, layer in self.layout)
        return Match.from_position(disks, self.referee, seed=0)


def stars(strikes: int) -> int:
    """Stars for a drill reached in ``strikes`` strikes: 3 at the first, 2 within three, else 1."""
    return 3 if strikes <= 1 else 2 if strikes <= 3 else 1


DRILLS: tuple[Drill, ...] = (
    Drill(
        "straight",
        ("まっすぐ入れる", "A straight pot"),
        (
            "パックとポケットを結ぶ線の上からストライカーを当て、まっすぐ送りましょう。",
            "Hit the puck from the line through it and the pocket, and send it straight in.",
        ),
        Goal.POT_ONE,
        (
            ("R0", 0.135, 0.02, 0),
            ("G0", -0.12, 0.12, 0),
            ("G1", 0.2, -0.1, 0),
            ("J", -0.04, 0.06, 0),
        ),
        (11, 10),
        Shot(0.05371428571428569, -0.21, 1.265363707695889, 1.5),
    ),
    Drill(
        "cut",
        ("カット", "A cut"),
        (
            "パックの端を薄く打つと、パックは斜めに走ります。角のポケットへ送りましょう。",
            "Hit the puck off-centre: it runs off at an angle. Send it into the corner pocket.",
        ),
        Goal.POT_ONE,
        (("R0", 0.2, 0.2, 0), ("G0", -0.1, 0.2, 0), ("G1", 0.05, -0.08, 0), ("J", -0.05, 0.0, 0)),
        (11, 10),
        Shot(0.05371428571428569, -0.21, 1.265363707695889, 1.5),
    ),
    Drill(
        "bank",
        ("クッション", "Off a rail"),
        (
            "まっすぐの道は緑のパックがふさいでいます。ストライカーを枠に当てて返しましょう。",
            "Green pucks block the direct way: bounce the striker off a rail first.",
        ),
        Goal.POT_ONE,
        (
            ("R0", -0.22, 0.22, 0),
            ("G0", -0.12, 0.04, 0),
            ("G1", -0.16, 0.08, 0),
            ("G2", -0.08, 0.0, 0),
            ("J", 0.05, 0.1, 0),
        ),
        (11, 9),
        Shot(0.188, -0.21, 0.6370451769779303, 2.5),
    ),
    Drill(
        "blocker",
        ("じゃまを避ける", "Past a blocker"),
        (
            "緑のパックが前にあります。ストライカーをエリアラインに沿って動かし、横から狙いましょう。",
            "A green puck is in the way: slide the striker along the area line and aim past it.",
        ),
        Goal.POT_ONE,
        (("R0", 0.17, 0.17, 0), ("G0", 0.08, 0.02, 0), ("G1", -0.05, 0.15, 0), ("J", 0.0, 0.22, 0)),
        (11, 10),
        Shot(-0.188, -0.21, 0.8203047484373349, 2.5),
    ),
    Drill(
        "jack",
        ("ジャックで上がる", "The jack last"),
        (
            "自分のパックはすべて入りました。最後にジャックを入れて勝ちましょう（R6b）。",
            "All your pucks are in: pot the jack last to win (R6b).",
        ),
        Goal.JACK_LAST,
        (("G0", -0.15, 0.1, 0), ("G1", 0.1, -0.12, 0), ("J", 0.12, 0.14, 0)),
        (12, 10),
        Shot(-0.188, -0.21, 0.8639379797371931, 4.5),
    ),
)
"""The drills, easiest first (their solutions found by a sweep of the area line)."""


def drill_by_id(drill_id: str) -> Drill | None:
    """The drill named ``drill_id``, if any."""
    return next((d for d in DRILLS if d.id == drill_id), None)
