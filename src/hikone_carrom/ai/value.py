"""What a shot's outcome is worth to the shooter's team, read through the referee (R3-R7).

Material is the score difference by the R7b reading (own pucks pocketed minus debt, minus the
opponent's), so every rule the referee applies counts: penalties and debt (R5), pucks returned by a
foul (R5h), an early jack (R5b, R6a), a restored board in doubles (R4c), service pucks (R3b).
Having the next shot is worth a *turn value*: a constant while searching broadly, then the ease of
the next shot in the position left (see :mod:`hikone_carrom.ai.position`), for the team that
shoots next. Partners in doubles share a colour, so they play for the team (R1c).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

import numpy as np

from hikone_carrom.ai.outcomes import KEY_FIELDS, report_of_key
from hikone_carrom.rules import Color, Foul, RefereeState, Ruling, apply

__all__ = ["Judge", "Judgement", "Weights", "material"]


@dataclass(frozen=True)
class Weights:
    """Values in pucks.

    Attributes:
        win: a won game (R7a). turn: the next shot, before its ease is known.
        turn_base, turn_ease: the next shot's value as ``turn_base + turn_ease * ease``.
        jack_ease: extra value per unit ease of a next shot at the jack that would win (R6b).
        regain: share of our own next shot's value still counted when the turn passes (we shoot
            again after the opponent). miss: cost of a shot that touches no disk at all.
        jack_foul: extra cost of a shot that pockets the jack before the shooter's last puck
            or sends it off the board (R5b, R5d, R6a), beyond the five pucks it counts: they
            go back to the jack spot in a stack with the jack on top (R5h, R5j), each to be
            pocketed again at a strike or more.
        foul: extra cost of an outcome with a penalty (R5), as a multiple of what a success
            of the shot is worth over a passed turn (the win once the jack may be pocketed,
            R6b; else a puck and our next shot). The pucks a penalty returns wait on the jack
            spot to be pocketed again (R5h), which costs about the strikes a success saves in
            any phase; near the win a success is worth tens of pucks, and the penalty's own
            count (a puck for the striker, R5a) would be lost in it.
        deny: extra share of the opponent's next-shot value when it has at most ``deny_left``
            pucks on the board, so is close to winning (R7a); used by the rollout.
        rival: share of the opponent's material and next shot counted (0: alone on the board).
        pass_cost: cost of a shot that passes the turn, besides the opponent's next shot.
        layout: value (pucks per strike) of the strikes a shot saves on the layout's cost, own
            pucks and the jack by the pot table, for every outcome in the layout it leaves
            (:mod:`hikone_carrom.ai.layout_cost`; 0: not counted). Alone on the board only.
    """

    win: float = 60.0
    turn: float = 0.6
    turn_base: float = 0.2
    turn_ease: float = 1.2
    jack_ease: float = 12.0
    regain: float = 0.4
    miss: float = 0.3
    deny: float = 0.0
    deny_left: int = 2
    rival: float = 1.0
    pass_cost: float = 0.0
    jack_foul: float = 0.0
    foul: float = 0.0
    layout: float = 0.0

    def solo(self, foul: float = 0.0, layout: float = 0.0) -> Weights:
        """The weights of a solo clear (issue 6): the other seat never shoots, so its pucks and
        its next shot count for nothing, and a passed turn costs the strike it wasted
        (``turn``). The next shot's value is not regained after a passed turn (``regain`` 0):
        it is the value of the layout the shot leaves when played as meant, and a shot that
        fails leaves another; counting it for the failures too made lotteries with a good
        leave (breaks) beat sure pots. ``foul`` is the extra cost of a penalty (:attr:`foul`,
        R5h), and ``layout`` the value of the layout's cost (:attr:`layout`), both set per level
        (``Level.solo_foul``, ``Level.solo_layout``)."""
        return replace(
            self, rival=0.0, regain=0.0, pass_cost=self.turn, deny=0.0, foul=foul, layout=layout
        )


def material(state: RefereeState, color: Color, rival: float = 1.0) -> float:
    """Own pucks pocketed minus debt, minus ``rival`` times the same for the opponent (R5i,
    R7b)."""
    me = state.pocketed_of(color) - state.debt_of(color)
    opp = color.opponent
    return me - rival * (state.pocketed_of(opp) - state.debt_of(opp))


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
            rival = self.weights.rival
            gain = material(new, self.color, rival) - material(self.state, self.color, rival)
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
        if self.weights.foul:
            fouled = np.array([j.penalized for j in found], dtype=bool)[inverse]
            values[fouled] -= self._foul_cost(turns[rows[fouled], 0])
        return np.asarray(values.mean(axis=1), dtype=np.float64)

    def _foul_cost(self, turn_mine: _Values) -> _Values:
        """The extra cost of an outcome with a penalty (:attr:`Weights.foul`), when our next
        shot is worth ``turn_mine`` (pucks; floats or arrays)."""
        w = self.weights
        if self.state.pucks_on_board(self.color) == 0:  # a success wins (R6b, R7a)
            success = 0.0 * turn_mine + w.win  # shaped like turn_mine
        else:
            success = 1.0 + turn_mine
        return w.foul * (success + w.pass_cost)

    def _passed(self, base: _Values, turn_mine: _Values, turn_theirs: _Values) -> _Values:
        """The value of an outcome that passes the turn, from its settled ``base`` (pucks;
        floats or arrays): less the strike it costs and the opponent's next shot, plus the
        share of ours still to come."""
        w = self.weights
        return base - w.pass_cost - w.rival * turn_theirs + w.regain * turn_mine

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
        base = j.gain - (w.miss if j.missed else 0.0)
        if w.jack_foul and j.jack_foul:
            base -= w.jack_foul
        return base, _MINE if j.mine_next else _THEIRS

    def value(self, j: Judgement, turn_mine: float, turn_theirs: float) -> float:
        """Value of judgement ``j`` when our next shot is worth ``turn_mine`` and theirs
        ``turn_theirs`` (pucks)."""
        base, nxt = self._settled(j)
        if self.weights.foul and j.penalized:
            base -= self._foul_cost(turn_mine)
        if nxt == _MINE:
            return base + turn_mine
        if nxt == _THEIRS:
            return self._passed(base, turn_mine, turn_theirs)
        return base
