"""What a shot's outcome is worth to the shooter's team, read through the referee (R3-R7).

Material is the score difference by the R7b reading (own pucks pocketed minus debt, minus the
opponent's), so every rule the referee applies counts: penalties and debt (R5), pucks returned by a
foul (R5h), an early jack (R5b, R6a), a restored board in doubles (R4c), service pucks (R3b).
Having the next shot is worth something too: a constant while searching broadly, then more the
likelier the next pot in the position left, for the team that shoots next
(:mod:`hikone_carrom.ai.search`). Partners in doubles share a colour, so they play for the team
(R1c).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

import numpy as np

from hikone_carrom.ai.outcomes import KEY_FIELDS, report_of_key
from hikone_carrom.rules import Color, Foul, RefereeState, Ruling, apply

__all__ = ["NEAR_WIN_PUCKS", "Judge", "Judgement", "Weights", "material"]

NEAR_WIN_PUCKS = 2
"""An opponent with at most this many pucks on the board is close to winning (R7a)."""


@dataclass(frozen=True)
class Weights:
    """What the outcomes of a shot are worth, in pucks (an own puck pocketed is worth 1).

    Attributes:
        win: a won game (R7a); a lost one costs as much.
        next_shot: having the next shot, in the stages of a search that do not estimate its
            chance.
        next_shot_base, next_shot_per_chance: having the next shot, where its chance ``p`` of
            keeping the turn is estimated: ``next_shot_base + next_shot_per_chance * p``.
        winning_jack_per_chance: more per unit chance when that next shot is at the jack and
            wins (R6b, R7a).
        ours_after_pass: share of our next shot's value still counted when a shot passes the
            turn (we shoot again after the opponent).
        opponent_share: share of the opponent's pucks and next shot counted (0: alone on the
            board, where the other seat never shoots).
        opponent_near_win: extra share of the opponent's next shot when it has at most
            :data:`NEAR_WIN_PUCKS` pucks on the board and so is close to winning (R7a).
        passed_turn_cost: cost of a shot that passes the turn, besides the opponent's next
            shot (alone on the board: the strike it wasted).
        touching_nothing_cost: cost of a shot whose striker touches no disk.
        jack_foul_cost: extra cost of a shot that pockets the jack before the shooter's last
            puck or sends it off the board (R5b, R5d, R6a), beyond the five pucks it counts:
            they go back to the jack spot in a stack with the jack on top (R5h, R5j), each to
            be pocketed again at a strike or more.
        penalty_cost: extra cost of an outcome with a penalty (R5), as a multiple of what a
            success of the shot is worth over a passed turn (the win once the jack may be
            pocketed, R6b; else a puck and our next shot). The pucks a penalty returns wait on
            the jack spot to be pocketed again (R5h), which costs about the strikes a success
            saves in any phase; near the win a success is worth tens of pucks, and the
            penalty's own count (a puck for the striker, R5a) would be lost in it.
        layout_per_strike: value of each strike the layout a shot leaves saves, by the cost of
            its own pucks (and the jack once it may be pocketed) from the pot table, for every
            outcome in the layout it really leaves (:mod:`hikone_carrom.ai.layout_cost`; 0:
            not counted).
    """

    win: float = 60.0
    next_shot: float = 0.6
    next_shot_base: float = 0.2
    next_shot_per_chance: float = 1.2
    winning_jack_per_chance: float = 12.0
    ours_after_pass: float = 0.4
    opponent_share: float = 1.0
    opponent_near_win: float = 0.0
    passed_turn_cost: float = 0.0
    touching_nothing_cost: float = 0.3
    jack_foul_cost: float = 0.0
    penalty_cost: float = 0.0
    layout_per_strike: float = 0.0

    def alone(self, penalty_cost: float = 0.0, layout_per_strike: float = 0.0) -> Weights:
        """These weights alone on the board (the evaluation's solo clear): the other seat never
        shoots, so its pucks and its next shot count for nothing, and a shot that passes the
        turn costs the strike it wasted (:attr:`next_shot`). Our next shot is not counted after
        a passed turn: its value is that of the layout the shot leaves as meant, which a shot
        that fails does not leave; counted for the failures too, it made a lottery with a good
        leave (a break) beat a sure pot. ``penalty_cost`` and ``layout_per_strike`` are set
        per level (:class:`~hikone_carrom.ai.levels.Level`)."""
        return replace(
            self,
            opponent_share=0.0,
            opponent_near_win=0.0,
            ours_after_pass=0.0,
            passed_turn_cost=self.next_shot,
            penalty_cost=penalty_cost,
            layout_per_strike=layout_per_strike,
        )


def material(state: RefereeState, color: Color, opponent_share: float = 1.0) -> float:
    """Own pucks pocketed minus debt, minus ``opponent_share`` times the same for the opponent
    (R5i, R7b)."""
    me = state.pocketed_of(color) - state.debt_of(color)
    opp = color.opponent
    return me - opponent_share * (state.pocketed_of(opp) - state.debt_of(opp))


_JACK_FOULS = (Foul.JACK_BEFORE_PUCKS, Foul.JACK_OFF_BOARD)


@dataclass(frozen=True)
class Judgement:
    """The referee's view of one outcome for the shooter's team.

    Attributes:
        gain: change of :func:`material` (pucks). won / lost: the game ended for / against us.
        mine_next: our team shoots next (R3a success). missed: the striker touched no disk.
        state, ruling: what the referee said.
    """

    gain: float
    won: bool
    lost: bool
    mine_next: bool
    missed: bool
    state: RefereeState
    ruling: Ruling

    @property
    def over(self) -> bool:
        """True when the game ended with this shot."""
        return self.state.is_over

    @property
    def jack_foul(self) -> bool:
        """True when the jack was pocketed too early or flew off the board (R5b, R5d, R6a)."""
        return any(f in _JACK_FOULS for f in self.ruling.fouls)

    @property
    def penalized(self) -> bool:
        """True when the shot owes a penalty (R5)."""
        return self.ruling.penalty > 0


_OVER, _MINE, _THEIRS = 0, 1, 2
"""Who shoots after an outcome (:meth:`Judge._settled`)."""

_Values = TypeVar("_Values", float, np.ndarray)

_CODE_BITS = 6
_CODE_WEIGHTS = np.array([1 << (_CODE_BITS * k) for k in range(len(KEY_FIELDS))], dtype=np.int64)


@dataclass
class Judge:
    """Rulings for report keys from one state, computed once per distinct key (cached)."""

    state: RefereeState
    color: Color
    weights: Weights = field(default_factory=Weights)
    _cache: dict[tuple[int, ...], Judgement] = field(default_factory=dict, repr=False)

    def judge_many(self, keys: np.ndarray) -> tuple[list[Judgement], np.ndarray]:
        """The distinct judgements of report keys (..., fields), and for each key the index of
        its judgement (shape ``keys.shape[:-1]``): one ruling per distinct outcome."""
        flat = np.asarray(keys, dtype=np.int64).reshape(-1, len(KEY_FIELDS))
        if flat.size and (flat.min() < 0 or flat.max() >= 1 << _CODE_BITS):
            unique, inverse = np.unique(flat, axis=0, return_inverse=True)
        else:
            codes = flat @ _CODE_WEIGHTS  # each row as one integer: fields of _CODE_BITS bits
            _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
            unique = flat[first]
        return [self.judge(k) for k in unique], inverse.reshape(np.shape(keys)[:-1])

    def successes(self, keys: np.ndarray) -> np.ndarray:
        """Whether each outcome (report keys, ..., fields) keeps the turn or wins (R3a, R7a)."""
        found, inverse = self.judge_many(keys)
        ok = np.array([j.won or j.mine_next for j in found], dtype=bool)
        out: np.ndarray = ok[inverse]
        return out

    def judge(self, key: Sequence[int]) -> Judgement:
        """The judgement of a report key (see :mod:`hikone_carrom.ai.outcomes`)."""
        k = tuple(int(v) for v in key)
        found = self._cache.get(k)
        if found is None:
            new, ruling = apply(self.state, report_of_key(k))
            winner = new.winner
            won = new.is_over and winner is self.color
            lost = new.is_over and winner is self.color.opponent
            mine = (not new.is_over) and new.color(new.shooter) is self.color
            share = self.weights.opponent_share
            gain = material(new, self.color, share) - material(self.state, self.color, share)
            missed = len(k) > 9 and bool(k[9])
            found = Judgement(gain, won, lost, mine, missed, new, ruling)
            self._cache[k] = found
        return found

    def mean_values(self, keys: np.ndarray, turns: np.ndarray) -> np.ndarray:
        """Mean value per candidate of report keys (candidates, draws, fields), each outcome
        valued as :meth:`value` values it with its candidate's turn values ``turns``
        (candidates, 2: our next shot's, theirs; pucks)."""
        found, inverse = self.judge_many(keys)
        settled = [self._settled(j) for j in found]
        values = np.array([base for base, _ in settled])[inverse]
        who = np.array([nxt for _, nxt in settled], dtype=np.int8)[inverse]
        rows = np.broadcast_to(np.arange(len(keys))[:, None], inverse.shape)
        m, p = who == _MINE, who == _THEIRS
        values[m] = values[m] + turns[rows[m], 0]
        values[p] = self._passed(values[p], turns[rows[p], 0], turns[rows[p], 1])
        if self.weights.penalty_cost:
            fouled = np.array([j.penalized for j in found], dtype=bool)[inverse]
            values[fouled] -= self._penalty_cost(turns[rows[fouled], 0])
        return np.asarray(values.mean(axis=1), dtype=np.float64)

    def _penalty_cost(self, turn_mine: _Values) -> _Values:
        """The extra cost of an outcome with a penalty (:attr:`Weights.penalty_cost`), when our
        next shot is worth ``turn_mine`` (pucks; floats or arrays)."""
        w = self.weights
        if self.state.pucks_on_board(self.color) == 0:  # a success wins (R6b, R7a)
            success = 0.0 * turn_mine + w.win  # shaped like turn_mine
        else:
            success = 1.0 + turn_mine
        return w.penalty_cost * (success + w.passed_turn_cost)

    def _passed(self, base: _Values, turn_mine: _Values, turn_theirs: _Values) -> _Values:
        """The value of an outcome that passes the turn, from its settled ``base`` (pucks;
        floats or arrays): less the strike it costs and the opponent's next shot, plus the
        share of ours still to come."""
        w = self.weights
        lost = base - w.passed_turn_cost - w.opponent_share * turn_theirs
        return lost + w.ours_after_pass * turn_mine

    def _settled(self, j: Judgement) -> tuple[float, int]:
        """The part of ``j``'s value that does not depend on the next shot (pucks), and who
        shoots next: ``_OVER`` (nobody), ``_MINE`` or ``_THEIRS``."""
        w = self.weights
        if j.won:
            return j.gain + w.win, _OVER
        if j.lost:
            return j.gain - w.win, _OVER
        if j.over:
            return j.gain, _OVER
        base = j.gain - (w.touching_nothing_cost if j.missed else 0.0)
        if w.jack_foul_cost and j.jack_foul:
            base -= w.jack_foul_cost
        return base, _MINE if j.mine_next else _THEIRS

    def value(self, j: Judgement, turn_mine: float, turn_theirs: float) -> float:
        """Value of judgement ``j`` when our next shot is worth ``turn_mine`` and theirs
        ``turn_theirs`` (pucks)."""
        base, nxt = self._settled(j)
        if nxt == _MINE:
            value = base + turn_mine
        elif nxt == _THEIRS:
            value = self._passed(base, turn_mine, turn_theirs)
        else:
            value = base
        if self.weights.penalty_cost and j.penalized:
            value -= self._penalty_cost(turn_mine)
        return value
