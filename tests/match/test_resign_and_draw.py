"""Resigning and agreed draws are match actions with their own kinds; they undo exactly."""

from __future__ import annotations

import pytest

from hikone_carrom.match import ActionKind, IllegalShotError, Match, Shot
from hikone_carrom.rules import Color, GameOverError, InvalidSeatError


def _first_shot(m: Match) -> Shot:
    x, y = m.legal_placement().point
    return Shot(x, y, 1.2, 2.5)


def test_any_seat_of_a_side_resigns_for_its_colour() -> None:
    m = Match(players=4, seed=2)
    m.play(_first_shot(m))
    outcome = m.resign(2)  # seat 2 plays red with seat 0 (R1c), out of turn
    assert outcome.winner is Color.GREEN and outcome.reason == "resign"
    assert m.actions[-1].kind == ActionKind.RESIGN and m.actions[-1].seat == 2
    with pytest.raises(IllegalShotError):
        m.play(_first_shot(m))
    m.undo()
    assert not m.is_over and len(m.actions) == 1


def test_a_draw_needs_seats_of_both_colours() -> None:
    m = Match(players=2, seed=3)
    with pytest.raises(InvalidSeatError):
        m.agree_draw(0, 0)
    assert not m.actions and not m.is_over
    outcome = m.agree_draw(1, 0)
    assert outcome.winner is None and outcome.reason == "agreed"
    action = m.actions[-1]
    assert (action.kind, action.seat, action.offered_by) == (ActionKind.DRAW, 0, 1)
    with pytest.raises(GameOverError):
        m.resign(0)
