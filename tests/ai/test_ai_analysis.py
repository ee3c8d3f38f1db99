"""Post-game analysis: the chances are the ones hikone_carrom.ai computes for that position (and
what Match.play gives under the same draws), the expert's shot is the library's, the result is
reproducible from the record."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from hikone_carrom.ai import EXPERT_LEVEL, make_player, take_turn
from hikone_carrom.ai import analysis as analysis_module
from hikone_carrom.ai.analysis import (
    ANALYST,
    DRAWS,
    Analyser,
    Analysis,
    AnalysisFormatError,
    _expert_seed,
    analyse,
    shot_numbers,
)
from hikone_carrom.ai.chance import success_chances
from hikone_carrom.ai.levels import LEVELS
from hikone_carrom.ai.noise import BASE_NOISE, decision_rng
from hikone_carrom.ai.players import SearchPlayer
from hikone_carrom.ai.view import TableView
from hikone_carrom.match import Match, Noise, Shot, shot_seed
from hikone_carrom.records import ReplayError, to_record

_DRAWS = 24


@pytest.fixture(scope="module")
def game() -> tuple[Match, dict[str, object]]:
    """Three shots of two computer players, a turn passed without a shot (R3d), three more."""
    m = Match(players=2, seed=21)
    players = [make_player("greedy", seed=3), make_player(2, seed=4)]
    for _ in range(3):
        take_turn(m, players[m.shooter])
    m.pass_turn()
    for _ in range(3):
        take_turn(m, players[m.shooter])
    return m, to_record(m)


def _position(record: dict[str, object], n: int) -> Match:
    """The match just before action n, rebuilt independently with Match.play."""
    m = Match(players=2, seed=21)
    for entry in record["actions"][: n - 1]:  # type: ignore[index]
        if entry["kind"] == "shot":
            m.play(Shot.from_dict(entry["shot"]), Noise.from_dict(entry["noise"]))
        else:
            m.pass_turn()
    return m


def _keeps_turn(m: Match, shot: Shot, noise: Noise) -> bool:
    trial = copy.deepcopy(m)
    color = trial.color(trial.shooter)
    play = trial.play(shot, noise)
    return play.ruling.continues or play.ruling.winner is color


def test_chances_are_the_libraries_and_match_play_agrees(
    game: tuple[Match, dict[str, object]],
) -> None:
    _, record = game
    shots = shot_numbers(record)
    assert 4 not in shots and len(shots) == 6  # the passed turn is no shot
    n = shots[3]
    result = analyse(record, [n], draws=_DRAWS)
    (a,) = result.shots
    before = _position(record, n)
    assert (a.n, a.seat) == (n, before.shooter)
    seed = record["seed"]
    assert isinstance(seed, int)
    # the expert's shot is level 6's decision for a 1x hand in that position, by the lighter
    # search of the analysis
    expert = SearchPlayer(
        "analyst", _expert_seed(seed, n), BASE_NOISE, ANALYST, LEVELS[EXPERT_LEVEL].weights
    ).decide(before)
    assert a.best == expert.shot
    # both chances are what the ai package computes for that position and those draws
    draws = BASE_NOISE.draw_many(decision_rng(seed, n, 7), _DRAWS)
    phys = shot_seed(before.seed, len(before.actions))
    seeds = np.full(2 * _DRAWS, phys)
    rows = np.array([[s.x, s.y, s.angle, s.speed] for s in (a.played, a.best)])
    expected = success_chances(TableView.of_match(before), rows, draws, seeds)
    assert (a.played_chance, a.best_chance) == tuple(expected)
    # ... and what the match itself rules for each draw, shot by shot through Match.play
    for shot, chance in ((a.played, a.played_chance), (a.best, a.best_chance)):
        kept = [_keeps_turn(before, shot, Noise(*map(float, d))) for d in draws]
        assert chance == pytest.approx(sum(kept) / _DRAWS, abs=1e-12)
    assert a.chance_lost == max(0.0, a.best_chance - a.played_chance)


def test_analysis_is_reproducible_and_round_trips(game: tuple[Match, dict[str, object]]) -> None:
    _, record = game
    first, last = shot_numbers(record)[0], shot_numbers(record)[-1]
    one = analyse(record, [first, last], draws=8)
    again = analyse(copy.deepcopy(record), [last, first], draws=8)
    assert one == again
    assert Analysis.from_dict(one.to_dict()) == one
    split = analyse(record, [first], draws=8).merged(analyse(record, [last], draws=8))
    assert split == one
    with pytest.raises(ValueError, match="draws"):
        one.merged(analyse(record, [first], draws=4))
    seats = {s.seat for s in one.shots}
    for seat in range(2):
        acc = one.accuracy(seat)
        mine = one.of_seat(seat)
        if seat in seats:
            assert acc == pytest.approx(100 * (1 - sum(s.chance_lost for s in mine) / len(mine)))
            assert 0.0 <= acc <= 100.0
        else:
            assert acc is None
    assert one.to_dict()["accuracy"] == [one.accuracy(0), one.accuracy(1)]


def test_analysis_refuses_tampered_records_and_strange_requests(
    game: tuple[Match, dict[str, object]],
) -> None:
    _, record = game
    bad = copy.deepcopy(record)
    bad["actions"][0]["shot"]["angle"] += 0.3  # type: ignore[index]
    with pytest.raises(ReplayError):
        analyse(bad, [shot_numbers(record)[1]], draws=2)
    with pytest.raises(ValueError, match="not shots"):
        analyse(record, [4], draws=2)
    with pytest.raises(ValueError, match="draws"):
        analyse(record, draws=0)
    with pytest.raises(AnalysisFormatError):
        Analysis.from_dict({"version": 99})
    assert DRAWS >= 100 and math.isfinite(DRAWS)


def test_an_analyser_replays_the_record_once_for_shots_asked_in_order(
    game: tuple[Match, dict[str, object]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server asks for one shot at a time: each goes on from the previous one's replay."""
    _, record = game
    expected = analyse(record, draws=4)
    replays: list[int] = []
    real = analysis_module._positions

    def counted(data: dict[str, object], last: int) -> object:
        replays.append(last)
        return real(data, last)  # type: ignore[arg-type]

    monkeypatch.setattr(analysis_module, "_positions", counted)
    analyser = Analyser(record, draws=4)
    numbers = shot_numbers(record)
    parts = [analyser.analysis([n]) for n in numbers]
    assert len(replays) == 1
    whole = Analysis(2, (), 4)
    for part in parts:
        whole = whole.merged(part)
    assert whole == expected
    assert analyser.analysis([numbers[0]]) == parts[0]  # an earlier shot: replayed again
    assert len(replays) == 2


def test_the_analysis_searches_lighter_than_the_expert_with_its_candidates() -> None:
    """The analysis's expert keeps level 6's candidates and spends fewer draws at each stage
    (its figures against level 6's in docs/ai.md)."""
    expert = LEVELS[EXPERT_LEVEL].search
    assert ANALYST.candidates == expert.candidates
    assert ANALYST.jack_candidates == expert.jack_candidates
    assert ANALYST.sweep is not None and expert.sweep is not None
    assert ANALYST.sweep.keep < expert.sweep.keep
    for stage in ("shortlist_draws", "rollouts", "rollout_draws", "refined", "final_draws"):
        assert getattr(ANALYST, stage) < getattr(expert, stage), stage
