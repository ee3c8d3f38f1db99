"""Search over candidate shots: simulate, judge by the rules, sample the hand's noise, value the
position left (issue 6 section 1).

Stages, each on fewer candidates: (1) every geometric candidate simulated once as meant and judged
with a constant turn value; (2) the best ``keep`` re-simulated under ``samples`` draws of the
player's own execution noise (the same draws for every candidate: common random numbers); (3) the
best ``position`` valued with the ease of the next shot, ours if we keep the turn and the
opponent's if it passes; (4) optionally small changes of angle and speed around the best.
Everything is drawn from the generator it is given, so a search is deterministic for a seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from hikone_carrom.ai.candidates import Candidate, CandidateBudget, generate
from hikone_carrom.ai.errors import NoLegalShotError
from hikone_carrom.ai.noise import NoiseModel
from hikone_carrom.ai.outcomes import execute, layout_after, report_keys, run_shots
from hikone_carrom.ai.position import turn_value
from hikone_carrom.ai.value import Judge, Weights
from hikone_carrom.ai.view import TableView
from hikone_carrom.match import Noise
from hikone_carrom.rules import next_seat

__all__ = ["SearchConfig", "SearchResult", "search"]

_SEED_LIMIT = 1 << 62
_FALLBACK = CandidateBudget(placements=5, arrivals=(), breaks=True, safety=8)
_REFINE_ANGLES = (-0.8, -0.3, 0.3, 0.8)  # degrees
_REFINE_SPEEDS = (0.9, 1.12)


@dataclass(frozen=True)
class SearchConfig:
    """A search budget (issue 6: levels differ by execution noise and search budget).

    Attributes:
        budget: which candidates to generate. keep: candidates re-simulated under noise.
        samples: noise draws per kept candidate (0: judge the shot as meant only).
        position: candidates whose position left is valued (0: none).
        refine: try small angle/speed changes around the best.
        choice_top: choose at random among this many best (1: always the best).
        weights: values of win, turn and ease (pucks).
    """

    budget: CandidateBudget = field(default_factory=CandidateBudget)
    keep: int = 12
    samples: int = 0
    position: int = 0
    refine: bool = False
    choice_top: int = 1
    weights: Weights = field(default_factory=Weights)


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


def _seeds(rng: np.random.Generator, n: int) -> list[int]:
    return [int(s) for s in rng.integers(0, _SEED_LIMIT, size=n)]


class _Search:
    def __init__(
        self,
        view: TableView,
        config: SearchConfig,
        noise: NoiseModel,
        rng: np.random.Generator,
        fly_off: bool,
    ) -> None:
        self.view = view
        self.config = config
        self.noise = noise
        self.rng = rng
        self.fly_off = fly_off
        self.judge = Judge(view.state, view.color, config.weights)
        self.simulated = 0

    def simulate(self, shots: np.ndarray) -> np.ndarray:
        batch = run_shots(self.view, shots, _seeds(self.rng, len(shots)), self.fly_off)
        self.simulated += len(shots)
        return report_keys(self.view, batch)

    def noisy(self, shots: np.ndarray, draws: np.ndarray) -> np.ndarray:
        """Every shot executed under every draw: (len(shots) * len(draws), 4)."""
        v = self.view
        out = np.empty((len(shots) * len(draws), 4))
        row = 0
        for shot in shots:
            for d in draws:
                noise = Noise(float(d[0]), float(d[1]), float(d[2]), float(d[3]))
                out[row] = execute(v.placement, tuple(shot), noise, v.board.max_speed)
                row += 1
        return out

    def sampled_values(
        self, shots: np.ndarray, draws: np.ndarray, turns: list[tuple[float, float]] | None
    ) -> np.ndarray:
        keys = self.simulate(self.noisy(shots, draws)).reshape(len(shots), len(draws), -1)
        w = self.config.weights
        out = np.empty(len(shots))
        for c in range(len(shots)):
            mine, theirs = turns[c] if turns is not None else (w.turn, w.turn)
            vals = [self.judge.value(self.judge.judge(k), mine, theirs) for k in keys[c]]
            out[c] = float(np.mean(vals))
        return out

    def turns_after(self, shot: np.ndarray) -> tuple[float, float]:
        """(our next shot's value, theirs) in the position the shot leaves when played as meant."""
        v = self.view
        batch = run_shots(v, shot[None, :], _seeds(self.rng, 1), self.fly_off)
        self.simulated += 1
        j = self.judge.judge(report_keys(v, batch)[0])
        w = self.config.weights
        if j.over:
            return w.turn, w.turn
        layout = layout_after(v, batch, 0, j.ruling)
        state = j.state
        mine = TableView.build(v.board, v.players, v.seat, state, layout)
        theirs = TableView.build(v.board, v.players, next_seat(v.seat, v.players), state, layout)
        return turn_value(mine, w), turn_value(theirs, w)

    def run(self) -> SearchResult:
        v, cfg = self.view, self.config
        cands = generate(v, cfg.budget) or generate(v, _FALLBACK)
        if not cands:
            raise NoLegalShotError(
                "no legal placement for the striker (R2a, R2b)",
                "ストライカーを置ける場所がありません（R2a, R2b）",
            )
        shots = np.array([[c.x, c.y, c.angle, c.speed] for c in cands])
        keys = self.simulate(shots)
        values = np.array([self.judge.quick_value(k) for k in keys])
        order = np.argsort(-values, kind="stable")
        pool = order[: max(1, cfg.keep)]
        pool_values = values[pool]
        sampling = cfg.samples > 0 and not self.noise.is_zero
        draws = self.noise.draw_many(self.rng, cfg.samples) if sampling else np.zeros((1, 4))
        if sampling:
            pool_values = self.sampled_values(shots[pool], draws, None)
            ranked = np.argsort(-pool_values, kind="stable")
            pool, pool_values = pool[ranked], pool_values[ranked]
        turns: list[tuple[float, float]] | None = None
        if cfg.position > 0:
            pool = pool[: cfg.position]
            turns = [self.turns_after(shots[c]) for c in pool]
            pool_values = self.sampled_values(shots[pool], draws, turns)
            ranked = np.argsort(-pool_values, kind="stable")
            pool, pool_values = pool[ranked], pool_values[ranked]
            turns = [turns[int(k)] for k in ranked]
        pick = 0
        if cfg.choice_top > 1:
            pick = int(self.rng.integers(0, min(cfg.choice_top, len(pool))))
        best = cands[int(pool[pick])]
        best_shot = shots[int(pool[pick])]
        best_value = float(pool_values[pick])
        if cfg.refine:
            best, best_shot, best_value = self.refine(
                best, best_shot, best_value, draws, turns[pick] if turns else None
            )
        return SearchResult(
            tuple(float(s) for s in best_shot),  # type: ignore[arg-type]
            best,
            best_value,
            self.simulated,
            len(cands),
        )

    def refine(
        self,
        best: Candidate,
        shot: np.ndarray,
        value: float,
        draws: np.ndarray,
        turn: tuple[float, float] | None,
    ) -> tuple[Candidate, np.ndarray, float]:
        variants = [shot.copy() for _ in range(len(_REFINE_ANGLES) + len(_REFINE_SPEEDS))]
        for k, deg in enumerate(_REFINE_ANGLES):
            variants[k][2] = math.remainder(shot[2] + math.radians(deg), 2.0 * math.pi)
        for k, factor in enumerate(_REFINE_SPEEDS):
            row = variants[len(_REFINE_ANGLES) + k]
            row[3] = min(max(shot[3] * factor, 0.05), self.view.board.max_speed)
        arr = np.array(variants)
        turns = [turn] * len(arr) if turn is not None else None
        vals = self.sampled_values(arr, draws, turns)
        k = int(np.argmax(vals))
        if vals[k] > value:
            row = arr[k]
            return replace(best, angle=float(row[2]), speed=float(row[3])), row, float(vals[k])
        return best, shot, value


def search(
    view: TableView,
    config: SearchConfig,
    noise: NoiseModel,
    rng: np.random.Generator,
    fly_off: bool = True,
) -> SearchResult:
    """The best shot found for the seat of ``view`` within ``config``, judging outcomes under the
    hand's ``noise`` and drawing every random choice from ``rng``.

    Raises:
        NoLegalShotError: no legal placement for the striker.
    """
    return _Search(view, config, noise, rng, fly_off).run()
