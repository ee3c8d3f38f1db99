"""Post-game analysis of a match record: for every shot, the expert's best shot in that position and
both shots' chance of success under the 1x hand, and each player's accuracy.

    from hikone_carrom.ai.analysis import analyse
    report = analyse(record)              # a record of hikone_carrom.records (a dict)
    report.accuracy(0)                    # seat 0's accuracy, 0-100
    report.to_dict()                      # plain JSON, what the server stores

A shot *succeeds* when its side keeps the turn or wins (R3a, R7a), as the computer players judge
their candidates (:mod:`hikone_carrom.ai.chance`). Each shot's chance is its share of successes
under :data:`DRAWS` draws of the 1x hand (:data:`~hikone_carrom.ai.noise.BASE_NOISE`: 2 mm,
1.0 degree, 3 %), the shot played and the expert's sharing the same draws and the physics seed the
game used for that action. The expert is level 6 deciding for a 1x hand with a lighter search
(:data:`ANALYST`: its candidates and values, fewer draws and rollouts, a coarser sweep), so that a
40-shot game is analysed in seconds (``hikone-carrom bench analysis``). A shot's *chance lost* is
how much less likely to succeed it was than the expert's (never below 0); a player's *accuracy* is
100 x (1 - mean chance lost) over their shots. Everything is seeded from the record, so the same
record gives the same analysis, bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from hikone_carrom.ai.chance import success_chances
from hikone_carrom.ai.levels import EXPERT_LEVEL, LEVELS
from hikone_carrom.ai.noise import BASE_NOISE, decision_rng
from hikone_carrom.ai.player import Player
from hikone_carrom.ai.players import SearchPlayer
from hikone_carrom.ai.search import SearchConfig
from hikone_carrom.ai.sweep import SweepBudget
from hikone_carrom.ai.view import TableView
from hikone_carrom.match import ActionKind, Match, Shot, shot_seed
from hikone_carrom.records.codec import check_header, match_of
from hikone_carrom.records.replay import iter_replay
from hikone_carrom.rules import Color

__all__ = [
    "ANALYSIS_VERSION",
    "ANALYST",
    "DRAWS",
    "Analyser",
    "Analysis",
    "AnalysisFormatError",
    "ShotAnalysis",
    "analyse",
    "shot_numbers",
]

ANALYSIS_VERSION = 2
"""Version of :meth:`Analysis.to_dict`; a change of method gives a new version (2: the expert's
shot found by :data:`ANALYST`)."""

ANALYST: SearchConfig = replace(
    LEVELS[EXPERT_LEVEL].search,
    sweep=SweepBudget(placements=9, step=1.0, speeds=(0.7, 1.4, 2.6, 4.0), keep=16),
    shortlist=12,
    shortlist_draws=12,
    rollouts=4,
    rollout_draws=16,
    refined=1,
    refine_draws=32,
    final_draws=64,
)
"""How the analysis's expert searches a position: level 6's candidates, a coarser sweep, fewer
draws, rollouts and refinements (about a fifth of its decision's time, docs/ai.md)."""

DRAWS = 200
"""Draws of the 1x hand per shot: a chance's standard error is at most 3.5 percentage points."""

_STREAM = 7
"""The analysis's own stream of :func:`~hikone_carrom.ai.noise.decision_rng`."""
_SEED_LIMIT = 1 << 62


class AnalysisFormatError(ValueError):
    """A stored analysis that cannot be read (not an analysis, another version)."""


@dataclass(frozen=True)
class ShotAnalysis:
    """One shot of the game.

    Attributes:
        n: the action's number in the record (1-based). seat, color: who shot.
        played: the shot as the player meant it. played_chance: its chance of success (0-1).
        best: the expert's shot in that position. best_chance: its chance (0-1).
        best_kind: what the expert's shot is ("direct", "bank", "break", ...).
        succeeded: whether the shot played kept the turn or won in the game.
    """

    n: int
    seat: int
    color: Color
    played: Shot
    played_chance: float
    best: Shot
    best_chance: float
    best_kind: str | None
    succeeded: bool

    @property
    def chance_lost(self) -> float:
        """How much less likely to succeed the shot played was than the expert's (0-1)."""
        return max(0.0, self.best_chance - self.played_chance)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return {
            "n": self.n,
            "seat": self.seat,
            "color": self.color.value,
            "played": self.played.to_dict(),
            "played_chance": self.played_chance,
            "best": self.best.to_dict(),
            "best_chance": self.best_chance,
            "best_kind": self.best_kind,
            "succeeded": self.succeeded,
            "chance_lost": self.chance_lost,
        }

    @classmethod
    def from_dict(cls, data: Any) -> ShotAnalysis:
        """Rebuild from :meth:`to_dict` output; raises :class:`AnalysisFormatError`."""
        try:
            return cls(
                n=int(data["n"]),
                seat=int(data["seat"]),
                color=Color(data["color"]),
                played=Shot.from_dict(data["played"]),
                played_chance=float(data["played_chance"]),
                best=Shot.from_dict(data["best"]),
                best_chance=float(data["best_chance"]),
                best_kind=None if data["best_kind"] is None else str(data["best_kind"]),
                succeeded=bool(data["succeeded"]),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise AnalysisFormatError(f"not a shot analysis: {err}") from err


@dataclass(frozen=True)
class Analysis:
    """The analysis of (some of) a game's shots, in order of play."""

    players: int
    shots: tuple[ShotAnalysis, ...]
    draws: int = DRAWS
    version: int = ANALYSIS_VERSION

    def of_seat(self, seat: int) -> tuple[ShotAnalysis, ...]:
        """The shots ``seat`` played."""
        return tuple(s for s in self.shots if s.seat == seat)

    def accuracy(self, seat: int) -> float | None:
        """100 x (1 - mean chance lost) over ``seat``'s shots; ``None`` if it took none."""
        mine = self.of_seat(seat)
        if not mine:
            return None
        return 100.0 * (1.0 - sum(s.chance_lost for s in mine) / len(mine))

    def merged(self, other: Analysis) -> Analysis:
        """Both analyses' shots in order of play (``other``'s win where both have a shot).

        Raises:
            ValueError: both have shots, analysed with different numbers of draws.
        """
        if self.shots and other.shots and self.draws != other.draws:
            raise ValueError(f"cannot merge analyses of {self.draws} and {other.draws} draws")
        by_n = {s.n: s for s in self.shots} | {s.n: s for s in other.shots}
        draws = self.draws if self.shots else other.draws
        return Analysis(self.players, tuple(by_n[n] for n in sorted(by_n)), draws)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON, with every seat's accuracy (``None`` for a seat that took no shot)."""
        return {
            "version": self.version,
            "draws": self.draws,
            "players": self.players,
            "accuracy": [self.accuracy(seat) for seat in range(self.players)],
            "shots": [s.to_dict() for s in self.shots],
        }

    @classmethod
    def from_dict(cls, data: Any) -> Analysis:
        """Rebuild from :meth:`to_dict` output; raises :class:`AnalysisFormatError`."""
        if not isinstance(data, dict) or data.get("version") != ANALYSIS_VERSION:
            raise AnalysisFormatError(f"not an analysis of version {ANALYSIS_VERSION}")
        try:
            shots = tuple(ShotAnalysis.from_dict(s) for s in data["shots"])
            return cls(int(data["players"]), shots, int(data["draws"]))
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, AnalysisFormatError):
                raise
            raise AnalysisFormatError(f"not an analysis: {err}") from err


def shot_numbers(record: Any) -> list[int]:
    """The numbers (1-based) of the record's shot actions.

    Raises:
        RecordFormatError: the record's envelope is malformed.
    """
    data = check_header(record)
    return [
        n
        for n, entry in enumerate(data["actions"], start=1)
        if isinstance(entry, dict) and entry.get("kind") == ActionKind.SHOT
    ]


def _expert_seed(seed: int, n: int) -> int:
    return (seed * 1_000_003 + n * 7_919) % _SEED_LIMIT


def _positions(data: dict[str, Any], last: int) -> Iterator[tuple[int, Match]]:
    """(n, the match just before action n) for n = 1..last, each action checked by the replay;
    the match is valid until the next item is asked for."""
    replay = iter_replay(data)
    yield 1, match_of(data)
    for step in replay:
        if step.n >= last:
            return
        assert isinstance(step.match, Match)  # a record with a board replays into a Match
        yield step.n + 1, step.match


def _analyst(seed: int) -> Player:
    """The analysis's expert: level 6's values, :data:`ANALYST`'s search, the 1x hand."""
    return SearchPlayer("analyst", seed, BASE_NOISE, ANALYST, LEVELS[EXPERT_LEVEL].weights)


def _analyse_position(
    match: Match,
    entry: dict[str, Any],
    n: int,
    seed: int,
    draws: int,
    expert: Callable[[int], Player] = _analyst,
) -> ShotAnalysis:
    """One shot: the expert's choice and both chances in the position before action ``n``."""
    view = TableView.of_match(match)
    played = Shot.from_dict(entry["shot"])
    best = expert(_expert_seed(seed, n)).decide(match)
    noise = BASE_NOISE.draw_many(decision_rng(seed, n, _STREAM), draws)
    shots = np.array([[s.x, s.y, s.angle, s.speed] for s in (played, best.shot)], dtype=np.float64)
    seeds = np.full(2 * draws, shot_seed(match.seed, len(match.actions)), dtype=np.int64)
    played_chance, best_chance = success_chances(view, shots, noise, seeds, match.fly_off)
    ruling = entry["ruling"]
    outcome = ruling.get("outcome") or {}
    color = match.color(view.seat)
    kind = best.info.get("kind")
    return ShotAnalysis(
        n=n,
        seat=view.seat,
        color=color,
        played=played,
        played_chance=float(played_chance),
        best=best.shot,
        best_chance=float(best_chance),
        best_kind=kind if isinstance(kind, str) else None,
        succeeded=bool(ruling.get("continues")) or outcome.get("winner") == color.value,
    )


class Analyser:
    """Analyses one record's shots, asked for in any order: the record is replayed (and so
    checked) as far as the shots asked for, once when they are asked for in order of play, and
    again from its start for a shot before the last one analysed. ``expert(seed)`` is the
    player whose shot each one is compared with (default: :data:`ANALYST`'s; another one
    compares searches, ``hikone-carrom bench analysis --against-expert``).

    Raises (on creation):
        RecordFormatError: the record is malformed. ValueError: ``draws`` < 1, or the record
            is of a refereed match (a real board: no positions).
    """

    def __init__(
        self, record: Any, *, draws: int = DRAWS, expert: Callable[[int], Player] = _analyst
    ) -> None:
        if draws < 1:
            raise ValueError(f"draws must be >= 1, got {draws}")
        data = check_header(record)
        if data.get("board") is None:
            raise ValueError("a refereed match of a real board has no positions to analyse")
        self.record = record
        self.draws = draws
        self.expert = expert
        self._data = data
        self._every = shot_numbers(data)
        self._replay: Iterator[tuple[int, Match]] | None = None
        self._at: tuple[int, Match] | None = None

    def _position(self, n: int) -> Match:
        """The match just before action ``n`` (valid until the next call)."""
        if self._replay is None or self._at is None or self._at[0] > n:
            self._replay = _positions(self._data, self._every[-1])
            self._at = next(self._replay)
        while self._at[0] < n:
            self._at = next(self._replay)
        return self._at[1]

    def analysis(self, shots: Iterable[int] | None = None) -> Analysis:
        """The analysis of ``shots`` (their action numbers; default every shot).

        Raises:
            ReplayError: the record does not replay. ValueError: a number in ``shots`` is not
                a shot of the record.
        """
        wanted = set(self._every) if shots is None else set(shots)
        strangers = wanted - set(self._every)
        if strangers:
            raise ValueError(f"actions {sorted(strangers)} are not shots of the record")
        seed = int(self._data["seed"])
        out = [
            _analyse_position(
                self._position(n), self._data["actions"][n - 1], n, seed, self.draws, self.expert
            )
            for n in sorted(wanted)
        ]
        return Analysis(int(self._data["players"]), tuple(out), self.draws)


def analyse(record: Any, shots: Iterable[int] | None = None, *, draws: int = DRAWS) -> Analysis:
    """Analyse the record's shots (``shots``: their action numbers; default every shot).

    Deterministic for a record: the draws and the expert's seed come from the record's seed and
    the action number. Each analysed shot costs one decision of the analysis's expert
    (:data:`ANALYST`) and ``2 x draws`` simulations; the record is replayed (and so checked) up
    to the last shot asked for (:class:`Analyser` goes on from one shot to the next).

    Raises:
        RecordFormatError: the record is malformed. ReplayError: it does not replay.
        ValueError: ``draws`` < 1, a number in ``shots`` is not a shot of the record, or the
            record is of a refereed match (a real board: no positions).
    """
    return Analyser(record, draws=draws).analysis(shots)
