"""The result of one match: both R7b scores, pucks pocketed, the winner, a forfeit.

The score is the score card's: 100 x jack + pucks pocketed, minus outstanding debt (R7b), so a
game won on the jack reads 112 (R7a). A draw is allowed only where the organisers chose it for a
deadlock (R7d); otherwise the side that leads after the extra rounds wins (R7c), or the lot names
the winner of a level score (R7d ``deadlock="lot"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hikone_carrom.rules import JACK_SCORE, PUCKS_PER_COLOR
from hikone_carrom.tournament.errors import TournamentError

__all__ = ["MAX_SCORE", "Result"]

MAX_SCORE = JACK_SCORE + PUCKS_PER_COLOR
"""Highest score of a match (R7a, R7b): the jack and all 12 pucks."""
_MIN_SCORE = -30
"""Lowest score accepted: a deep debt (R5i) counts against the score (R7b)."""


@dataclass(frozen=True)
class Result:
    """What a match gave.

    Attributes:
        scores: (side 0, side 1) R7b scores.
        pucks: (side 0, side 1) pucks pocketed (0-12), a tie-break.
        winner: 0 or 1, or None for a draw (R7d).
        forfeit: the side that did not play (no-show, 不戦), or None. The other side wins with
            the event's forfeit score.
    """

    scores: tuple[int, int]
    pucks: tuple[int, int]
    winner: int | None
    forfeit: int | None = None

    def __post_init__(self) -> None:
        for value in self.scores:
            if not _MIN_SCORE <= value <= MAX_SCORE:
                raise TournamentError(
                    "bad_score",
                    f"A score must be {_MIN_SCORE}..{MAX_SCORE} (R7b), not {value}",
                    f"得点は{_MIN_SCORE}〜{MAX_SCORE}にしてください（R7b）：{value}",
                )
        for value in self.pucks:
            if not 0 <= value <= PUCKS_PER_COLOR:
                raise TournamentError(
                    "bad_pucks",
                    f"Pucks pocketed must be 0..{PUCKS_PER_COLOR}, not {value}",
                    f"入れたパックの数は0〜{PUCKS_PER_COLOR}にしてください：{value}",
                )
        if self.winner not in (None, 0, 1) or self.forfeit not in (None, 0, 1):
            raise TournamentError("bad_side", "A side is 0 or 1", "サイドは0か1です")
        if self.forfeit is not None and self.winner != 1 - self.forfeit:
            raise TournamentError(
                "forfeit_winner",
                "The side present wins a forfeit",
                "不戦の試合は来ていた側の勝ちです",
            )
        if self.forfeit is None:
            a, b = self.scores
            if self.winner is None and a != b:
                raise TournamentError(
                    "draw_not_level",
                    f"A draw needs level scores (R7d), not {a} to {b}",
                    f"引き分けは同点のときだけです（R7d）：{a}対{b}",
                )
            if self.winner is not None and self.scores[self.winner] < self.scores[1 - self.winner]:
                raise TournamentError(
                    "winner_behind",
                    f"The winner cannot have the lower score ({a} to {b}, R7b)",
                    f"勝者の得点が低くなっています（{a}対{b}、R7b）",
                )

    @classmethod
    def from_scores(
        cls, a: int, b: int, *, winner: int | None = None, pucks: tuple[int, int] | None = None
    ) -> Result:
        """A played result from the two scores: the higher wins, level is a draw unless
        ``winner`` names who won the extra rounds or the lot (R7c, R7d). Pucks default to the
        score less the jack's 100."""
        if winner is None and a != b:
            winner = 0 if a > b else 1
        if pucks is None:
            pucks = (_pucks_of(a), _pucks_of(b))
        return cls(scores=(a, b), pucks=pucks, winner=winner)

    @classmethod
    def walkover(cls, absent: int, score: tuple[int, int]) -> Result:
        """A forfeit: side ``absent`` did not play; ``score`` is (winner's, loser's) as the event
        rules give it."""
        won, lost = score
        scores = (lost, won) if absent == 0 else (won, lost)
        return cls(
            scores=scores,
            pucks=(_pucks_of(scores[0]), _pucks_of(scores[1])),
            winner=1 - absent,
            forfeit=absent,
        )

    @property
    def is_draw(self) -> bool:
        """Nobody won (R7d)."""
        return self.winner is None

    def loser(self) -> int | None:
        """The losing side, or None for a draw."""
        return None if self.winner is None else 1 - self.winner

    def swapped(self) -> Result:
        """The same result seen from the other side."""
        return Result(
            scores=(self.scores[1], self.scores[0]),
            pucks=(self.pucks[1], self.pucks[0]),
            winner=None if self.winner is None else 1 - self.winner,
            forfeit=None if self.forfeit is None else 1 - self.forfeit,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict."""
        return {
            "scores": list(self.scores),
            "pucks": list(self.pucks),
            "winner": self.winner,
            "forfeit": self.forfeit,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Result:
        """Rebuild from :meth:`to_dict` output; raises :class:`TournamentError` when malformed."""
        try:
            a, b = (int(v) for v in data["scores"])
            pa, pb = (int(v) for v in data["pucks"])
            winner = data["winner"]
            forfeit = data.get("forfeit")
        except (KeyError, TypeError, ValueError) as err:
            raise TournamentError(
                "bad_result", f"Not a result: {err!r}", f"結果として読めません：{err!r}"
            ) from err
        return cls(
            scores=(a, b),
            pucks=(pa, pb),
            winner=None if winner is None else int(winner),
            forfeit=None if forfeit is None else int(forfeit),
        )


def _pucks_of(score: int) -> int:
    return max(0, min(PUCKS_PER_COLOR, score - JACK_SCORE if score >= JACK_SCORE else score))
