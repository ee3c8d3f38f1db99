"""Replaying a record: re-simulate every shot and check every ruling, count and layout hash."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hikone_carrom.match import ActionKind, IllegalShotError, Match, Noise, PlayResult, Shot
from hikone_carrom.records.codec import (
    check_header,
    counts_of,
    layout_hash,
    match_of,
)
from hikone_carrom.records.hints import hint_problem, hints_of
from hikone_carrom.rules import Color, RulesError

__all__ = ["ReplayError", "ReplayStep", "iter_replay", "replay"]

_ANY_SEAT = (ActionKind.CALL_TIME, ActionKind.RESIGN, ActionKind.DRAW)
"""Actions not taken by the shooter: time is called for everyone, and either side may resign
or agree to a draw at any moment."""


class ReplayError(ValueError):
    """A record that does not replay: ``action`` (1-based) is the first action that diverges."""

    def __init__(self, action: int, message: str) -> None:
        super().__init__(f"action {action}: {message}")
        self.action = action


@dataclass(frozen=True)
class ReplayStep:
    """One replayed action: its record entry, the shot's result if any, and the match after it
    (the same object at every step: read it before the next step)."""

    n: int
    entry: dict[str, Any]
    play: PlayResult | None
    match: Match


def _field(entry: dict[str, Any], key: str, n: int) -> Any:
    if key not in entry:
        raise ReplayError(n, f"the entry lacks {key!r}")
    return entry[key]


def _apply(match: Match, entry: dict[str, Any], n: int) -> PlayResult | None:
    kind = _field(entry, "kind", n)
    seat = _field(entry, "seat", n)
    if seat != match.shooter and kind not in _ANY_SEAT:
        raise ReplayError(n, f"seat {seat} acts, but it is seat {match.shooter}'s turn")
    try:
        if kind == ActionKind.SHOT:
            play = match.play(
                Shot.from_dict(_field(entry, "shot", n)),
                Noise.from_dict(_field(entry, "noise", n)),
            )
            if play.ruling.to_dict() != _field(entry, "ruling", n):
                raise ReplayError(n, "the ruling differs from the recorded one")
            if play.report.to_dict() != _field(entry, "outcome", n):
                raise ReplayError(n, "the physical outcome differs from the recorded one")
            return play
        if kind == ActionKind.SKIP:
            if match.skip_turn().to_dict() != _field(entry, "ruling", n):
                raise ReplayError(n, "the ruling of the lost shot differs")
        elif kind == ActionKind.CALL_TIME:
            match.call_time()
        elif kind == ActionKind.LOT:
            match.decide_lot(Color(_field(entry, "winner", n)))
        elif kind == ActionKind.RESIGN:
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise ReplayError(n, "the resigning seat must be an integer")
            match.resign(seat)
            if match.color(seat).value != _field(entry, "color", n):
                raise ReplayError(n, "the resigning colour differs from the seat's")
        elif kind == ActionKind.DRAW:
            offered_by = _field(entry, "offered_by", n)
            if not all(isinstance(s, int) and not isinstance(s, bool) for s in (seat, offered_by)):
                raise ReplayError(n, "the seats of a draw must be integers")
            match.agree_draw(offered_by, seat)
        else:
            raise ReplayError(n, f"unknown action kind {kind!r}")
    except (IllegalShotError, RulesError, ValueError, TypeError) as err:
        if isinstance(err, ReplayError):
            raise
        raise ReplayError(n, f"cannot be replayed: {err}") from err
    return None


def iter_replay(record: Any) -> Iterator[ReplayStep]:
    """Replay ``record`` action by action, checking each; yields after every action.

    Raises:
        RecordFormatError: the envelope is malformed. ReplayError: an action diverges.
    """
    data = check_header(record)
    match = match_of(data)
    entries = data["actions"]
    hints = hints_of(data)
    shooters: list[int | None] = [match.shooter]
    for n, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise ReplayError(n, "an action must be an object")
        play = _apply(match, entry, n)
        shooters.append(None if match.is_over else match.shooter)
        if counts_of(match) != _field(entry, "counts", n):
            raise ReplayError(n, "the counts after the action differ from the recorded ones")
        if layout_hash(match.layout) != _field(entry, "layout_hash", n):
            raise ReplayError(n, "the layout after the action differs (hash mismatch)")
        yield ReplayStep(n, entry, play, match)
    for h in hints:
        if (problem := hint_problem(h, shooters)) is not None:
            raise ReplayError(min(h.before + 1, len(entries) + 1), problem)
    result = data.get("result")
    outcome = match.outcome
    expected = None if outcome is None else outcome.to_dict()
    if result != expected:
        raise ReplayError(len(entries) + 1, "the recorded result differs from the replayed game")


def replay(record: Any) -> Match:
    """Replay a whole record and return the match at its end (see :func:`iter_replay`)."""
    match = match_of(check_header(record))
    for step in iter_replay(record):
        match = step.match
    return match
