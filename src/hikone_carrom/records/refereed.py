"""Records of refereed matches (``hikone_carrom.scoring``): the same envelope, ``board`` null
(there is no simulated board), and a ``refereed`` action per tapped shot: what was tapped, no
trajectories. Replaying re-judges every entry and compares every ruling (docs/record-format.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hikone_carrom import __version__
from hikone_carrom.records.codec import (
    FORMAT,
    RULES_VERSION,
    VERSION,
    RecordFormatError,
    state_counts,
)
from hikone_carrom.rules import Color, RuleOptions, RulesError
from hikone_carrom.scoring import EntryKind, JudgedLine, MatchSetup, RefereedMatch, SheetLine, Tap

__all__ = [
    "REFEREED",
    "REFEREED_KINDS",
    "apply_refereed",
    "refereed_divergence",
    "refereed_match_of",
    "refereed_record",
]

REFEREED = "refereed"
"""The action kind of a tapped shot."""

REFEREED_KINDS = (REFEREED, "skip", "call_time", "lot")
"""The action kinds of a refereed record, each re-entered with its ``at``."""

_KIND = {
    EntryKind.SHOT: REFEREED,
    EntryKind.SKIP: "skip",
    EntryKind.CALL_TIME: "call_time",
    EntryKind.LOT: "lot",
}


def _action(step: JudgedLine) -> dict[str, Any]:
    entry = step.entry
    out: dict[str, Any] = {"n": step.n, "kind": _KIND[entry.kind], "seat": step.before.shooter}
    if entry.tap is not None:
        assert step.ruling is not None
        out.update(
            color=step.ruling.color.value,
            tap=entry.tap.to_dict(),
            outcome=entry.tap.report().to_dict(),
        )
    if step.ruling is not None:
        out["ruling"] = step.ruling.to_dict()
    if entry.winner is not None:
        out["winner"] = entry.winner.value
    out["at"] = entry.at
    out["counts"] = state_counts(step.after)
    out["layout_hash"] = None
    return out


def refereed_record(
    match: RefereedMatch, seats_info: Sequence[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The record of a refereed match so far: set-up, every entry with its ruling, the result.

    ``seats`` lists each seat's name and side unless ``seats_info`` is given.
    """
    setup = match.setup
    seats = (
        [dict(s) for s in seats_info]
        if seats_info
        else [
            {"seat": s, "name": name, "side": setup.side(s), "color": setup.color(s).value}
            for s, name in enumerate(setup.names)
        ]
    )
    outcome = match.outcome
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": RULES_VERSION,
        "engine": f"hikone-carrom {__version__}",
        "players": setup.players,
        "seats": seats,
        "title": setup.title,
        "options": setup.options.to_dict(),
        "board": None,
        "seed": 0,
        "fly_off": False,
        "start": None,
        "actions": [_action(s) for s in match.steps],
        "result": None if outcome is None else outcome.to_dict(),
        "confirmed": match.confirmed,
    }


def refereed_match_of(data: dict[str, Any]) -> RefereedMatch:
    """A fresh :class:`RefereedMatch` with a refereed record's settings (no entries yet)."""
    try:
        options = RuleOptions.from_dict(data["options"])
    except RulesError as err:
        raise RecordFormatError(f"'options' are not valid rule options: {err}") from err
    seats = data.get("seats")
    names = [s.get("name") if isinstance(s, dict) else None for s in seats or []]
    if len(names) != data["players"] or not all(isinstance(n, str) for n in names):
        raise RecordFormatError("'seats' must name every player of a refereed match")
    try:
        setup = MatchSetup(
            tuple(names),  # type: ignore[arg-type]
            options.match_time_s,
            options.deadlock,
            str(data.get("title", "")),
            options,
        )
    except RulesError as err:
        raise RecordFormatError(f"not a refereed match's set-up: {err}") from err
    if setup.options != options:
        raise RecordFormatError("'options' are not those of a refereed match (R5k)")
    return RefereedMatch(setup)


def _at(entry: dict[str, Any]) -> Any:
    """The recorded ``at`` as it stands: :class:`SheetLine` refuses a mistyped one."""
    if "at" not in entry:
        raise ValueError("the entry lacks 'at'")
    return entry["at"]


def apply_refereed(game: Any, entry: dict[str, Any], n: int) -> JudgedLine:
    """Re-enter one action of a refereed record on ``game`` (a :class:`RefereedMatch`) at its
    recorded ``at`` (a lost shot before the last minute is refused, R8a).

    Raises :class:`RulesError` (or ValueError) when it cannot be applied, a mistyped ``at``
    included; the caller compares the step with :func:`refereed_divergence`.
    """
    if not isinstance(game, RefereedMatch):
        raise RecordFormatError(f"action {n}: a refereed action in a simulated match's record")
    kind = entry.get("kind")
    if kind == REFEREED:
        made = SheetLine.shot(Tap.from_dict(entry.get("tap")), _at(entry))
    elif kind == "skip":
        made = SheetLine.skip(_at(entry))
    elif kind == "call_time":
        made = SheetLine.call_time(_at(entry))
    else:
        made = SheetLine.lot(Color(entry.get("winner")), _at(entry))
    return game.add(made)


def refereed_divergence(step: JudgedLine, entry: dict[str, Any]) -> str | None:
    """What of a refereed record's action the re-judged ``step`` contradicts, ``None`` if nothing:
    a lost shot's ruling; a tapped shot's ruling, colour (R1b, R1c) and ``outcome``, the report
    the referee was told (docs/record-format.md)."""
    ruling = step.ruling
    if step.entry.kind is EntryKind.SKIP:
        assert ruling is not None
        return (
            None
            if ruling.to_dict() == entry.get("ruling")
            else "the ruling of the lost shot differs"
        )
    if step.entry.kind is not EntryKind.SHOT:
        return None
    assert ruling is not None and step.entry.tap is not None
    if ruling.to_dict() != entry.get("ruling"):
        return "the ruling differs from the recorded one"
    if ruling.color.value != entry.get("color"):
        return f"the colour differs from the recorded one: {ruling.color.value} shot (R1b, R1c)"
    if step.entry.tap.report().to_dict() != entry.get("outcome"):
        return "the outcome (the report the referee was told) differs from the tap"
    return None
