"""Shared helpers for the referee tests (hikone_carrom.rules); imported by name, not a conftest."""

from __future__ import annotations

from typing import Any

from hikone_carrom.rules import Color, Referee, RefereeState, RuleOptions, Ruling


def referee_at(
    players: int = 2,
    *,
    options: RuleOptions | None = None,
    shooter: int = 0,
    pocketed: tuple[int, int] = (0, 0),
    debt: tuple[int, int] = (0, 0),
    shot: bool = True,
    **changes: Any,
) -> Referee:
    """A referee in the middle of a game: every seat has shot once unless ``shot=False``."""
    state = RefereeState.initial(players, options).evolve(
        shooter=shooter,
        pocketed=pocketed,
        debt=debt,
        has_shot=(shot,) * players,
        shots=players if shot else 0,
        **changes,
    )
    return Referee.from_state(state)


def ruling(seat: int, color: Color, **fields: Any) -> Ruling:
    """The exact expected ruling: unnamed fields take their defaults."""
    return Ruling(seat=seat, color=color, **fields)
