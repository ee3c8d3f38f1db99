"""The referee's judgement as pure functions: ``(state, event) -> (state, ruling)``.

Nothing here mutates; the :class:`~hikone_carrom.rules.referee.Referee` keeps the states. Every
function validates first and raises a :class:`~hikone_carrom.rules.errors.RulesError` before any
change, so bad input changes nothing.

JavaScript twin: the scoring pad rules offline with a port of :func:`apply`, :func:`skip_turn`,
:func:`call_time` and :func:`decide_lot` (``web/js/pad/referee.js``), its data (default options,
fouls, names, sentences) generated from the Python side into ``web/js/pad/shared-rules.js``
(``python -m hikone_carrom.scoring.js_shared``). tests/js/pad_referee_parity.test.mjs checks that
it gives the same states, rulings and refusals as this module on random games under random rule
options; change both together.
"""

from __future__ import annotations

from dataclasses import dataclass

from hikone_carrom.rules.errors import (
    GameOverError,
    ImpossibleReportError,
    InvalidSeatError,
    LotNotPendingError,
    LotPendingError,
    RefereedFoulError,
    TimeAlreadyCalledError,
    UnshootableInSinglesError,
)
from hikone_carrom.rules.pieces import PUCKS_PER_COLOR, Color, Piece, next_seat
from hikone_carrom.rules.report import Foul, Outcome, Ruling, ShotReport, sort_fouls
from hikone_carrom.rules.state import RefereeState

__all__ = ["agree_draw", "apply", "call_time", "decide_lot", "resign", "skip_turn"]


@dataclass(frozen=True)
class _Pile:
    """Pieces going to the jack spot from one shot, by colour, before stacking (R6d)."""

    opponent: int = 0
    own: int = 0
    jack: bool = False

    def stack(self, color: Color) -> tuple[Piece, ...]:
        """Bottom to top: opponent's pucks, shooter's pucks, jack (R6d, R5j)."""
        jack = (Piece.JACK,) if self.jack else ()
        return (color.opponent.puck,) * self.opponent + (color.puck,) * self.own + jack


def _check_playing(state: RefereeState) -> None:
    if state.outcome is not None:
        raise GameOverError(
            "the game is over; nothing more can be reported (R7)",
            "試合は終わっています。これ以上報告できません（R7）",
        )
    if state.awaiting_lot:
        raise LotPendingError(
            "the game is deadlocked: give the rock-paper-scissors result first (R7d)",
            "こう着状態です。先にじゃんけんの結果を入力してください（R7d）",
        )


def _check_report(state: RefereeState, report: ShotReport, seat: int) -> None:
    """Raise unless ``report`` can be true in ``state`` (changes nothing)."""
    if report.striker_pocketed and report.striker_off_board:
        raise ImpossibleReportError(
            "the striker cannot be both pocketed and off the board",
            "ストライカーがポケットに入り、同時に盤の外に出ることはありません",
        )
    for color in Color:
        moved = report.count(color.puck) + report.count_off(color.puck)
        on_board = state.pucks_on_board(color)
        if moved > on_board:
            raise ImpossibleReportError(
                f"{moved} {color.value} pucks reported pocketed or off the board, but only "
                f"{on_board} are outside the pockets",
                f"{_JA_COLOR[color]}のパックが{moved}個報告されましたが、ポケットの外には"
                f"{on_board}個しかありません",
            )
    jacks = report.count(Piece.JACK) + report.count_off(Piece.JACK)
    if jacks > 1:
        raise ImpossibleReportError(
            "there is one jack; it was reported twice",
            "ジャックは1個です。2回報告されています",
        )
    wrong_order = seat != state.shooter
    if Foul.WRONG_ORDER in report.fouls and not wrong_order:
        raise ImpossibleReportError(
            "a shot out of turn (R5e) needs the seat that actually shot, other than the shooter's",
            "順番違い（R5e）には、実際に打った（手番でない）席を指定してください",
        )
    if (wrong_order or report.fouls) and not state.options.refereed_fouls:
        raise RefereedFoulError(
            "shots out of turn and touched strikers are not reported in this game (R5k)",
            "この試合では順番違いとストライカーへの接触は報告できません（R5k）",
        )
    if report.unshootable_hit and state.players == 2:
        raise UnshootableInSinglesError(
            "in singles every piece may be hit directly: no unshootable pieces (R4e)",
            "シングルスでは全てのパックとジャックを直接ねらえます（R4e）",
        )


_JA_COLOR = {Color.RED: "赤", Color.GREEN: "緑"}


def _penalty_total(fouls: tuple[Foul, ...], state: RefereeState) -> int:
    counts = [f.count(state.options) for f in fouls]
    if not counts:
        return 0
    return sum(counts) if state.options.penalties_add_up else max(counts)


def apply(state: RefereeState, report: ShotReport) -> tuple[RefereeState, Ruling]:
    """Judge one shot: the new state and the ruling (R3-R7). Raises RulesError, changing nothing."""
    _check_playing(state)
    seat = state.shooter if report.seat is None else state.check_seat(report.seat)
    _check_report(state, report, seat)
    wrong_order = seat != state.shooter
    conduct = [Foul.WRONG_ORDER] if wrong_order else []
    conduct += [f for f in report.fouls if f is Foul.TOUCHED_STRIKER]
    tally = _Tally(state, state.color(seat))
    if report.unshootable_hit:
        # R4c: the board is restored, nothing counts, the turn passes; conduct fouls still cost.
        tally.restored = True
        tally.reasons.add("R4c")
        tally.fouls = sort_fouls([Foul.UNSHOOTABLE_HIT, *conduct])
    else:
        tally.count(report, conduct)
    tally.charge_penalty()
    new = state.evolve(
        pocketed=(tally.pocketed[0], tally.pocketed[1]),
        debt=(tally.debt[0], tally.debt[1]),
        has_shot=tuple(h or s == seat for s, h in enumerate(state.has_shot)),
        shots=state.shots + 1,
        jack=tally.color if tally.outcome is not None else None,
    )
    if tally.outcome is not None:
        return new.evolve(outcome=tally.outcome), tally.ruling(seat, None, tally.outcome)
    new_shooter, turn_passed = _next_shooter(state, seat, wrong_order, tally.continues)
    if turn_passed:
        tally.reasons.add("R3d")
    new, end_reasons = _after_turn(state, new.evolve(shooter=new_shooter), turn_passed)
    tally.reasons.update(end_reasons)
    next_up = None if new.outcome is not None or new.awaiting_lot else new.shooter
    return new, tally.ruling(seat, next_up, new.outcome)


class _Tally:
    """What one shot does to the pockets and debts, worked out step by step for :func:`apply`."""

    def __init__(self, state: RefereeState, color: Color) -> None:
        self.state = state
        self.color = color
        self.pocketed = list(state.pocketed)
        self.debt = list(state.debt)
        self.reasons: set[str] = set()
        self.fouls: tuple[Foul, ...] = ()
        self.pile = _Pile()
        self.debt_paid: tuple[Piece, ...] = ()
        self.off_board: tuple[Piece, ...] = ()
        self.voided = self.taken = self.debt_added = self.service = self.penalty = 0
        self.continues = self.restored = False
        self.outcome: Outcome | None = None

    def count(self, report: ShotReport, conduct: list[Foul]) -> None:
        """The pieces the shot pocketed or sent off the board: fouls (R5, R6), the win (R6b,
        R7a), service (R3b), debts paid (R5i) and whether the shooter goes on (R3a)."""
        state, color, reasons, debt, pocketed = (
            self.state,
            self.color,
            self.reasons,
            self.debt,
            self.pocketed,
        )
        opponent = color.opponent
        own_in = report.count(color.puck)
        opp_in = report.count(opponent.puck)
        jack_in = Piece.JACK in report.pocketed
        jack_off = Piece.JACK in report.off_board
        own_off = report.count_off(color.puck)
        opp_off = report.count_off(opponent.puck)
        self.off_board = report.off_board
        all_in_before = state.pocketed_of(color) == PUCKS_PER_COLOR
        found = list(conduct)
        if report.striker_pocketed:
            found.append(Foul.STRIKER_POCKETED)
        if report.striker_off_board:
            found.append(Foul.STRIKER_OFF_BOARD)
        if jack_in and not all_in_before:
            found.append(Foul.JACK_BEFORE_PUCKS)
            if own_in == state.pucks_on_board(color):
                reasons.add("R6a")
        if jack_off:
            found.append(Foul.JACK_OFF_BOARD)
        fouls = sort_fouls(found)
        if own_off or opp_off:
            reasons.add("R6c")
        win = jack_in and all_in_before and (not fouls or not state.options.foul_voids_win)
        if win:
            fouls = ()
            reasons.update(("R6b", "R7a"))
        elif jack_in and all_in_before:
            reasons.add("R6b")  # the win is voided by another foul (reading)
        self.fouls = fouls
        # Opponent pucks stay pocketed (R3b, R5h) unless they pay the opponent's debt (R5i).
        paid_opp = min(opp_in, debt[opponent.index])
        debt[opponent.index] -= paid_opp
        pocketed[opponent.index] += opp_in - paid_opp
        self.service = opp_in - paid_opp
        paid_own = 0
        if fouls:
            # R5h: own pucks of this shot go back to the jack spot and pay no debt.
            self.voided = own_in
            if own_in:
                reasons.add("R5h")
            if jack_in or jack_off:
                reasons.add("R5j")
        elif not win:
            paid_own = min(own_in, debt[color.index])
            debt[color.index] -= paid_own
            pocketed[color.index] += own_in - paid_own
            counted = own_in if state.options.debt_payment_is_success else own_in - paid_own
            self.continues = counted > 0
            if self.continues:
                reasons.add("R3a")
                if self.off_board:
                    reasons.add("R3c")
        if self.service:
            reasons.add("R3b")
        self.debt_paid = (opponent.puck,) * paid_opp + (color.puck,) * paid_own
        if self.debt_paid:
            reasons.add("R5i")
        self.pile = _Pile(
            opponent=paid_opp + opp_off,
            own=self.voided + paid_own + own_off,
            jack=bool(fouls) and (jack_in or jack_off),
        )
        if win:
            self.outcome = Outcome(
                winner=color, reason="R7a", scores=_scores_after(state, pocketed, debt, color)
            )

    def charge_penalty(self) -> None:
        """The fouls' penalty (R5g): pocketed pucks go back to the jack spot (R5h), what is
        missing becomes debt (R5i); then the reasons of the pile (R6d, R6e)."""
        index = self.color.index
        self.penalty = _penalty_total(self.fouls, self.state)
        self.reasons.update(f.rule_id for f in self.fouls)
        if self.penalty:
            if len(self.fouls) > 1:
                self.reasons.add("R5g")
            self.taken = min(self.penalty, self.pocketed[index])
            self.pocketed[index] -= self.taken
            self.debt_added = self.penalty - self.taken
            self.debt[index] += self.debt_added
            pile = self.pile
            self.pile = _Pile(opponent=pile.opponent, own=pile.own + self.taken, jack=pile.jack)
            if self.taken:
                self.reasons.add("R5h")
            if self.debt_added:
                self.reasons.add("R5i")
        if self.pile.opponent and (self.pile.own or self.pile.jack):
            self.reasons.add("R6d")
        if self.pile.stack(self.color):
            self.reasons.add("R6e")

    def ruling(self, seat: int, next_up: int | None, outcome: Outcome | None) -> Ruling:
        """The shot's ruling (a winning shot has no fouls, R7a: every count below is 0)."""
        return Ruling(
            seat=seat,
            color=self.color,
            penalty=self.penalty,
            fouls=self.fouls,
            foul_counts=tuple(f.count(self.state.options) for f in self.fouls),
            reasons=_sorted_ids(self.reasons),
            returned=self.pile.stack(self.color),
            debt_paid=self.debt_paid,
            voided=self.voided,
            taken=self.taken,
            debt_added=self.debt_added,
            service=self.service,
            off_board=self.off_board,
            continues=self.continues,
            restored=self.restored,
            next_seat=next_up,
            outcome=outcome,
        )


def _next_shooter(
    state: RefereeState, seat: int, wrong_order: bool, continues: bool
) -> tuple[int, bool]:
    """Who shoots next and whether the turn passed (R3a, R3d; a shot out of order: the
    ``wrong_order_turn`` option)."""
    if continues:
        return seat, False
    if wrong_order and state.options.wrong_order_turn == "rightful":
        return state.shooter, False
    if wrong_order:
        return next_seat(seat, state.players), True
    return next_seat(state.shooter, state.players), True


def _scores_after(
    state: RefereeState, pocketed: list[int], debt: list[int], jack: Color
) -> tuple[int, int]:
    probe = state.evolve(pocketed=(pocketed[0], pocketed[1]), debt=(debt[0], debt[1]), jack=jack)
    return probe.score(Color.RED), probe.score(Color.GREEN)


def _after_turn(
    before: RefereeState, after: RefereeState, turn_passed: bool
) -> tuple[RefereeState, set[str]]:
    """After time is called, close the round when the last seat's turn ends (R7b-R7d)."""
    if not (after.time_called and turn_passed and before.shooter == before.last_seat):
        return after, set()
    scores = (after.score(Color.RED), after.score(Color.GREEN))
    reason = "R7b" if after.extra_round == 0 else "R7c"
    if scores[0] != scores[1]:
        winner = Color.RED if scores[0] > scores[1] else Color.GREEN
        return after.evolve(outcome=Outcome(winner, reason, scores)), {reason}
    cap = after.options.max_extra_rounds
    if cap is None or after.extra_round < cap:
        return after.evolve(extra_round=after.extra_round + 1), {reason, "R7c"}
    if after.options.deadlock == "lot":
        return after.evolve(awaiting_lot=True), {reason, "R7d"}
    return after.evolve(outcome=Outcome(None, "R7d", scores)), {reason, "R7d"}


def skip_turn(state: RefereeState) -> tuple[RefereeState, Ruling]:
    """R8a: the shooter let the 10 seconds pass; the shot is lost and the turn passes."""
    return _no_shot(state, {"R8a"})


def pass_turn(state: RefereeState, *, no_placement: bool = False) -> tuple[RefereeState, Ruling]:
    """The shooter passes without a shot and without penalty; the turn passes (R3d).

    ``no_placement``: the striker had nowhere to go (the reading ``covered_area_line = "pass"``
    of R2b); otherwise a pass the rules do not know (practice, problems).
    """
    return _no_shot(state, {"R2b"} if no_placement else set())


def _no_shot(state: RefereeState, reasons: set[str]) -> tuple[RefereeState, Ruling]:
    _check_playing(state)
    seat = state.shooter
    new = state.evolve(shooter=next_seat(seat, state.players))
    new, end_reasons = _after_turn(state, new, True)
    ruling = Ruling(
        seat=seat,
        color=state.color(seat),
        reasons=_sorted_ids({*reasons, "R3d", *end_reasons}),
        skipped=True,
        next_seat=None if new.outcome is not None or new.awaiting_lot else new.shooter,
        outcome=new.outcome,
    )
    return new, ruling


def call_time(state: RefereeState) -> RefereeState:
    """R7b: time is up; play goes on until the last seat in the original order ends a turn."""
    _check_playing(state)
    if state.time_called:
        raise TimeAlreadyCalledError(
            "time has already been called (R7b)", "試合時間の終了はすでに宣言されています（R7b）"
        )
    return state.evolve(time_called=True)


def decide_lot(state: RefereeState, winner: Color) -> RefereeState:
    """R7d ``deadlock="lot"``: the caller supplies the rock-paper-scissors winner."""
    if not state.awaiting_lot:
        raise LotNotPendingError(
            "no rock-paper-scissors decision is awaited (R7d)",
            "じゃんけんで決める場面ではありません（R7d）",
        )
    if not isinstance(winner, Color):
        raise LotNotPendingError(
            f"the lot's winner must be a Color, not {winner!r}",
            f"じゃんけんの勝者は Color で指定してください（{winner!r} は不可）",
        )
    scores = (state.score(Color.RED), state.score(Color.GREEN))
    return state.evolve(awaiting_lot=False, outcome=Outcome(winner, "R7d", scores))


def _check_not_over(state: RefereeState) -> None:
    if state.outcome is not None:
        raise GameOverError(
            "the game is over; it cannot be resigned or drawn (R7)",
            "試合は終わっています。投了や引き分けはできません（R7）",
        )


def resign(state: RefereeState, color: Color) -> RefereeState:
    """``color`` resigns: the game ends at once and the other colour wins (outcome reason
    ``"resign"``, scores as they stand). Allowed at any moment of a game in progress, also
    while a rock-paper-scissors result is awaited (R7d)."""
    _check_not_over(state)
    if not isinstance(color, Color):
        raise InvalidSeatError(
            f"the resigning side must be a Color, not {color!r}",
            f"投了する側は Color で指定してください（{color!r} は不可）",
        )
    scores = (state.score(Color.RED), state.score(Color.GREEN))
    return state.evolve(awaiting_lot=False, outcome=Outcome(color.opponent, "resign", scores))


def agree_draw(state: RefereeState) -> RefereeState:
    """Both sides agree to a draw: the game ends with no winner (outcome reason ``"agreed"``,
    scores as they stand)."""
    _check_not_over(state)
    scores = (state.score(Color.RED), state.score(Color.GREEN))
    return state.evolve(awaiting_lot=False, outcome=Outcome(None, "agreed", scores))


def _rule_key(rule_id: str) -> tuple[int, str]:
    return int(rule_id[1]), rule_id[2:]


def _sorted_ids(ids: set[str]) -> tuple[str, ...]:
    return tuple(sorted(ids, key=_rule_key))
