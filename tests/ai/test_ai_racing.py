"""The raced expert (level 6): successive halving over its shortlist, deterministic for a seed,
legal on every stored position; the classic expert selectable beside it; the comparison's
statistics (ai-eval --compare)."""

from __future__ import annotations

import numpy as np
import pytest

from hikone_carrom.ai import make_player
from hikone_carrom.ai.comparison import compare_table, duel_score, paired_ratio
from hikone_carrom.ai.levels import LEVELS, RACED, RACED_EXPERT, player_names
from hikone_carrom.ai.players import SearchPlayer
from hikone_carrom.ai.racing import halve
from hikone_carrom.bench.ai import positions, replayed
from hikone_carrom.bench.positions import stored


def test_halving_keeps_the_better_half_on_shared_draws() -> None:
    """Each round the survivors get the same fresh draws (one call for all) and the better half
    by the mean over every draw so far goes on, never fewer than ``until``."""
    true_value = np.array([0.1, 0.9, 0.5, 0.7, 0.3, 0.8, 0.2, 0.6])
    calls: list[tuple[list[int], int]] = []

    def more(rows: np.ndarray, n: int) -> np.ndarray:
        calls.append(([int(r) for r in rows], n))
        return np.repeat(true_value[rows][:, None, None], n, axis=1)

    start = np.zeros((8, 1, 1))  # the screening could not tell them apart
    kept, keys, values = halve(start, more, lambda k: k.mean(axis=(1, 2)), (2, 4, 8), until=2)
    assert [len(rows) for rows, _ in calls] == [8, 4, 2]
    assert [n for _, n in calls] == [2, 4, 8]
    assert sorted(calls[1][0]) == [1, 3, 5, 7]  # the four best after the first round
    assert list(kept) == [1, 5]
    assert keys.shape == (2, 1 + 2 + 4 + 8, 1)
    assert values[0] > values[1]


def test_the_raced_expert_is_selectable_beside_the_expert() -> None:
    fast, expert = make_player(RACED), make_player(6)
    assert isinstance(fast, SearchPlayer) and isinstance(expert, SearchPlayer)
    assert fast.config.halving and not expert.config.halving
    assert fast.config == RACED_EXPERT.search and fast.late == RACED_EXPERT.late_search
    assert make_player("expert").config == LEVELS[6].search == expert.config
    assert fast.noise == expert.noise  # the same hand
    assert RACED in player_names()
    assert fast.name == RACED and expert.name == "level6"


def test_stored_positions_replay_as_stored() -> None:
    """The bench's positions are the stored ones: the replayed layouts are identical."""
    chosen = positions(12)
    assert len(set(chosen)) == 12
    by_key = {(p.match, p.shot): p for p in stored()}
    for key, match in zip(chosen, replayed(12), strict=True):
        want = sorted(by_key[key].disks)
        assert sorted((d.id, d.x, d.y, d.layer) for d in match.layout) == want


@pytest.fixture(scope="module")
def stored_matches() -> list[object]:
    return list(replayed(12))


def test_the_raced_expert_is_legal_and_deterministic_on_every_stored_position(
    stored_matches: list[object],
) -> None:
    from hikone_carrom.match import Match

    for k, match in enumerate(stored_matches):
        assert isinstance(match, Match)
        first = make_player(6, seed=k).decide(match)
        match.check(first.shot)  # raises IllegalShotError for an illegal placement or speed
        assert 0.0 < first.shot.speed <= match.board.max_speed
        again = make_player(6, seed=k).decide(match)
        assert (again.shot, again.noise, dict(again.info)) == (
            first.shot,
            first.noise,
            dict(first.info),
        )
        assert int(str(first.info["simulated"])) > 0


def test_paired_ratio_resamples_seeds_together() -> None:
    a, b = [10.0, 20.0, 30.0], [10.0, 20.0, 30.0]
    assert paired_ratio(a, b) == (1.0, 1.0, 1.0)  # paired: no spread where every pair agrees
    ratio, lo, hi = paired_ratio([11.0, 19.0, 33.0, 18.0], [10.0, 20.0, 30.0, 20.0])
    assert ratio == pytest.approx(81.0 / 80.0)
    assert lo < ratio < hi
    assert paired_ratio([11.0, 19.0], [10.0, 20.0]) == paired_ratio([11.0, 19.0], [10.0, 20.0])


def _duel(a: str, b: str, winner: str, seed: int) -> dict[str, object]:
    task = {"kind": "duel", "a": a, "b": b, "tier": "1x", "seed": seed, "max_shots": 300}
    return {"task": task, "result": {"winner": winner}}


def test_duel_score_counts_either_seat_order_and_draws_half() -> None:
    lines = [
        _duel("6", RACED, "a", 0),  # 6 wins
        _duel(RACED, "6", "a", 1),  # classic wins
        _duel(RACED, "6", "b", 2),  # 6 wins
        _duel("6", RACED, "draw", 3),
        _duel("6", "greedy", "a", 4),  # another pairing
    ]
    assert duel_score(lines, "6", RACED, "1x") == (2.5, 4)
    assert duel_score(lines, RACED, "6", "1x") == (1.5, 4)
    table = compare_table(lines, "6", RACED)
    assert [row[1].split(":")[0] for row in table.rows] == ["duels"]
    assert table.rows[0][3] == "2.5 = 62.5 %" and table.rows[0][-1] == "yes"
