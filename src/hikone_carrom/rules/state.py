"""The referee's state: an immutable, hashable value (cheap snapshots for undo and look-ahead).

It holds only counts (R5i debt, pockets, turn, time), never positions: the referee knows no physics.
Pucks not in the pockets are on the board, the jack spot included (R6c-R6e).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from hikone_carrom.rules.errors import InvalidPlayersError, InvalidSeatError, StateFormatError
from hikone_carrom.rules.options import RuleOptions
from hikone_carrom.rules.pieces import PUCKS_PER_COLOR, Color, last_seat, seat_color
from hikone_carrom.rules.report import Outcome

__all__ = ["JACK_SCORE", "STATE_VERSION", "RefereeState"]

JACK_SCORE = 100
"""Score-card value of a pocketed jack (R7b)."""

STATE_VERSION = 1
"""Version of the :meth:`RefereeState.to_dict` format."""


@dataclass(frozen=True)
class RefereeState:
    """Everything the referee knows after a sequence of reports.

    Attributes:
        players: 2 (singles) or 4 (doubles).
        options: the rule options in force.
        shooter: the seat whose turn it is (R1c, R3).
        pocketed: (red, green) pucks lying in the pockets now.
        debt: (red, green) pucks owed (R5i); a colour with debt has none in the pockets.
        jack: the colour that pocketed the jack without a foul (R7a), else ``None``.
        has_shot: per seat, whether it has taken a shot yet (R2a).
        shots: shots reported so far (lost shots, R8a, excluded).
        time_called: time has been called (R7b).
        extra_round: 0 while finishing the round after time; k during the k-th extra round (R7c).
        awaiting_lot: deadlocked, waiting for the rock-paper-scissors result (R7d).
        outcome: how the game ended, ``None`` while it goes on.
    """

    players: int = 2
    options: RuleOptions = field(default_factory=RuleOptions)
    shooter: int = 0
    pocketed: tuple[int, int] = (0, 0)
    debt: tuple[int, int] = (0, 0)
    jack: Color | None = None
    has_shot: tuple[bool, ...] = (False, False)
    shots: int = 0
    time_called: bool = False
    extra_round: int = 0
    awaiting_lot: bool = False
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        if self.players not in (2, 4) or isinstance(self.players, bool):
            raise InvalidPlayersError(
                f"players must be 2 (singles) or 4 (doubles), not {self.players!r}",
                f"人数は2人（シングルス）か4人（ダブルス）です（{self.players!r} は不可）",
            )
        if not isinstance(self.options, RuleOptions):
            raise StateFormatError(
                "options must be RuleOptions", "options は RuleOptions が必要です"
            )
        if self.options.first_seat >= self.players:
            raise InvalidSeatError(
                f"RuleOptions.first_seat {self.options.first_seat} is not a seat of a "
                f"{self.players}-player game",
                f"RuleOptions.first_seat {self.options.first_seat} は{self.players}人の試合の席では"
                "ありません",
            )
        problems: list[str] = []
        if not 0 <= self.shooter < self.players:
            problems.append("shooter")
        for name in ("pocketed", "debt"):
            pair = getattr(self, name)
            if len(pair) != 2 or any(not isinstance(v, int) or v < 0 for v in pair):
                problems.append(name)
        if any(v > PUCKS_PER_COLOR for v in self.pocketed):
            problems.append("pocketed")
        if any(p > 0 and d > 0 for p, d in zip(self.pocketed, self.debt, strict=False)):
            problems.append("pocketed and debt together")
        if len(self.has_shot) != self.players:
            problems.append("has_shot")
        if self.jack is not None and self.pocketed[self.jack.index] != PUCKS_PER_COLOR:
            problems.append("jack")
        if self.shots < 0 or self.extra_round < 0:
            problems.append("shots/extra_round")
        if (self.extra_round or self.awaiting_lot) and not self.time_called:
            problems.append("extra_round without time called")
        if self.awaiting_lot and self.outcome is not None:
            problems.append("awaiting_lot after the end")
        if problems:
            raise StateFormatError(
                f"inconsistent referee state: {', '.join(problems)}",
                f"審判の状態が矛盾しています: {', '.join(problems)}",
            )

    @classmethod
    def initial(cls, players: int = 2, options: RuleOptions | None = None) -> RefereeState:
        """The state before the first shot: all pucks on the board, first seat to shoot (R1)."""
        opts = RuleOptions() if options is None else options
        if players not in (2, 4) or isinstance(players, bool):
            raise InvalidPlayersError(
                f"players must be 2 (singles) or 4 (doubles), not {players!r}",
                f"人数は2人（シングルス）か4人（ダブルス）です（{players!r} は不可）",
            )
        return cls(
            players=players,
            options=opts,
            shooter=opts.first_seat,
            has_shot=(False,) * players,
        )

    # -- questions -------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome (R7)."""
        return self.outcome is not None

    @property
    def winner(self) -> Color | None:
        """The winning colour, ``None`` while playing or after a draw."""
        return None if self.outcome is None else self.outcome.winner

    @property
    def last_seat(self) -> int:
        """The last seat in the original order: its turn closes a round after time (R7b)."""
        return last_seat(self.players, self.options.first_seat)

    def check_seat(self, seat: int) -> int:
        """``seat`` if it is a seat of this game, else InvalidSeatError."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InvalidSeatError(
                f"seat {seat!r} is not 0..{self.players - 1}",
                f"席 {seat!r} は 0〜{self.players - 1} ではありません",
            )
        return seat

    def color(self, seat: int) -> Color:
        """Colour played from ``seat`` (R1b, R1c)."""
        return seat_color(self.check_seat(seat), self.options.first_seat)

    def is_first_shot(self, seat: int) -> bool:
        """True when ``seat``'s next shot is from the tee spot (R2a); else the area line (R2b)."""
        self.check_seat(seat)
        if self.options.first_shot_per_player:
            return not self.has_shot[seat]
        return not any(self.has_shot)

    def pocketed_of(self, color: Color) -> int:
        """Pucks of ``color`` lying in the pockets."""
        return self.pocketed[color.index]

    def debt_of(self, color: Color) -> int:
        """Pucks ``color`` owes (R5i)."""
        return self.debt[color.index]

    def pucks_on_board(self, color: Color) -> int:
        """Pucks of ``color`` on the board, jack spot included: 12 - pocketed."""
        return PUCKS_PER_COLOR - self.pocketed[color.index]

    def score(self, color: Color) -> int:
        """Score-card value: 100 x jack + pucks pocketed, minus debt by the reading (R7b)."""
        value = self.pocketed[color.index] + (JACK_SCORE if self.jack is color else 0)
        if self.options.debt_counts_in_score:
            value -= self.debt[color.index]
        return value

    def scores(self) -> dict[Color, int]:
        """Both scores (R7b)."""
        return {c: self.score(c) for c in Color}

    # -- changes and serialisation ---------------------------------------------------------

    def evolve(self, **changes: Any) -> RefereeState:
        """A copy with ``changes`` (validated)."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (records store it after every shot)."""
        return {
            "version": STATE_VERSION,
            "players": self.players,
            "options": self.options.to_dict(),
            "shooter": self.shooter,
            "pocketed": {"red": self.pocketed[0], "green": self.pocketed[1]},
            "debt": {"red": self.debt[0], "green": self.debt[1]},
            "jack": None if self.jack is None else self.jack.value,
            "has_shot": list(self.has_shot),
            "shots": self.shots,
            "time_called": self.time_called,
            "extra_round": self.extra_round,
            "awaiting_lot": self.awaiting_lot,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> RefereeState:
        """Rebuild from :meth:`to_dict` output; a malformed dict raises StateFormatError."""
        if not isinstance(data, dict):
            raise StateFormatError("referee state must be a dict", "審判の状態は dict が必要です")
        if data.get("version") != STATE_VERSION:
            raise StateFormatError(
                f"unsupported referee state version {data.get('version')!r}",
                f"対応していない審判状態のバージョン {data.get('version')!r}",
            )
        try:
            options = RuleOptions.from_dict(data["options"])
            outcome = None if data["outcome"] is None else Outcome.from_dict(data["outcome"])
            players = _int(data["players"])
            shooter = _int(data["shooter"])
            pocketed = (_int(data["pocketed"]["red"]), _int(data["pocketed"]["green"]))
            debt = (_int(data["debt"]["red"]), _int(data["debt"]["green"]))
            jack = None if data["jack"] is None else Color(data["jack"])
            has_shot = tuple(_bool(v) for v in data["has_shot"])
            shots = _int(data["shots"])
            time_called = _bool(data["time_called"])
            extra_round = _int(data["extra_round"])
            awaiting_lot = _bool(data["awaiting_lot"])
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, StateFormatError):
                raise
            raise StateFormatError(
                f"not a referee state: {err!r}", f"審判の状態として読めません: {err!r}"
            ) from err
        try:
            return cls(
                players=players,
                options=options,
                shooter=shooter,
                pocketed=pocketed,
                debt=debt,
                jack=jack,
                has_shot=has_shot,
                shots=shots,
                time_called=time_called,
                extra_round=extra_round,
                awaiting_lot=awaiting_lot,
                outcome=outcome,
            )
        except (InvalidPlayersError, InvalidSeatError) as err:
            raise StateFormatError(err.en, err.ja) from err


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true/false, got {value!r}")
    return value
