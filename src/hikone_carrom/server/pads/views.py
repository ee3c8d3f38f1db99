"""JSON of a scored board as the pad and its spectators draw it: the match's set-up, every judged
entry with its ruling in words (ja/en, rule ids), the counts, whose turn, the clock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hikone_carrom.records.codec import state_counts
from hikone_carrom.rules import Color, RefereeState
from hikone_carrom.scoring import JudgedLine, RefereedMatch

__all__ = ["StepViews", "match_view", "state_view", "step_view"]


def step_view(step: JudgedLine) -> dict[str, Any]:
    """One judged entry: what was entered, who, the ruling and its sentences, counts after."""
    entry = step.entry
    return {
        "n": step.n,
        "kind": entry.kind.value,
        "seat": step.seat,
        "turn": step.before.shooter,
        "tap": None if entry.tap is None else entry.tap.to_dict(),
        "winner": None if entry.winner is None else entry.winner.value,
        "at": entry.at,
        "ruling": None if step.ruling is None else step.ruling.to_dict(),
        "explain": {"en": list(step.explain("en")), "ja": list(step.explain("ja"))},
        "counts": state_counts(step.after),
    }


def state_view(state: RefereeState) -> dict[str, Any]:
    """The referee's counts now, the scores as R7b counts them, time, outcome."""
    scores = state.scores()
    return {
        **state_counts(state),
        "shooter": state.shooter,
        "scores": {"red": scores[Color.RED], "green": scores[Color.GREEN]},
        "time_called": state.time_called,
        "extra_round": state.extra_round,
        "awaiting_lot": state.awaiting_lot,
        "outcome": None if state.outcome is None else state.outcome.to_dict(),
    }


class StepViews:
    """:func:`step_view` of each judged entry, made once: a judged entry never changes, and a
    board's every answer and snapshot shows its whole match. Keeps the views of one match."""

    def __init__(self) -> None:
        self._made: dict[int, tuple[JudgedLine, dict[str, Any]]] = {}
        self._match: RefereedMatch | None = None

    def of(self, match: RefereedMatch) -> Callable[[JudgedLine], dict[str, Any]]:
        """The view maker for ``match``'s steps (the views of an earlier match are dropped once
        another match's set-up is seen; the returned views are shared: read them only)."""
        if self._match is None or self._match.setup is not match.setup:
            self._made.clear()
        self._match = match
        return self._view

    def _view(self, step: JudgedLine) -> dict[str, Any]:
        made = self._made.get(id(step))
        if made is not None and made[0] is step:
            return made[1]
        view = step_view(step)
        self._made[id(step)] = (step, view)
        return view


def match_view(
    match: RefereedMatch,
    number: int,
    clock: dict[str, Any] | None,
    steps: Callable[[JudgedLine], dict[str, Any]] = step_view,
) -> dict[str, Any]:
    """A whole match: set-up, every step (each as ``steps`` views it), the state, confirmation
    and the last clock reading."""
    return {
        "number": number,
        "setup": match.setup.to_dict(),
        "steps": [steps(s) for s in match.steps],
        "state": state_view(match.state),
        "confirmed": match.confirmed,
        "clock": clock,
    }
