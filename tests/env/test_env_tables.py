"""Tables play every board exactly as Match does (the physics batched, the rules per board)."""

from __future__ import annotations

import numpy as np
import pytest

from hikone_carrom.ai.noise import BASE_NOISE
from hikone_carrom.env.actions import shot_of
from hikone_carrom.env.tables import Tables
from hikone_carrom.match import IllegalShotError, Noise, Shot
from hikone_carrom.rules import RuleOptions, UntimedMatchError


def _random_game(tables: Tables, rng: np.random.Generator, strikes: int) -> None:
    """Random legal strikes with the 1x hand on every board at once."""
    for _ in range(strikes):
        boards, shots, noises = [], [], []
        for i in range(tables.n):
            if tables.is_over(i):
                continue
            shot = shot_of(tables.placement(i), rng.uniform(-1.0, 1.0, 3), tables.board)
            boards.append(i)
            shots.append(shot)
            noises.append(BASE_NOISE.draw(rng))
        tables.play(boards, shots, noises)


def _layout(disks: object) -> list[tuple[str, float, float, int]]:
    return sorted((d.id, d.x, d.y, d.layer) for d in disks)  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [2, 4])
def test_every_board_replays_bit_for_bit_through_match(players: int) -> None:
    tables = Tables(6, players=players)
    for i in range(tables.n):
        tables.reset(i, 100 + i)
    _random_game(tables, np.random.default_rng(players), 120)
    stacked = 0
    for i in range(tables.n):
        match = tables.match(i)
        assert match.referee.state == tables.states[i]
        assert _layout(match.layout) == _layout(tables.layout(i))
        stacked += int((tables.layer[i] > 0).sum())
    # the games went through the rare paths: penalties returning pucks onto stacks (R5h, R6e)
    assert stacked > 0
    assert any(s.debt != (0, 0) or s.pocketed != (0, 0) for s in tables.states)


def test_a_set_position_replays_from_that_position() -> None:
    source = Tables(1)
    source.reset(0, 5)
    _random_game(source, np.random.default_rng(1), 30)
    start = source.match(0)
    tables = Tables(2)
    tables.set_position(1, start)
    _random_game(tables, np.random.default_rng(2), 20)
    match = tables.match(1)
    assert match.referee.state == tables.states[1]
    assert _layout(match.layout) == _layout(tables.layout(1))


def test_R2b_an_illegal_placement_is_refused_and_changes_nothing() -> None:
    tables = Tables(2)
    shot = shot_of(tables.placement(0), (0.0, 0.0, 0.5), tables.board)
    assert shot is not None
    before = (tables.x.copy(), tables.states[:], tables.actions.copy())
    off_line = Shot(0.0, 0.0, shot.angle, shot.speed)
    with pytest.raises(IllegalShotError) as err:
        tables.play([0, 1], [shot, off_line], [Noise(), Noise()])
    assert err.value.rule == "R2a"  # board 1's first shot must be from the tee spot
    assert np.array_equal(tables.x, before[0])
    assert tables.states == before[1] and np.array_equal(tables.actions, before[2])
    with pytest.raises(IllegalShotError):
        tables.play([0], [Shot(shot.x, shot.y, shot.angle, 9.0)], [Noise()])


def test_R7b_time_is_called_only_in_a_timed_match_and_a_finished_game_takes_no_shot() -> None:
    with pytest.raises(UntimedMatchError):
        Tables(1).call_time(0)
    tables = Tables(1, options=RuleOptions.championship())
    tables.call_time(0)
    while not tables.is_over(0):
        tables.pass_turn(0)
    assert tables.match(0).referee.state == tables.states[0]
    shot = Shot(*tables.placement(0).point, angle=1.0, speed=1.0)
    with pytest.raises(IllegalShotError):
        tables.play([0], [shot], [Noise()])
