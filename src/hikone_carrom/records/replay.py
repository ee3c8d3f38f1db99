"""Replaying a record: re-simulate every shot (or re-judge every refereed entry) and check every
ruling, count and layout hash."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from hikone_carrom.match import ActionKind, IllegalShotError, Match, Noise, PlayResult, Shot
from hikone_carrom.records.codec import (
    RecordFormatError,
    check_header,
    counts_of,
    layout_hash,
    match_of,
)
from hikone_carrom.records.hints import hint_problem, hints_of
from hikone_carrom.records.refereed import (
    REFEREED,
    REFEREED_KINDS,
    apply_refereed,
    refereed_divergence,
    refereed_match_of,
)
from hikone_carrom.rules import Color, RulesError
from hikone_carrom.scoring import RefereedMatch

__all__ = ["Game", "ReplayError", "ReplayStep", "iter_replay", "replay"]

Game = Match | RefereedMatch
"""What a record replays into: a simulated match, or a refereed match of a real board."""

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
    match: Game


def _field(entry: dict[str, Any], key: str, n: int) -> Any:
    if key not in entry:
        raise ReplayError(n, f"the entry lacks {key!r}")
    return entry[key]


def _shot_of(entry: dict[str, Any], n: int) -> tuple[Shot, Noise]:
    """The shot and noise of a shot entry; a malformed one is a :class:`RecordFormatError`."""
    shot, noise = _field(entry, "shot", n), _field(entry, "noise", n)
    try:
        return Shot.from_dict(shot), Noise.from_dict(noise)
    except (IllegalShotError, TypeError) as err:
        raise RecordFormatError(f"action {n}: the shot or its noise is malformed: {err}") from err


def _shot(match: Game, entry: dict[str, Any], n: int) -> PlayResult | None:
    if not isinstance(match, Match):
        raise ReplayError(n, "a simulated shot in a refereed match's record")
    play = match.play(*_shot_of(entry, n))
    if play.ruling.to_dict() != _field(entry, "ruling", n):
        raise ReplayError(n, "the ruling differs from the recorded one")
    if play.report.to_dict() != _field(entry, "outcome", n):
        raise ReplayError(n, "the physical outcome differs from the recorded one")
    return play


def _refereed(match: Game, entry: dict[str, Any], n: int) -> PlayResult | None:
    step = apply_refereed(match, entry, n)
    if (problem := refereed_divergence(step, entry)) is not None:
        raise ReplayError(n, problem)
    return None


def _skip(match: Game, entry: dict[str, Any], n: int) -> PlayResult | None:
    if match.skip_turn().to_dict() != _field(entry, "ruling", n):
        raise ReplayError(n, "the ruling of the lost shot differs")
    return None


def _pass(match: Game, entry: dict[str, Any], n: int) -> PlayResult | None:
    if not isinstance(match, Match):
        raise ReplayError(n, "a pass in a refereed match's record")
    if match.pass_turn().to_dict() != _field(entry, "ruling", n):
        raise ReplayError(n, "the ruling of the pass differs")
    return None


def _call_time(match: Game, entry: dict[str, Any], n: int) -> PlayResult | None:
    match.call_time()
    return None


def _lot(match: Game, entry: dict[str, Any], n: int) -> PlayResult | None:
    match.decide_lot(Color(_field(entry, "winner", n)))
    return None


def _seat_int(value: Any, n: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReplayError(n, f"{what} must be an integer")
    return value


def _resign(match: Game, entry: dict[str, Any], n: int) -> PlayResult | None:
    if not isinstance(match, Match):
        raise ReplayError(n, "a resignation in a refereed match's record")
    seat = _seat_int(entry["seat"], n, "the resigning seat")
    match.resign(seat)
    if match.color(seat).value != _field(entry, "color", n):
        raise ReplayError(n, "the resigning colour differs from the seat's")
    return None


def _draw(match: Game, entry: dict[str, Any], n: int) -> PlayResult | None:
    if not isinstance(match, Match):
        raise ReplayError(n, "an agreed draw in a refereed match's record")
    offered_by = _seat_int(_field(entry, "offered_by", n), n, "the offering seat")
    match.agree_draw(offered_by, _seat_int(entry["seat"], n, "the accepting seat"))
    return None


_APPLY: dict[str, Callable[[Game, dict[str, Any], int], PlayResult | None]] = {
    ActionKind.SHOT: _shot,
    ActionKind.SKIP: _skip,
    ActionKind.PASS: _pass,
    ActionKind.CALL_TIME: _call_time,
    ActionKind.LOT: _lot,
    ActionKind.RESIGN: _resign,
    ActionKind.DRAW: _draw,
    REFEREED: _refereed,
}
"""How each action kind is applied (docs/record-format.md, Actions)."""


def _apply(match: Game, entry: dict[str, Any], n: int) -> PlayResult | None:
    kind = _field(entry, "kind", n)
    seat = _field(entry, "seat", n)
    if seat != match.shooter and kind not in _ANY_SEAT:
        raise ReplayError(n, f"seat {seat} acts, but it is seat {match.shooter}'s turn")
    refereed = isinstance(match, RefereedMatch) and kind in REFEREED_KINDS
    apply = _refereed if refereed else _APPLY.get(kind) if isinstance(kind, str) else None
    if apply is None:
        raise ReplayError(n, f"unknown action kind {kind!r}")
    try:
        return apply(match, entry, n)
    except (IllegalShotError, RulesError, ValueError, TypeError) as err:
        if isinstance(err, ReplayError | RecordFormatError):
            raise
        raise ReplayError(n, f"cannot be replayed: {err}") from err


def _game_of(data: dict[str, Any]) -> Game:
    """A refereed match for a record without a board, else a simulated match."""
    return refereed_match_of(data) if data.get("board") is None else match_of(data)


def _layout_hash(match: Game) -> str | None:
    """A refereed match records no positions: its actions' ``layout_hash`` is null."""
    return layout_hash(match.layout) if isinstance(match, Match) else None


def iter_replay(record: Any) -> Iterator[ReplayStep]:
    """Replay ``record`` action by action, checking each; yields after every action.

    Raises:
        RecordFormatError: the envelope is malformed. ReplayError: an action diverges.
    """
    data = check_header(record)
    match = _game_of(data)
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
        if _layout_hash(match) != _field(entry, "layout_hash", n):
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


def replay(record: Any) -> Game:
    """Replay a whole record and return the match at its end (see :func:`iter_replay`)."""
    match = _game_of(check_header(record))
    for step in iter_replay(record):
        match = step.match
    return match
