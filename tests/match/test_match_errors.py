"""The match layer's errors follow its documented hierarchy: bad set positions are
refused at construction, shots the game cannot take are IllegalShotErrors, clock actions need a
timed match, and nothing changes when an error is raised."""

from __future__ import annotations

import math

import pytest
from match_helpers import BOARD, position

from hikone_carrom import physics
from hikone_carrom.match import (
    GameOverShotError,
    IllegalLayoutError,
    IllegalShotError,
    LotPendingShotError,
    Match,
    Noise,
    Shot,
)
from hikone_carrom.match.pieces import disk_for
from hikone_carrom.physics import Disk
from hikone_carrom.records import layout_hash
from hikone_carrom.rules import (
    Color,
    GameOverError,
    LotPendingError,
    NothingToUndoError,
    Outcome,
    RefereeState,
    RuleOptions,
    RulesError,
    UntimedMatchError,
)

_HUGE = 10**400


def _state(red_on: int, green_on: int = 0) -> RefereeState:
    return RefereeState(
        players=2,
        options=RuleOptions(),
        pocketed=(12 - red_on, 12 - green_on),
        has_shot=(True, True),
    )


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        ([("J", 0.0, 0.0, 0), ("R0", 0.02, 0.0, 0)], "overlap"),  # R6e: one layer, two disks
        ([("J", 0.0, 0.0, 0), ("R0", 0.1, 0.1, 1)], "nothing under it"),  # a floating disk
        ([("J", 0.0, 0.0, 0), ("R0", 0.0, 0.0, 1), ("R1", 0.0, 0.0, 3)], "nothing under it"),
        ([("J", 0.0, 0.0, 0), ("R0", 0.29, 0.0, 0)], "outside the rails"),
        ([("J", 0.0, 0.0, 0), ("R12", 0.1, 0.0, 0)], "not the id"),
        ([("J", 0.0, 0.0, 0), ("S", 0.1, 0.0, 0)], "not the id"),
        ([("J", 0.0, 0.0, 0), ("R0", 0.1, 0.0, 0), ("R0", -0.1, 0.0, 0)], "twice"),
        ([("J", 0.0, 0.0, 0), ("R0", math.nan, 0.0, 0)], "finite"),
        ([("J", 0.0, 0.0, 0), ("R0", _HUGE, 0.0, 0)], "finite"),
        ([("J", 0.0, 0.0, 0), ("R0", 0.1, 0.0, -1)], "layer"),
    ],
)
def test_from_position_refuses_a_bad_layout_at_construction(
    layout: list[tuple[str, float, float, int]], words: str
) -> None:
    disks = [Disk(pid, x, y, layer=layer) for pid, x, y, layer in layout]
    red = sum(1 for d in disks if d.id.startswith("R"))
    with pytest.raises(IllegalLayoutError) as err:
        Match.from_position(disks, _state(red))
    assert words in err.value.message("en") and err.value.message("ja")
    # Existing callers keep working: it is a ValueError and the physics' layout error.
    assert isinstance(err.value, ValueError)
    assert isinstance(err.value, physics.InvalidLayoutError)


def test_from_position_refuses_counts_that_disagree_and_a_non_state() -> None:
    disks = [disk_for(BOARD, "J", 0.0, 0.0), disk_for(BOARD, "R0", 0.1, 0.0)]
    with pytest.raises(IllegalLayoutError, match="disagrees"):
        Match.from_position(disks, _state(red_on=2))
    with pytest.raises(RulesError):
        Match.from_position(disks, "state")  # type: ignore[arg-type]


def test_R6e_a_valid_stack_is_accepted() -> None:
    m = position([("J", 0.0, 0.0), ("R0", 0.0, 0.0, 1), ("G0", 0.005, 0.0, 2)])
    assert sorted(d.layer for d in m.layout) == [0, 1, 2]


def _deadlocked() -> Match:
    """A timed match waiting for the rock-paper-scissors result (R7d, deadlock = "lot")."""
    options = RuleOptions(match_time_s=60.0, deadlock="lot", max_extra_rounds=0)
    state = RefereeState(
        players=2, options=options, pocketed=(3, 3), has_shot=(True, True), shooter=1
    )
    m = Match.from_position([disk_for(BOARD, "J", 0.0, 0.0), *_pucks(9, 9)], state)
    m.call_time()
    m.skip_turn()  # seat 1 ends the round level: deadlock
    assert m.referee.state.awaiting_lot
    return m


def _pucks(red: int, green: int) -> list[Disk]:
    out = []
    for k in range(red + green):
        a = 2.0 * math.pi * k / (red + green)
        pid = f"R{k}" if k < red else f"G{k - red}"
        out.append(disk_for(BOARD, pid, 0.15 * math.cos(a), 0.15 * math.sin(a)))
    return out


def test_R7d_a_shot_while_the_lot_is_pending_is_an_illegal_shot() -> None:
    m = _deadlocked()
    before = (layout_hash(m.layout), m.referee.state, len(m.actions))
    with pytest.raises(IllegalShotError) as err:
        m.play(Shot(0.0, -0.21, math.pi / 2, 2.0))
    assert isinstance(err.value, LotPendingShotError) and isinstance(err.value, LotPendingError)
    assert err.value.rule == "R7d" and "じゃんけん" in err.value.reason("ja")
    assert (layout_hash(m.layout), m.referee.state, len(m.actions)) == before
    m.decide_lot(Color.GREEN)
    with pytest.raises(IllegalShotError) as over:
        m.play(Shot(0.0, -0.21, math.pi / 2, 2.0))
    assert isinstance(over.value, GameOverShotError) and isinstance(over.value, GameOverError)
    assert m.outcome == Outcome(Color.GREEN, "R7d", (3, 3))


def test_R7b_R8a_clock_actions_need_a_timed_match() -> None:
    m = Match(seed=1)
    for action in (m.call_time, m.skip_turn):
        with pytest.raises(UntimedMatchError) as err:
            action()
        assert "time limit" in err.value.message("en") and err.value.message("ja")
    assert m.actions == () and m.referee.state.shots == 0


def test_undo_with_nothing_to_undo_is_the_referees_error() -> None:
    m = Match()
    with pytest.raises(NothingToUndoError):
        m.undo()
    x, y = m.legal_placement().point
    m.play(Shot(x, y, math.pi / 2, 3.0))
    m.undo()
    with pytest.raises(NothingToUndoError):
        m.undo()


@pytest.mark.parametrize("field", ["x", "y", "angle", "speed"])
def test_huge_integers_in_a_shot_are_a_clear_error(field: str) -> None:
    values = {"x": 0.0, "y": -0.21, "angle": 1.0, "speed": 2.0, field: _HUGE}
    with pytest.raises(IllegalShotError, match="too large"):
        Shot(**values)
    with pytest.raises(IllegalShotError, match="too large"):
        Shot.from_dict(values)


@pytest.mark.parametrize("field", ["dx", "dy", "dangle", "speed_factor"])
def test_huge_integers_in_noise_are_a_clear_error(field: str) -> None:
    with pytest.raises(IllegalShotError, match="too large") as err:
        Noise(**{field: -_HUGE})
    assert err.value.reason("ja")
    with pytest.raises(IllegalShotError):
        Noise.from_dict({field: _HUGE})


def test_noise_of_the_wrong_kind_is_an_illegal_shot() -> None:
    m = Match()
    x, y = m.legal_placement().point
    with pytest.raises(IllegalShotError):
        m.play(Shot(x, y, 1.0, 2.0), {"dx": 0.0})  # type: ignore[arg-type]
    assert m.actions == ()
