"""Two golden games, singles and doubles: report sequences with the expected state after every
shot, the jack-spot pile included (R5h-R5j, R6a-R6e, R4c, R7a, R7b, R8a)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from hikone_carrom.rules import (
    Color,
    Outcome,
    Piece,
    Referee,
    RefereeState,
    RuleOptions,
    ShotReport,
    explain,
)

R, G, J = Piece.RED, Piece.GREEN, Piece.JACK
RED, GREEN = Color.RED, Color.GREEN


@dataclass(frozen=True)
class Step:
    """One action and what must follow. ``report`` None = a lost shot (R8a); "time" = call time.
    ``scatter``: the shot broke up the pile on the jack spot before the returns (model only)."""

    report: ShotReport | str | None
    reasons: tuple[str, ...]
    returned: tuple[Piece, ...]
    penalty: int
    continues: bool
    shooter: int | None
    pocketed: tuple[int, int]
    debt: tuple[int, int]
    pile: tuple[Piece, ...]
    scatter: bool = False
    outcome: Outcome | None = field(default=None)


def run(players: int, options: RuleOptions, steps: list[Step]) -> Referee:
    ref = Referee(players=players, options=options)
    pile: tuple[Piece, ...] = (J,)  # R1a: the jack stands on the jack spot
    for number, step in enumerate(steps, 1):
        where = f"step {number}"
        if step.report == "time":
            ref.call_time()
            assert ref.time_called, where
        else:
            if step.report is None:
                r = ref.skip_turn()
            else:
                assert isinstance(step.report, ShotReport)
                r = ref.report(step.report)
            assert r.reasons == step.reasons, where
            assert r.returned == step.returned, where
            assert r.penalty == step.penalty, where
            assert r.continues == step.continues, where
            assert r.outcome == step.outcome, where
            assert explain(r, "en") and explain(r, "ja"), where
            if step.scatter:
                pile = ()
            pile += r.returned
        assert pile == step.pile, where
        assert ref.state.pocketed == step.pocketed, where
        assert ref.state.debt == step.debt, where
        assert (None if ref.is_over else ref.shooter) == step.shooter, where
        assert RefereeState.from_dict(ref.state.to_dict()) == ref.state, where
    return ref


SINGLES = [
    # red: two own pucks, continues (R3a)
    Step(ShotReport(pocketed=(R, R)), ("R3a",), (), 0, True, 0, (2, 0), (0, 0), (J,)),
    # red pockets green only: service, turn passes (R3b, R3d)
    Step(ShotReport(pocketed=(G,)), ("R3b", "R3d"), (), 0, False, 1, (2, 1), (0, 0), (J,)),
    # green: striker pocketed with an own puck (R5a, R5h): both to the jack spot, on the jack
    Step(
        ShotReport(pocketed=(G,), striker_pocketed=True),
        ("R3d", "R5a", "R5h", "R6e"),
        (G, G),
        1,
        False,
        0,
        (2, 0),
        (0, 0),
        (J, G, G),
    ),
    # red: striker and a red puck off the board (R5c, R6c): stacked on the pile (R6e)
    Step(
        ShotReport(off_board=(R,), striker_off_board=True),
        ("R3d", "R5c", "R5h", "R6c", "R6e"),
        (R, R),
        1,
        False,
        1,
        (1, 0),
        (0, 0),
        (J, G, G, R, R),
        scatter=False,
    ),
    # green knocks the pile apart and pockets the jack early (R5b) with nothing in the pockets:
    # debt 5, the jack back on the jack spot (R5j)
    Step(
        ShotReport(pocketed=(J,)),
        ("R3d", "R5b", "R5i", "R5j", "R6e"),
        (J,),
        5,
        False,
        0,
        (1, 0),
        (0, 5),
        (J,),
        scatter=True,
    ),
    # red breaks the pile: a red puck and two green; the green pay green's debt (R5i)
    Step(
        ShotReport(pocketed=(G, R, G)),
        ("R3a", "R5i", "R6e"),
        (G, G),
        0,
        True,
        0,
        (2, 0),
        (0, 3),
        (G, G),
        scatter=True,
    ),
    Step(ShotReport(pocketed=(R,) * 9), ("R3a",), (), 0, True, 0, (11, 0), (0, 3), (G, G)),
    # red: last puck and the jack together (R6a): 5 + the puck back, jack on top
    Step(
        ShotReport(pocketed=(R, J)),
        ("R3d", "R5b", "R5h", "R5j", "R6a", "R6e"),
        (R,) * 6 + (J,),
        5,
        False,
        1,
        (6, 0),
        (0, 3),
        (G, G, R, R, R, R, R, R, J),
    ),
    # green pockets three own: all pay debt, still a success by the reading (R5i, R3a)
    Step(
        ShotReport(pocketed=(G, G, G)),
        ("R3a", "R5i", "R6e"),
        (G, G, G),
        0,
        True,
        1,
        (6, 0),
        (0, 0),
        (G, G, G),
        scatter=True,
    ),
    Step(ShotReport(pocketed=(G,) * 6), ("R3a",), (), 0, True, 1, (6, 6), (0, 0), (G, G, G)),
    Step(
        ShotReport(pocketed=(G,) * 6, off_board=(R,)),
        ("R3a", "R3c", "R6c", "R6e"),
        (R,),
        0,
        True,
        1,
        (6, 12),
        (0, 0),
        (G, G, G, R),
    ),
    # green: all 12 in, jack with a red puck: green wins (R6b, R7a)
    Step(
        ShotReport(pocketed=(J, R)),
        ("R3b", "R6b", "R7a"),
        (),
        0,
        False,
        None,
        (7, 12),
        (0, 0),
        (G, G, G, R),
        outcome=Outcome(GREEN, "R7a", (7, 112)),
    ),
]


DOUBLES = [
    Step(ShotReport(pocketed=(R, R, R)), ("R3a",), (), 0, True, 0, (3, 0), (0, 0), (J,)),
    Step(ShotReport(), ("R3d",), (), 0, False, 1, (3, 0), (0, 0), (J,)),
    # green A: striker off with nothing in the pockets: debt 1 (R5c, R5i)
    Step(
        ShotReport(striker_off_board=True),
        ("R3d", "R5c", "R5i"),
        (),
        1,
        False,
        2,
        (3, 0),
        (0, 1),
        (J,),
    ),
    # red B pockets a green puck: it pays green's debt, back to the jack spot (R5i)
    Step(
        ShotReport(pocketed=(G,)),
        ("R3d", "R5i", "R6e"),
        (G,),
        0,
        False,
        3,
        (3, 0),
        (0, 0),
        (J, G),
    ),
    # green B hits an unshootable piece first-hand: restored, nothing counts (R4c)
    Step(
        ShotReport(pocketed=(G, J), unshootable_hit=True),
        ("R3d", "R4c"),
        (),
        0,
        False,
        0,
        (3, 0),
        (0, 0),
        (J, G),
    ),
    Step(ShotReport(pocketed=(R,) * 8), ("R3a",), (), 0, True, 0, (11, 0), (0, 0), (J, G)),
    # red A: last puck and the jack, a green puck flies off (R6a, R6c, R6d): G, 6 R, J on the pile
    Step(
        ShotReport(pocketed=(R, J), off_board=(G,)),
        ("R3d", "R5b", "R5h", "R5j", "R6a", "R6c", "R6d", "R6e"),
        (G,) + (R,) * 6 + (J,),
        5,
        False,
        1,
        (6, 0),
        (0, 0),
        (G,) + (R,) * 6 + (J,),
        scatter=True,
    ),
    Step(
        ShotReport(pocketed=(G,) * 6),
        ("R3a",),
        (),
        0,
        True,
        1,
        (6, 6),
        (0, 0),
        (G,) + (R,) * 6 + (J,),
    ),
    Step(
        ShotReport(pocketed=(G,) * 6),
        ("R3a",),
        (),
        0,
        True,
        1,
        (6, 12),
        (0, 0),
        (G,) + (R,) * 6 + (J,),
    ),
    # green A pockets the jack after all green, but the striker goes in too: no win (R6b)
    Step(
        ShotReport(pocketed=(J,), striker_pocketed=True),
        ("R3d", "R5a", "R5h", "R5j", "R6b", "R6e"),
        (G, J),
        1,
        False,
        2,
        (6, 11),
        (0, 0),
        (G, J),
        scatter=True,
    ),
    Step("time", (), (), 0, False, 2, (6, 11), (0, 0), (G, J)),
    # red B lets the 10 seconds pass (R8a)
    Step(None, ("R3d", "R8a"), (), 0, False, 3, (6, 11), (0, 0), (G, J)),
    # green B, the last seat, pockets a red puck: turn ends, time decides (R7b)
    Step(
        ShotReport(pocketed=(R,)),
        ("R3b", "R3d", "R7b"),
        (),
        0,
        False,
        None,
        (7, 11),
        (0, 0),
        (G, J),
        outcome=Outcome(GREEN, "R7b", (7, 11)),
    ),
]


def test_golden_singles_game() -> None:
    ref = run(2, RuleOptions(), SINGLES)
    assert ref.winner is GREEN and ref.jack_pocketed and ref.scores() == {RED: 7, GREEN: 112}


def test_golden_doubles_timed_game() -> None:
    ref = run(4, RuleOptions.championship(), DOUBLES)
    assert ref.winner is GREEN and not ref.jack_pocketed


@pytest.mark.parametrize(("players", "steps"), [(2, SINGLES), (4, DOUBLES)])
def test_golden_games_undo_back_to_the_opening(players: int, steps: list[Step]) -> None:
    options = RuleOptions() if players == 2 else RuleOptions.championship()
    ref = run(players, options, steps)
    while ref.can_undo:
        ref.undo()
    assert ref.state == RefereeState.initial(players, options)
