"""Every computer player, the hint and the simulated match handle a covered area line (R2b):
a lane where the striker still overlaps the line, or the reading
``RuleOptions.covered_area_line`` when no free place overlaps it."""

from __future__ import annotations

import pytest
from ai_helpers import ALL_PLAYERS

from hikone_carrom.ai import NoLegalShotError, hint, make_player
from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match import ActionKind, Match, PlacementKind
from hikone_carrom.match.pieces import disk_for
from hikone_carrom.rules import RefereeState, RuleOptions
from hikone_carrom.simulate import run_match

BOARD = BoardSpec()
LINE_Y = BOARD.tee_spot(Side.SOUTH).y


def _match(pucks: list[tuple[float, float]], options: RuleOptions | None = None) -> Match:
    """Seat 0 (red) to shoot, its pucks at ``pucks``, the jack on its spot, green all pocketed
    but one far away (so the game goes on)."""
    layout = [disk_for(BOARD, "J", 0.0, 0.0), disk_for(BOARD, "G0", 0.0, 0.2)]
    layout += [disk_for(BOARD, f"R{k}", x, y) for k, (x, y) in enumerate(pucks)]
    state = RefereeState(
        players=2,
        options=options or RuleOptions(),
        pocketed=(12 - len(pucks), 11),
        has_shot=(True, True),
    )
    return Match.from_position(layout, state, seed=3)


IN_FRONT = [(-0.2 + 0.05 * k, LINE_Y + 0.012) for k in range(9)]
"""No centre on the south area line is free; behind it there is room."""

WHOLLY = [(-0.2 + 0.035 * k, LINE_Y) for k in range(12)]
"""No free place overlaps the south area line at all."""


@pytest.mark.parametrize("name", ALL_PLAYERS)
def test_every_player_finds_the_lane_behind_a_covered_line_R2b(name: str | int) -> None:
    m = _match(IN_FRONT)
    placement = m.legal_placement()
    assert placement.kind is PlacementKind.LINE and placement.free_intervals() != ()
    decision = make_player(name, seed=5).decide(m)
    assert placement.contains(decision.shot.x, decision.shot.y)
    assert decision.shot.y < LINE_Y  # behind the line: nothing on it is free
    m.play(decision.shot, decision.noise)  # the one checked path accepts it


@pytest.mark.parametrize("name", ["random", "greedy", 3])
def test_every_player_shoots_from_the_nearest_free_point_of_a_wholly_covered_line(
    name: str | int,
) -> None:
    m = _match(WHOLLY)
    placement = m.legal_placement()
    assert placement.kind is PlacementKind.POINT and placement.rule == "R2b"
    decision = make_player(name, seed=5).decide(m)
    assert (decision.shot.x, decision.shot.y) == placement.point
    m.play(decision.shot, decision.noise)


def test_the_hint_handles_both_covered_lines() -> None:
    for pucks in (IN_FRONT, WHOLLY):
        m = _match(pucks)
        plan = hint(m, seed=1)
        assert m.legal_placement().contains(plan.shot.x, plan.shot.y)


def test_under_the_pass_reading_players_refuse_and_the_match_passes() -> None:
    m = _match(WHOLLY, RuleOptions(covered_area_line="pass"))
    with pytest.raises(NoLegalShotError) as err:
        make_player("greedy", seed=1).decide(m)
    assert "R2b" in err.value.message("en") and err.value.message("ja")
    players = [make_player("random", seed=1), make_player("random", seed=2)]
    run_match(m, players, max_actions=6)
    first = m.actions[0]
    assert first.kind is ActionKind.PASS and first.ruling is not None
    assert first.ruling.reasons == ("R2b", "R3d") and first.ruling.penalty == 0
    assert m.actions[1].kind is ActionKind.SHOT and m.actions[1].seat == 1


def test_the_lane_is_used_in_a_simulated_game_without_a_crash() -> None:
    m = _match(IN_FRONT)
    players = [make_player("greedy", seed=1), make_player("random", seed=2)]
    run_match(m, players, max_actions=12)
    first = m.actions[0].play
    assert first is not None and first.seat == 0 and first.executed.y < LINE_Y
    assert len(m.actions) == 12 or m.is_over
