"""Shared helpers of the environment tests: hand-placed positions."""

from __future__ import annotations

from collections.abc import Iterable

from hikone_carrom.board import BoardSpec
from hikone_carrom.match import Match
from hikone_carrom.match.pieces import disk_for, piece_of
from hikone_carrom.physics import Disk
from hikone_carrom.rules import Color, RefereeState, RuleOptions

BOARD = BoardSpec()


def position(
    pieces: Iterable[tuple[str, float, float]],
    *,
    players: int = 2,
    shooter: int = 0,
    debt: tuple[int, int] = (0, 0),
    options: RuleOptions | None = None,
) -> Match:
    """A match from a hand-placed layout, every first shot taken; pucks not listed lie in the
    pockets (or are owed, with ``debt``)."""
    layout: list[Disk] = [disk_for(BOARD, pid, x, y) for pid, x, y in pieces]
    on = {c: sum(1 for d in layout if piece_of(d.id) is c.puck) for c in Color}
    pocketed = tuple(12 - on[c] - debt[c.index] for c in Color)
    state = RefereeState(
        players=players,
        shooter=shooter,
        pocketed=(pocketed[0], pocketed[1]),
        debt=debt,
        has_shot=(True,) * players,
        options=options or RuleOptions(),
    )
    return Match.from_position(layout, state, fly_off=False)
