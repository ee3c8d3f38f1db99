"""What happened in a shot (:class:`ShotReport`); what it means (:class:`Ruling`, :class:`Outcome`).

The referee knows no physics: the match layer (or a human referee in scoring mode) tells it which
pieces fell or flew off, and it answers with a ruling citing the rule ids that decided it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from hikone_carrom.rules.errors import InvalidReportError, StateFormatError
from hikone_carrom.rules.options import RuleOptions
from hikone_carrom.rules.pieces import Color, Piece

__all__ = ["OUTCOME_REASONS", "Foul", "Outcome", "Ruling", "ShotReport"]


class Foul(Enum):
    """A foul, valued by its rule id (R4c, R5a-R5f)."""

    UNSHOOTABLE_HIT = "R4c"
    STRIKER_POCKETED = "R5a"
    JACK_BEFORE_PUCKS = "R5b"
    STRIKER_OFF_BOARD = "R5c"
    JACK_OFF_BOARD = "R5d"
    WRONG_ORDER = "R5e"
    TOUCHED_STRIKER = "R5f"

    @property
    def rule_id(self) -> str:
        """The rule id, e.g. "R5a"."""
        return self.value

    @property
    def reportable(self) -> bool:
        """True for fouls a report names in ``fouls`` (R5e, R5f: refereed play only, R5k)."""
        return self in (Foul.WRONG_ORDER, Foul.TOUCHED_STRIKER)

    def count(self, options: RuleOptions) -> int:
        """Pucks this foul costs (R5 table; R4c per ``options.unshootable_penalty``)."""
        if self is Foul.UNSHOOTABLE_HIT:
            return options.unshootable_penalty
        if self in (Foul.JACK_BEFORE_PUCKS, Foul.JACK_OFF_BOARD):
            return 5
        return 1


_FOUL_ORDER = tuple(Foul)


def sort_fouls(fouls: Iterable[Foul]) -> tuple[Foul, ...]:
    """Fouls in rule-id order, without duplicates."""
    present = set(fouls)
    return tuple(f for f in _FOUL_ORDER if f in present)


def _pieces(name: str, value: object) -> tuple[Piece, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidReportError(
            f"ShotReport.{name} must be a sequence of Piece",
            f"ShotReport.{name} は Piece の並びで指定してください",
        )
    items = tuple(value)
    for item in items:
        if not isinstance(item, Piece):
            raise InvalidReportError(
                f"ShotReport.{name} holds {item!r}, not a Piece (strikers are reported apart)",
                f"ShotReport.{name} に Piece でないもの {item!r} があります"
                "（ストライカーは別の項目で報告します）",
            )
    return items


@dataclass(frozen=True)
class ShotReport:
    """What happened in one shot, as the match layer or a human referee saw it.

    Attributes:
        pocketed: pieces (pucks, jack) that fell into pockets in this shot; the striker apart.
        off_board: pieces that flew off the board (R5d, R6c).
        striker_pocketed: the shooter's striker fell into a pocket (R5a).
        striker_off_board: the shooter's striker flew off the board (R5c).
        unshootable_hit: doubles only: the striker touched an unshootable piece first-hand (R4c).
        fouls: conduct fouls seen by a referee: ``Foul.WRONG_ORDER`` (R5e, needs ``seat``) and
            ``Foul.TOUCHED_STRIKER`` (R5f).
        seat: who actually shot (R5e); ``None`` = the seat whose turn it is.
    """

    pocketed: tuple[Piece, ...] = ()
    off_board: tuple[Piece, ...] = ()
    striker_pocketed: bool = False
    striker_off_board: bool = False
    unshootable_hit: bool = False
    fouls: tuple[Foul, ...] = ()
    seat: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "pocketed", _pieces("pocketed", self.pocketed))
        object.__setattr__(self, "off_board", _pieces("off_board", self.off_board))
        for name in ("striker_pocketed", "striker_off_board", "unshootable_hit"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidReportError(
                    f"ShotReport.{name} must be True or False",
                    f"ShotReport.{name} は True か False で指定してください",
                )
        if isinstance(self.fouls, str | bytes) or not isinstance(self.fouls, Iterable):
            raise InvalidReportError(
                "ShotReport.fouls must be a sequence of Foul",
                "ShotReport.fouls は Foul の並びで指定してください",
            )
        fouls = tuple(self.fouls)
        object.__setattr__(self, "fouls", fouls)
        for foul in fouls:
            if not isinstance(foul, Foul) or not foul.reportable:
                raise InvalidReportError(
                    f"ShotReport.fouls may hold only Foul.WRONG_ORDER and Foul.TOUCHED_STRIKER, "
                    f"not {foul!r}; report the striker and jack through their own fields",
                    f"ShotReport.fouls には Foul.WRONG_ORDER と Foul.TOUCHED_STRIKER だけを入れます"
                    f"（{foul!r} は不可）。ストライカーとジャックはそれぞれの項目で報告します",
                )
        if len(set(fouls)) != len(fouls):
            raise InvalidReportError(
                "ShotReport.fouls names a foul twice", "ShotReport.fouls に同じ反則が2回あります"
            )
        if self.seat is not None and (
            not isinstance(self.seat, int) or isinstance(self.seat, bool) or self.seat < 0
        ):
            raise InvalidReportError(
                "ShotReport.seat must be a seat number or None",
                "ShotReport.seat は席番号か None で指定してください",
            )

    def count(self, piece: Piece) -> int:
        """How many of ``piece`` fell into pockets in this shot."""
        return self.pocketed.count(piece)

    def count_off(self, piece: Piece) -> int:
        """How many of ``piece`` flew off the board in this shot."""
        return self.off_board.count(piece)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict."""
        return {
            "pocketed": [p.value for p in self.pocketed],
            "off_board": [p.value for p in self.off_board],
            "striker_pocketed": self.striker_pocketed,
            "striker_off_board": self.striker_off_board,
            "unshootable_hit": self.unshootable_hit,
            "fouls": [f.value for f in self.fouls],
            "seat": self.seat,
        }

    @classmethod
    def from_dict(cls, data: Any) -> ShotReport:
        """Rebuild from :meth:`to_dict` output."""
        try:
            return cls(
                pocketed=tuple(Piece(v) for v in data["pocketed"]),
                off_board=tuple(Piece(v) for v in data["off_board"]),
                striker_pocketed=data["striker_pocketed"],
                striker_off_board=data["striker_off_board"],
                unshootable_hit=data["unshootable_hit"],
                fouls=tuple(Foul(v) for v in data["fouls"]),
                seat=data["seat"],
            )
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, InvalidReportError):
                raise
            raise StateFormatError(
                f"not a shot report: {err!r}", f"ショットの報告として読めません: {err!r}"
            ) from err


OUTCOME_REASONS = ("R7a", "R7b", "R7c", "R7d", "resign", "agreed")
"""Every way a game can end: the rules' R7a-R7d, a resignation, a draw by agreement."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    Attributes:
        winner: the winning colour, ``None`` for a draw (R7d).
        reason: what decided it (:data:`OUTCOME_REASONS`): a rule id, "R7a" (jack after all
            pucks, R6b), "R7b" (time), "R7c" (after extra rounds), "R7d" (deadlock: draw or
            rock-paper-scissors); or an agreement of the players, "resign" (the loser
            resigned) or "agreed" (a draw both sides accepted).
        scores: (red, green) scores at the end, 100 x jack + pucks (R7b).
    """

    winner: Color | None
    reason: str
    scores: tuple[int, int]

    @property
    def is_draw(self) -> bool:
        """True when nobody won (R7d ``deadlock="draw"``)."""
        return self.winner is None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict."""
        return {
            "winner": None if self.winner is None else self.winner.value,
            "reason": self.reason,
            "scores": list(self.scores),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Outcome:
        """Rebuild from :meth:`to_dict` output."""
        try:
            winner = None if data["winner"] is None else Color(data["winner"])
            red, green = (int(v) for v in data["scores"])
            reason = str(data["reason"])
        except (KeyError, TypeError, ValueError) as err:
            raise StateFormatError(
                f"not a game outcome: {err!r}", f"試合結果として読めません: {err!r}"
            ) from err
        if reason not in OUTCOME_REASONS:
            raise StateFormatError(
                f"unknown outcome reason {reason!r}", f"不明な決着理由 {reason!r}"
            )
        return cls(winner=winner, reason=reason, scores=(red, green))


@dataclass(frozen=True)
class Ruling:
    """What a shot (or a shot not taken: lost, R8a, or passed, R3d) means.

    Attributes:
        seat: the seat that shot (or lost its shot); color: its colour.
        penalty: pucks owed by this shot's penalties (R5, R4c option).
        fouls: the fouls that applied, in rule-id order.
        foul_counts: pucks each foul costs, parallel to ``fouls`` (R5 table, R4c option).
        reasons: every rule id that decided the ruling, in rule-id order (e.g. ("R5a", "R5h")).
        returned: every piece to put on the jack spot now, bottom to top: the opponent's pucks,
            then the shooter's, then the jack (R5h-R5j, R6c-R6e). It includes pucks that paid
            debt and pieces that flew off the board.
        debt_paid: pucks that went back to the jack spot to pay debt (R5i), also in ``returned``.
        voided: own pucks pocketed in a penalised shot that went back (R5h), also in ``returned``.
        taken: own pucks taken out of the pockets for the penalty (R5h), also in ``returned``.
        debt_added: the penalty's shortfall, added to the shooter's debt (R5i).
        service: opponent pucks pocketed that stay in the pocket (R3b).
        off_board: pieces that flew off the board this shot (R5d, R6c).
        continues: the same seat shoots again (R3a, R3c).
        restored: the board goes back to before the shot (R4c).
        skipped: no shot was taken: lost to the 10-second rule ("R8a" in ``reasons``) or passed
            (R3d; with "R2b" when the striker had nowhere to go).
        next_seat: the seat to shoot next; ``None`` when the game is over or waits for a lot.
        outcome: how the game ended, if it ended with this ruling (R7).
    """

    seat: int
    color: Color
    penalty: int = 0
    fouls: tuple[Foul, ...] = ()
    foul_counts: tuple[int, ...] = ()
    reasons: tuple[str, ...] = ()
    returned: tuple[Piece, ...] = ()
    debt_paid: tuple[Piece, ...] = ()
    voided: int = 0
    taken: int = 0
    debt_added: int = 0
    service: int = 0
    off_board: tuple[Piece, ...] = ()
    continues: bool = False
    restored: bool = False
    skipped: bool = False
    next_seat: int | None = None
    outcome: Outcome | None = None

    @property
    def winner(self) -> Color | None:
        """The colour that won with this ruling, else ``None``."""
        return None if self.outcome is None else self.outcome.winner

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict."""
        return {
            "seat": self.seat,
            "color": self.color.value,
            "penalty": self.penalty,
            "fouls": [f.value for f in self.fouls],
            "foul_counts": list(self.foul_counts),
            "reasons": list(self.reasons),
            "returned": [p.value for p in self.returned],
            "debt_paid": [p.value for p in self.debt_paid],
            "voided": self.voided,
            "taken": self.taken,
            "debt_added": self.debt_added,
            "service": self.service,
            "off_board": [p.value for p in self.off_board],
            "continues": self.continues,
            "restored": self.restored,
            "skipped": self.skipped,
            "next_seat": self.next_seat,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Ruling:
        """Rebuild from :meth:`to_dict` output."""
        try:
            outcome = None if data["outcome"] is None else Outcome.from_dict(data["outcome"])
            return cls(
                seat=int(data["seat"]),
                color=Color(data["color"]),
                penalty=int(data["penalty"]),
                fouls=tuple(Foul(v) for v in data["fouls"]),
                foul_counts=tuple(int(v) for v in data["foul_counts"]),
                reasons=tuple(str(v) for v in data["reasons"]),
                returned=tuple(Piece(v) for v in data["returned"]),
                debt_paid=tuple(Piece(v) for v in data["debt_paid"]),
                voided=int(data["voided"]),
                taken=int(data["taken"]),
                debt_added=int(data["debt_added"]),
                service=int(data["service"]),
                off_board=tuple(Piece(v) for v in data["off_board"]),
                continues=bool(data["continues"]),
                restored=bool(data["restored"]),
                skipped=bool(data["skipped"]),
                next_seat=None if data["next_seat"] is None else int(data["next_seat"]),
                outcome=outcome,
            )
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, StateFormatError):
                raise
            raise StateFormatError(
                f"not a ruling: {err!r}", f"裁定として読めません: {err!r}"
            ) from err
