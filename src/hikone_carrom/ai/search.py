"""Search over candidate shots: simulate, judge by the rules, sample the hand's noise, value the
position left.

A search runs in stages, each on fewer shots (:class:`SearchConfig`); every outcome is judged
by the referee itself and valued by :class:`~hikone_carrom.ai.value.Weights`:

1. Candidates: the geometric ones (:mod:`hikone_carrom.ai.candidates`), many jack shots once the
   jack may be pocketed (R6b), and the best shots of a sweep of directions and speeds
   (:mod:`hikone_carrom.ai.sweep`), each simulated once as meant or under a few draws of the
   hand's noise ("screening", so that a shot whose one as-meant outcome is lucky, such as a
   break, is not kept for it); the next shot counts a constant.
2. Shortlist: the best re-simulated under more draws, the same for every shot (common random
   numbers).
3. Next shot: the best given more draws and valued with the next shot's chance, ours if we keep
   the turn and the opponent's if it passes: simulated (a *rollout*: the best direct pot of
   each side in the layout left, under a few draws) or the geometric ease of that pot
   (:mod:`hikone_carrom.ai.position`).
4. Refinement: small turns, speed changes and slides along the area line (R2b) around the best
   few, judged under fresh draws for :data:`REFINE_ROUNDS` rounds with halved steps, then the
   refined shots and their starts judged once more under fresh draws: the aimed shot is the
   best as meant, not necessarily the one that succeeds most often under the hand.

Everything is drawn from the generator it is given, so a search is deterministic for a seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from hikone_carrom.ai.candidates import Candidate, CandidateBudget, generate
from hikone_carrom.ai.errors import NoLegalShotError
from hikone_carrom.ai.layout_cost import layout_gain
from hikone_carrom.ai.noise import NoiseModel
from hikone_carrom.ai.outcomes import execute_many, layout_after, report_keys, run_shots
from hikone_carrom.ai.position import turn_value
from hikone_carrom.ai.racing import halve
from hikone_carrom.ai.sweep import SweepBudget, sweep
from hikone_carrom.ai.value import NEAR_WIN_PUCKS, Judge, Weights
from hikone_carrom.ai.view import TableView
from hikone_carrom.match import PlacementKind
from hikone_carrom.physics import BatchResult
from hikone_carrom.rules import next_seat

__all__ = ["REFINE_ROUNDS", "SearchConfig", "SearchResult", "search"]

_SEED_LIMIT = 1 << 62
_FALLBACK = CandidateBudget(placements=5, arrivals=(), breaks=True, safety=8)
"""Candidates when the budget finds no pot: breaks and safeties."""
REFINE_ROUNDS = 2
"""Rounds of refinement, the steps halved each round."""
_REFINE_ANGLES = (-1.2, -0.7, -0.35, 0.35, 0.7, 1.2)  # degrees
_REFINE_SPEEDS = (-0.12, -0.06, 0.06, 0.13)  # relative change
_REFINE_SLIDES = (-0.006, 0.006)  # m along the area line (R2b)
_ROLLOUT_BUDGET = CandidateBudget(placements=4, arrivals=(0.6,))
_ROLLOUT_JACK_BUDGET = CandidateBudget(placements=7, arrivals=(0.3, 0.7), banks=True)
_ROLLOUT_KEEP = 12
"""Direct pots that work as meant a rollout tries under the hand's noise."""
_ROLLOUT_DRAWS = 8
"""Draws of the hand's noise a rollout's pots are tried under."""
_MILLI = 1000.0
"""Layout gains are kept in thousandths of a strike, as integers beside the report keys."""


@dataclass(frozen=True)
class SearchConfig:
    """How a player searches one position, stage by stage (see the module's docstring). Draws
    are draws of the player's own hand's noise; a count of 0 leaves a stage out, and with an
    exact hand (no noise) every draw is the shot as meant.

    Attributes:
        candidates: the geometric candidate shots.
        jack_candidates: more candidates once the jack may be pocketed (R6b; pocketing it wins,
            so they are many). None: none.
        sweep: the best shots of a sweep join the candidates (None: no sweep).
        screen_draws: stage 1, draws every candidate is judged under (0: as meant only).
        jack_screen_draws: the same once the jack may be pocketed, so that the jack shot is
            chosen by its chance of success (0: ``screen_draws``).
        shortlist: stage 2, how many of the best candidates go on.
        shortlist_draws: more draws the shortlist is judged under (0: none).
        halving: instead, the shortlist raced (:func:`~hikone_carrom.ai.racing.halve`): the
            draws added in each round, the better half kept after each, never fewer than
            ``rollouts`` (empty: no race).
        rollouts: stage 3, how many of the shortlist are valued with the simulated chance of
            the next shot (a rollout), after ``rollout_draws`` more draws of their own.
        rollout_draws: see ``rollouts``.
        ease_valued: stage 3 without rollouts: how many of the shortlist are valued with the
            geometric ease of the next shot instead.
        refined: stage 4, how many of the best are refined (0: the best is played).
        refine_draws: fresh draws shared by every variant of a refinement round.
        final_draws: fresh draws the refined shots and their starts are judged under once
            more, the best played (0: the best refined shot by the draws it was refined on,
            which favours a variant whose rare bad outcome, such as the jack falling early,
            R5b, those draws happened to miss).
        pick_among: without refinement, the shot played is drawn among this many of the best
            (1: the best).
    """

    candidates: CandidateBudget = field(default_factory=CandidateBudget)
    jack_candidates: CandidateBudget | None = None
    sweep: SweepBudget | None = None
    screen_draws: int = 0
    jack_screen_draws: int = 0
    shortlist: int = 12
    shortlist_draws: int = 0
    halving: tuple[int, ...] = ()
    rollouts: int = 0
    rollout_draws: int = 0
    ease_valued: int = 0
    refined: int = 0
    refine_draws: int = 64
    final_draws: int = 0
    pick_among: int = 1


@dataclass(frozen=True)
class SearchResult:
    """The chosen shot (x m, y m, angle rad, speed m/s), its candidate, its estimated value
    (pucks) and the number of shots simulated to find it."""

    shot: tuple[float, float, float, float]
    candidate: Candidate
    value: float
    simulated: int
    candidates: int

    def info(self) -> dict[str, object]:
        """Plain JSON for a hint or a record."""
        out = self.candidate.info()
        out.update(value=round(self.value, 4), simulated=self.simulated, candidates=self.candidates)
        return out


def _seeds(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, _SEED_LIMIT, size=n)


class _Search:
    def __init__(
        self,
        view: TableView,
        config: SearchConfig,
        weights: Weights,
        noise: NoiseModel,
        rng: np.random.Generator,
        fly_off: bool,
    ) -> None:
        self.view = view
        self.config = config
        self.weights = weights
        self.noise = noise
        self.rng = rng
        self.fly_off = fly_off
        self.judge = Judge(view.state, view.color, weights)
        self.simulated = 0

    def simulate(self, shots: np.ndarray) -> np.ndarray:
        """Outcomes of ``shots`` (M, 4): their report keys and, in a last column, the layout
        gain (:func:`~hikone_carrom.ai.layout_cost.layout_gain`) in thousandths of a strike
        when it is valued (``Weights.layout_per_strike``), else 0: (M, len(KEY_FIELDS) + 1) ints."""
        batch = self.run_counted(self.view, shots)
        gain = np.zeros((len(batch), 1), dtype=np.int64)
        if self.weights.layout_per_strike:
            gain[:, 0] = np.round(layout_gain(self.view, batch) * _MILLI)
        return np.concatenate([report_keys(self.view, batch), gain], axis=1)

    def noisy(
        self, shots: np.ndarray, draws: np.ndarray, view: TableView | None = None
    ) -> np.ndarray:
        """Every shot executed under every draw: (len(shots) * len(draws), 4)."""
        v = self.view if view is None else view
        return execute_many(v.placement, shots, draws, v.board.max_speed)

    def sampled_values(
        self, shots: np.ndarray, draws: np.ndarray, turns: list[tuple[float, float]] | None
    ) -> np.ndarray:
        keys = self.simulate(self.noisy(shots, draws)).reshape(len(shots), len(draws), -1)
        return self.values_of(keys, turns)

    def values_of(
        self, outcomes: np.ndarray, turns: list[tuple[float, float]] | None
    ) -> np.ndarray:
        """Mean value per candidate of outcomes (candidates, draws, :meth:`simulate`'s columns),
        with each candidate's turn values (None: the constant ``next_shot``)."""
        w = self.weights
        if turns is None:
            pairs = np.full((len(outcomes), 2), w.next_shot)
        else:
            pairs = np.array(turns, dtype=np.float64).reshape(-1, 2)
        values = self.judge.mean_values(outcomes[..., :-1], pairs)
        if w.layout_per_strike:
            values = values + w.layout_per_strike * (outcomes[..., -1] / _MILLI).mean(axis=1)
        return values

    def run_counted(self, view: TableView, shots: np.ndarray) -> BatchResult:
        """Simulate ``shots`` from ``view``'s layout, counting them."""
        batch = run_shots(view, shots, _seeds(self.rng, len(shots)), self.fly_off)
        self.simulated += len(shots)
        return batch

    def next_views(self, shot: np.ndarray) -> tuple[TableView, TableView | None] | None:
        """The table as our next shot and the opponent's would see it once ``shot`` is played
        as meant (settled and re-spotted, R6e); the opponent's is None when we are alone on
        the board (``opponent_share`` 0), and the whole is None when the shot ends the game."""
        v = self.view
        batch = self.run_counted(v, shot[None, :])
        j = self.judge.judge(report_keys(v, batch)[0])
        if j.over:
            return None
        layout = layout_after(v, batch, 0, j.ruling)
        mine = TableView.build(v.board, v.players, v.seat, j.state, layout)
        if self.weights.opponent_share == 0.0:
            return mine, None  # alone on the board: the other seat never shoots
        other = next_seat(v.seat, v.players)
        return mine, TableView.build(v.board, v.players, other, j.state, layout)

    def turns_after(self, shot: np.ndarray) -> tuple[float, float]:
        """(our next shot's value, theirs) in the position the shot leaves when played as meant,
        from the geometric ease of each side's best pot."""
        w = self.weights
        views = self.next_views(shot)
        if views is None:
            return w.next_shot, w.next_shot
        mine, theirs = views
        return turn_value(mine, w), 0.0 if theirs is None else turn_value(theirs, w)

    def chance(self, view: TableView, draws: np.ndarray) -> float:
        """Estimated chance that the best direct pot of ``view``'s seat keeps its turn or wins
        (R3a, R7a): the best share of ``draws`` over its first few pots that work as meant."""
        cands = generate(view, _ROLLOUT_JACK_BUDGET if view.jack_allowed else _ROLLOUT_BUDGET)
        if not cands:
            return 0.0
        shots = np.array([[c.x, c.y, c.angle, c.speed] for c in cands])
        judge = Judge(view.state, view.color, self.weights)
        keys = report_keys(view, self.run_counted(view, shots))
        ok = np.flatnonzero(judge.successes(keys))[:_ROLLOUT_KEEP]
        if not len(ok):
            return 0.0
        noisy = self.noisy(shots[ok], draws, view)
        sampled = judge.successes(report_keys(view, self.run_counted(view, noisy)))
        return float(sampled.reshape(len(ok), len(draws)).mean(axis=1).max())

    def rollout_turns(self, shot: np.ndarray, draws: np.ndarray) -> tuple[float, float]:
        """(our next shot's value, theirs) in the position the shot leaves when played as meant,
        from the simulated chance of each side's best next pot (jack pots that win count
        ``winning_jack_per_chance`` more, R6b; the opponent's counts ``opponent_near_win`` more
        when it has at most :data:`~hikone_carrom.ai.value.NEAR_WIN_PUCKS` pucks on the board,
        R7a)."""
        w = self.weights
        views = self.next_views(shot)
        if views is None:
            return w.next_shot, w.next_shot
        out = []
        for view in views:
            if view is None:
                out.append(0.0)
                continue
            p = self.chance(view, draws)
            value = w.next_shot_base + w.next_shot_per_chance * p
            if view.jack_allowed:
                value += w.winning_jack_per_chance * p
            if (
                view.color is not self.view.color
                and view.state.pucks_on_board(view.color) <= NEAR_WIN_PUCKS
            ):
                value *= 1.0 + w.opponent_near_win
            out.append(value)
        return out[0], out[1]

    def candidates(self) -> list[Candidate]:
        """The shots to weigh: the configured candidates (jack pots first when the jack may
        be pocketed, R6b) and the sweep; raises :class:`NoLegalShotError` when there are none
        (no legal placement, R2a, R2b)."""
        v, cfg = self.view, self.config
        cands = generate(v, cfg.candidates) or generate(v, _FALLBACK)
        if v.jack_allowed and cfg.jack_candidates is not None:
            cands = generate(v, cfg.jack_candidates) + cands
        if cfg.sweep is not None:
            cands = cands + sweep(v, cfg.sweep, self.succeeds, self.noise.angle)
        if not cands:
            raise NoLegalShotError(
                "no legal placement for the striker (R2a, R2b)",
                "ストライカーを置ける場所がありません（R2a, R2b）",
            )
        return cands

    def run(self) -> SearchResult:
        v, cfg = self.view, self.config
        jack = v.jack_allowed and cfg.jack_candidates is not None
        cands = self.candidates()
        shots = np.array([[c.x, c.y, c.angle, c.speed] for c in cands])
        screen = cfg.jack_screen_draws if jack and cfg.jack_screen_draws > 0 else cfg.screen_draws
        screening = screen > 0 and not self.noise.is_zero
        first: np.ndarray | None = None
        if screening:
            screen_draws = self.noise.draw_many(self.rng, screen)
            first = self.simulate(self.noisy(shots, screen_draws)).reshape(len(shots), screen, -1)
            values = self.values_of(first, None)
        else:
            values = self.values_of(self.simulate(shots)[:, None, :], None)  # one draw: as meant
        order = np.argsort(-values, kind="stable")
        pool = order[: max(1, cfg.shortlist)]
        pool_values = values[pool]
        sampling = cfg.shortlist_draws > 0 and not self.noise.is_zero
        draws = (
            self.noise.draw_many(self.rng, cfg.shortlist_draws) if sampling else np.zeros((1, 4))
        )
        keys: np.ndarray | None = None
        if cfg.halving and not self.noise.is_zero:
            sampling = True
            pool, keys, pool_values = self.race(shots, pool, first)
        elif sampling:
            keys = self.simulate(self.noisy(shots[pool], draws)).reshape(len(pool), len(draws), -1)
            if first is not None:
                keys = np.concatenate([first[pool], keys], axis=1)
            pool_values = self.values_of(keys, None)
            ranked = np.argsort(-pool_values, kind="stable")
            pool, pool_values, keys = pool[ranked], pool_values[ranked], keys[ranked]
        turns: list[tuple[float, float]] | None = None
        if cfg.rollouts > 0:
            n = min(cfg.rollouts, len(pool))
            pool = pool[:n]
            if keys is None:
                keys = self.simulate(self.noisy(shots[pool], draws)).reshape(n, len(draws), -1)
            keys = keys[:n]
            if sampling and cfg.rollout_draws > 0:
                more = self.noise.draw_many(self.rng, cfg.rollout_draws)
                extra = self.simulate(self.noisy(shots[pool], more)).reshape(n, len(more), -1)
                keys = np.concatenate([keys, extra], axis=1)
            little = (
                self.noise.draw_many(self.rng, _ROLLOUT_DRAWS) if sampling else np.zeros((1, 4))
            )
            turns = [self.rollout_turns(shots[c], little) for c in pool]
            pool_values = self.values_of(keys, turns)
            ranked = np.argsort(-pool_values, kind="stable")
            pool, pool_values = pool[ranked], pool_values[ranked]
            turns = [turns[int(k)] for k in ranked]
        elif cfg.ease_valued > 0:
            pool = pool[: cfg.ease_valued]
            turns = [self.turns_after(shots[c]) for c in pool]
            pool_values = self.sampled_values(shots[pool], draws, turns)
            ranked = np.argsort(-pool_values, kind="stable")
            pool, pool_values = pool[ranked], pool_values[ranked]
            turns = [turns[int(k)] for k in ranked]
        if cfg.refined > 0:
            top = [int(c) for c in pool[: cfg.refined]]
            best, best_shot, best_value = self.refine(
                [cands[c] for c in top], shots[top], turns[: len(top)] if turns else None
            )
        else:
            pick = 0
            if cfg.pick_among > 1:
                pick = int(self.rng.integers(0, min(cfg.pick_among, len(pool))))
            best = cands[int(pool[pick])]
            best_shot = shots[int(pool[pick])]
            best_value = float(pool_values[pick])
        return SearchResult(
            tuple(float(s) for s in best_shot),  # type: ignore[arg-type]
            best,
            best_value,
            self.simulated,
            len(cands),
        )

    def race(
        self, shots: np.ndarray, pool: np.ndarray, first: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The shortlist ``pool`` (indices into ``shots``) raced from its screening outcomes
        ``first`` (None: as meant): the survivors best first, their outcomes and values."""
        start = self.simulate(shots[pool])[:, None, :] if first is None else first[pool]

        def more(rows: np.ndarray, n: int) -> np.ndarray:
            draws = self.noise.draw_many(self.rng, n)
            outcomes = self.simulate(self.noisy(shots[pool[rows]], draws))
            return outcomes.reshape(len(rows), n, -1)

        cfg = self.config
        kept, keys, values = halve(
            start, more, lambda k: self.values_of(k, None), cfg.halving, max(1, cfg.rollouts)
        )
        return pool[kept], keys, values

    def succeeds(self, shots: np.ndarray) -> np.ndarray:
        """Whether each shot, played as meant, keeps the turn or wins (R3a, R7a)."""
        return self.judge.successes(report_keys(self.view, self.run_counted(self.view, shots)))

    def refine(
        self,
        found: list[Candidate],
        shots: np.ndarray,
        turns: list[tuple[float, float]] | None,
    ) -> tuple[Candidate, np.ndarray, float]:
        """The best of ``found`` after refining each (see :attr:`SearchConfig.refined`): per
        round, every candidate moves to its best variant under the round's fresh draws, shared
        by all (one batch), so the last round's values compare the candidates on the same
        draws; with ``final_draws``, the refined and the starting shots are compared on fresh
        ones."""
        cfg = self.config
        centres, values = shots, np.zeros(len(shots))
        step = 1.0
        for _ in range(REFINE_ROUNDS):
            draws = (
                np.zeros((1, 4))
                if self.noise.is_zero
                else self.noise.draw_many(self.rng, max(1, cfg.refine_draws))
            )
            variants = np.stack([self.variants(centre, step) for centre in centres])
            n = variants.shape[1]
            each = [t for t in turns for _ in range(n)] if turns is not None else None
            vals = self.sampled_values(variants.reshape(-1, 4), draws, each).reshape(-1, n)
            best = np.argmax(vals, axis=1)  # the first (the centre itself) wins ties
            rows = np.arange(len(centres))
            centres, values = variants[rows, best], vals[rows, best]
            step *= 0.5
        if cfg.final_draws > 0 and not self.noise.is_zero:
            centres, found = np.concatenate([centres, shots]), found + found
            both = None if turns is None else turns + turns
            draws = self.noise.draw_many(self.rng, cfg.final_draws)
            values = self.sampled_values(centres, draws, both)
        c = int(np.argmax(values))
        row = centres[c]
        x, y, angle, speed = (float(v) for v in row)
        return replace(found[c], x=x, y=y, angle=angle, speed=speed), row, float(values[c])

    def variants(self, shot: np.ndarray, step: float) -> np.ndarray:
        """``shot`` itself, then small turns of its angle, changes of its speed and slides of the
        striker along the area line (``step`` times :data:`_REFINE_ANGLES` degrees,
        :data:`_REFINE_SPEEDS` and :data:`_REFINE_SLIDES` m; a slide to a point where the
        striker may not stand, R2b, repeats the shot itself)."""
        n = 1 + len(_REFINE_ANGLES) + len(_REFINE_SPEEDS)
        out = np.repeat(shot[None, :], n + len(_REFINE_SLIDES), axis=0)
        for k, deg in enumerate(_REFINE_ANGLES, start=1):
            out[k, 2] = math.remainder(shot[2] + math.radians(deg * step), 2.0 * math.pi)
        for k, change in enumerate(_REFINE_SPEEDS, start=1 + len(_REFINE_ANGLES)):
            out[k, 3] = min(max(shot[3] * (1.0 + change * step), 0.05), self.view.board.max_speed)
        placement = self.view.placement
        if placement.kind is PlacementKind.LINE:
            (x0, y0), (x1, y1) = placement.line
            length = math.hypot(x1 - x0, y1 - y0)
            ux, uy = (x1 - x0) / length, (y1 - y0) / length
            for k, slide in enumerate(_REFINE_SLIDES, start=n):
                x, y = shot[0] + ux * slide * step, shot[1] + uy * slide * step
                if placement.contains(x, y):
                    out[k, 0], out[k, 1] = x, y
        return out


def search(
    view: TableView,
    config: SearchConfig,
    weights: Weights,
    noise: NoiseModel,
    rng: np.random.Generator,
    fly_off: bool = True,
) -> SearchResult:
    """The best shot found for the seat of ``view`` within ``config``, valuing outcomes by
    ``weights``, judging them under the hand's ``noise`` and drawing every random choice from
    ``rng``.

    Raises:
        NoLegalShotError: no legal placement for the striker.
    """
    return _Search(view, config, weights, noise, rng, fly_off).run()
