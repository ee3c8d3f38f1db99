"""Helpers for match tests: hand-placed positions and shot searches over the exact simulator."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import pytest

from hikone_carrom.board import BoardSpec
from hikone_carrom.match import Match, Shot
from hikone_carrom.match.pieces import disk_for, piece_of
from hikone_carrom.physics import Disk, ShotResult
from hikone_carrom.rules import Color, Piece, RefereeState, RuleOptions

BOARD = BoardSpec()


def position(
    pieces: Iterable[tuple[str, float, float]] | Iterable[tuple[str, float, float, int]],
    *,
    players: int = 2,
    shooter: int = 0,
    first_shots_done: bool = True,
    options: RuleOptions | None = None,
    seed: int = 0,
    fly_off: bool = False,
    board: BoardSpec = BOARD,
) -> Match:
    """A match from a hand-placed layout; pucks not listed lie in the pockets (counted as such)."""
    layout: list[Disk] = []
    for entry in pieces:
        pid, x, y, *rest = entry
        layout.append(disk_for(BOARD, pid, x, y, rest[0] if rest else 0))
    on = {c: sum(1 for d in layout if piece_of(d.id) is c.puck) for c in Color}
    state = RefereeState(
        players=players,
        options=options or RuleOptions(),
        shooter=shooter,
        pocketed=(12 - on[Color.RED], 12 - on[Color.GREEN]),
        has_shot=(first_shots_done,) * players,
    )
    if not any(piece_of(d.id) is Piece.JACK for d in layout):
        raise ValueError("tests keep the jack on the board")
    return Match.from_position(layout, state, board=board, seed=seed, fly_off=fly_off)


def find_shot(
    match: Match,
    place: tuple[float, float],
    speed: float,
    wanted: Callable[[ShotResult], bool],
    angles: Sequence[float] | None = None,
) -> Shot:
    """The first shot from ``place`` (scanning angles) whose simulated result is ``wanted``."""
    scan = angles if angles is not None else [k * 2 * math.pi / 3600 for k in range(3600)]
    for a in scan:
        shot = Shot(place[0], place[1], a, speed)
        _, result = match.simulate(shot)
        if wanted(result):
            return shot
    pytest.fail("no shot in the scan produced the wanted result")


def accounted(m: Match) -> None:
    """Assert every puck and the jack is on the board or in a pocket, never both (R1a)."""
    on = {p: 0 for p in Piece}
    for d in m.layout:
        on[piece_of(d.id)] += 1
    for c in Color:
        assert on[c.puck] + m.referee.pocketed(c) == 12
        assert m.referee.debt(c) >= 0
    assert on[Piece.JACK] + int(m.referee.jack_pocketed) == 1


def aim(src: tuple[float, float], dst: tuple[float, float]) -> float:
    """Angle (rad) from ``src`` to ``dst``."""
    return math.atan2(dst[1] - src[1], dst[0] - src[0])
