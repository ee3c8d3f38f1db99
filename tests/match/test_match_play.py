"""Match play: shot -> physics -> report -> referee -> re-spot; undo; determinism (R1a, R3, R5)."""

from __future__ import annotations

import itertools
import math

import pytest
from match_helpers import BOARD, accounted, aim, find_shot, position

from hikone_carrom.board import Side
from hikone_carrom.match import Match, Noise, Shot
from hikone_carrom.match.pieces import piece_of
from hikone_carrom.records import layout_hash
from hikone_carrom.rules import Color, NothingToUndoError, Piece


def test_R1a_opening_layout() -> None:
    m = Match(players=2)
    assert len(m.layout) == 25
    jack = next(d for d in m.layout if d.id == "J")
    assert (jack.x, jack.y, jack.layer) == (0.0, 0.0, 0)
    ring = [d for d in m.layout if d.id != "J"]
    for d in ring:
        assert math.hypot(d.x, d.y) == pytest.approx(BOARD.centre_circle_radius)
    # Colours alternate round the circle.
    ring.sort(key=lambda d: math.atan2(d.y, d.x) % (2 * math.pi))
    assert all(piece_of(a.id) is not piece_of(b.id) for a, b in itertools.pairwise(ring))
    accounted(m)


def test_opening_break_is_ruled_and_undo_restores_exactly() -> None:
    m = Match(players=2, seed=3)
    x, y = m.legal_placement().point
    before = (layout_hash(m.layout), m.referee.state)
    res = m.play(Shot(x, y, math.pi / 2, 5.0))
    assert res.seat == 0 and res.before == res.before
    assert m.referee.is_first_shot(0) is False
    accounted(m)
    assert not any(d.id == "S" for d in m.layout)  # R2d: the striker leaves the board
    m.undo()
    assert (layout_hash(m.layout), m.referee.state) == before
    assert m.actions == ()
    with pytest.raises(NothingToUndoError):
        m.undo()


def test_same_seed_and_shots_give_the_same_game_bit_for_bit() -> None:
    def run() -> list[str]:
        m = Match(players=2, seed=11)
        hashes = []
        for k in range(4):
            p = m.legal_placement()
            x, y = p.point if p.kind == "point" else p.nearest(0.03 * k - 0.05, p.point[1])
            m.play(Shot(x, y, math.pi / 2 + 0.05 * k, 4.5), Noise(dangle=0.001 * k))
            hashes.append(layout_hash(m.layout))
        return hashes

    assert run() == run()


def test_R3a_own_puck_pocketed_continues() -> None:
    # A red puck sits right in front of the south-east pocket; the striker knocks it in.
    m = position([("J", 0.0, 0.0), ("R0", 0.25, -0.25), ("G0", -0.1, 0.1)])
    y = BOARD.tee_spot(Side.SOUTH).y
    shot = find_shot(
        m,
        (0.15, y),
        1.5,
        lambda r: [p[0] for p in r.pocketed] == ["R0"],
        [aim((0.15, y), (0.25, -0.25)) + k * 1e-3 for k in range(-60, 61)],
    )
    res = m.play(shot)
    assert res.report.pocketed == (Piece.RED,)
    assert res.ruling.continues and m.shooter == 0
    assert m.referee.pocketed(Color.RED) == 12


def test_R5a_striker_pocketed_returns_a_puck_to_the_jack_spot() -> None:
    m = position([("J", 0.1, 0.1), ("R0", 0.1, -0.1), ("G0", -0.1, 0.1)])
    y = BOARD.tee_spot(Side.SOUTH).y
    start = (-0.19, y)
    res = m.play(Shot(*start, aim(start, (-0.3, -0.3)), 1.5))
    assert res.report.striker_pocketed
    assert res.ruling.penalty == 1 and res.ruling.returned == (Piece.RED,)
    spot = [d for d in m.layout if math.hypot(d.x, d.y) < 1e-12]
    assert len(spot) == 1 and spot[0].id.startswith("R") and spot[0].layer == 0
    assert m.shooter == 1
    accounted(m)
