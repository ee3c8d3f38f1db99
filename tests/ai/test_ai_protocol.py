"""The player protocol: names and levels, decisions, determinism, one path through Match.play."""

from __future__ import annotations

import math

import pytest
from ai_helpers import ALL_PLAYERS, scrambled_match

from hikone_carrom.ai import (
    BASE_NOISE,
    LEVELS,
    Decision,
    NoiseModel,
    UnknownPlayerError,
    hint,
    legal_shot,
    make_player,
    player_names,
    take_turn,
    tier_scale,
)
from hikone_carrom.match import Match, PlacementKind


def test_make_player_knows_every_name_and_level() -> None:
    for name in (*player_names(), *LEVELS, "Level3", " expert "):
        assert make_player(name).decide(Match()).shot.speed > 0
    assert make_player("expert").name == "level6"
    assert make_player(6).noise == BASE_NOISE.scaled(LEVELS[6].hand)
    assert make_player(1, noise_scale=0.0).noise.is_zero


@pytest.mark.parametrize("bad", ["randomly", 0, 7, "level9", "", True, 2.5, None])
def test_make_player_refuses_unknown(bad: object) -> None:
    with pytest.raises(UnknownPlayerError) as err:
        make_player(bad)  # type: ignore[arg-type]
    assert err.value.message("ja")


@pytest.mark.parametrize(
    "kwargs", [{"seed": -1}, {"seed": 1.5}, {"noise_scale": -1.0}, {"noise_scale": math.nan}]
)
def test_make_player_refuses_bad_seed_or_noise(kwargs: dict[str, object]) -> None:
    with pytest.raises(UnknownPlayerError):
        make_player("greedy", **kwargs)  # type: ignore[arg-type]


def test_tiers() -> None:
    assert tier_scale("0x") == 0.0 and tier_scale("5x") == 5.0 and tier_scale(2) == 2.0
    assert tier_scale("2.5x") == 2.5
    with pytest.raises(UnknownPlayerError):
        tier_scale("fast")
    with pytest.raises(UnknownPlayerError):
        NoiseModel(placement=-1.0)
    assert BASE_NOISE.placement == 0.002
    assert math.isclose(math.degrees(BASE_NOISE.angle), 1.0) and BASE_NOISE.speed == 0.03


@pytest.mark.parametrize("name", ALL_PLAYERS)
def test_decisions_are_deterministic_for_a_seed(name: str | int) -> None:
    match = scrambled_match(2, seed=5, shots=6)
    first = make_player(name, seed=11).decide(match)
    again = make_player(name, seed=11).decide(scrambled_match(2, seed=5, shots=6))
    assert first == again
    assert isinstance(first, Decision) and first.info["player"]


def test_different_seeds_give_different_hands() -> None:
    match = Match()
    a = make_player("greedy", seed=1).decide(match)
    b = make_player("greedy", seed=2).decide(match)
    assert a.noise != b.noise


def test_deciding_changes_nothing_and_take_turn_plays_once() -> None:
    match = scrambled_match(4, seed=2, shots=5)
    before = (match.layout, match.referee.state, len(match.actions))
    player = make_player(4, seed=3)
    decision = player.decide(match)
    assert (match.layout, match.referee.state, len(match.actions)) == before
    result = take_turn(match, player)
    assert len(match.actions) == before[2] + 1
    assert result.shot == decision.shot and result.noise == decision.noise


def test_first_shot_is_from_the_tee_spot() -> None:
    match = Match()
    placement = match.legal_placement()
    assert placement.kind is PlacementKind.POINT
    for name in ALL_PLAYERS:
        shot = make_player(name, seed=4).decide(match).shot
        assert (shot.x, shot.y) == placement.point


def test_legal_shot_moves_placement_and_clamps_speed() -> None:
    match = scrambled_match(2, seed=1, shots=4)
    shot = legal_shot(match, 0.0, 0.0, 7.0, 99.0)
    assert match.legal_placement().contains(shot.x, shot.y)
    assert shot.speed == match.board.max_speed and -math.pi <= shot.angle <= math.pi
    assert legal_shot(match, shot.x, shot.y, 0.0, -3.0).speed > 0.0
    match.check(shot)


def test_hint_is_the_experts_legal_shot_and_changes_nothing() -> None:
    match = scrambled_match(2, seed=9, shots=8)
    before = (match.layout, len(match.actions))
    plan = hint(match)
    match.check(plan.shot)
    assert plan == hint(match)
    assert plan.info["player"] == "level6" and plan.info["kind"]
    assert (match.layout, len(match.actions)) == before
