"""What the browser is sent: the pieces the shooter may not hit directly (R4a) and the sounds
of a shot, both read from the library."""

from __future__ import annotations

import math

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match import Match, Shot
from hikone_carrom.match.pieces import disk_for
from hikone_carrom.rules import RefereeState, RuleOptions
from hikone_carrom.server.rooms.views import shot_view, state_view

BOARD = BoardSpec()
Y = BOARD.tee_spot(Side.SOUTH).y


def _doubles(shooter: int) -> Match:
    layout = [
        disk_for(BOARD, "J", 0.0, 0.1),
        disk_for(BOARD, "R0", 0.05, Y - 0.04),  # wholly behind the south area line
        disk_for(BOARD, "G0", -0.15, 0.15),
    ]
    state = RefereeState(
        players=4,
        options=RuleOptions(),
        shooter=shooter,
        pocketed=(11, 11),
        has_shot=(True,) * 4,
    )
    return Match.from_position(layout, state)


def test_R4a_state_names_the_pieces_the_shooter_may_not_hit_directly() -> None:
    assert state_view(_doubles(0))["unshootable"] == ["R0"]
    assert state_view(_doubles(2))["unshootable"] == []  # the north band is empty


def test_R4e_singles_state_has_no_unshootable_piece() -> None:
    m = Match(2, seed=1)
    assert state_view(m)["unshootable"] == []


def test_a_shot_sounds_like_its_events_in_order() -> None:
    m = Match(2, seed=3)
    x, y = m.legal_placement().point
    play = m.play(Shot(x, y, math.pi / 2 + 0.02, 5.0))
    sounds = shot_view(play, m.board)["sounds"]
    kinds = {s["kind"] for s in sounds}
    assert "hit" in kinds and "rail" in kinds
    times = [s["t"] for s in sounds]
    assert times == sorted(times)
    assert all(0.0 <= s["strength"] <= 1.0 for s in sounds)
    assert sounds[0]["kind"] == "hit" and sounds[0]["strength"] > 0.5  # the break
    hits = sum(1 for e in play.result.events if e.kind == "disk_disk")
    assert sum(1 for s in sounds if s["kind"] == "hit") == hits
