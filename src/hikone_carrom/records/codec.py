"""The match record: one versioned JSON document per match (docs/record-format.md).

Reading and writing live here, and only here; the rules and the physics know nothing of JSON files.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from hikone_carrom import __version__
from hikone_carrom.board import DEFAULT_BOARD, LEGACY_FIGURES, BoardError, BoardSpec
from hikone_carrom.match import Action, ActionKind, Match, layout_to_dict
from hikone_carrom.physics import Disk
from hikone_carrom.records.hints import HintFormatError, HintUse, hint_problem, hints_of
from hikone_carrom.rules import RefereeState, RuleOptions, RulesError
from hikone_carrom.scoring import RefereedMatch

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "MAX_DEPTH",
    "READABLE_VERSIONS",
    "RULES_VERSION",
    "VERSION",
    "RecordFormatError",
    "board_from_dict",
    "counts_of",
    "dump",
    "layout_hash",
    "load",
    "read",
    "state_counts",
    "to_record",
    "write",
]

FORMAT = "hikone-carrom-record"
VERSION = 2
"""The record format written. Version 2 stores the friction models' figures in ``board``."""
READABLE_VERSIONS = (1, 2)
"""Versions read: a version-1 record replays with the physics of its time (the legacy figures,
:data:`~hikone_carrom.board.LEGACY_FIGURES`), exactly as it was played."""
RULES_VERSION = "JCA 2018-04-20"
"""The official rules the referee implements (docs/rules.md); other rules' records do not replay."""

MAX_BYTES = 64 * 1024 * 1024
"""The largest record file :func:`read` reads (bytes); a match of 2,000 actions takes ~3 MB."""

MAX_DEPTH = 32
"""The deepest nesting of JSON arrays and objects a record may have (it needs 6)."""


class RecordFormatError(ValueError):
    """A record that cannot be read: not JSON, not a record, an unknown version, a bad field."""


def layout_hash(layout: Sequence[Disk]) -> str:
    """SHA-256 of a layout at rest: ids, exact coordinates (float hex) and layers, sorted by id."""
    rows = sorted(f"{d.id}:{d.x.hex()}:{d.y.hex()}:{d.layer}" for d in layout)
    return hashlib.sha256("|".join(rows).encode()).hexdigest()


def counts_of(match: Match | RefereedMatch) -> dict[str, Any]:
    """The counts a record stores after each action: pocketed and debt per colour, the jack's
    colour if pocketed, the next seat (R5i, R7)."""
    return state_counts(match.referee.state)


def state_counts(state: RefereeState) -> dict[str, Any]:
    """The counts of :func:`counts_of` from a referee state."""
    return {
        "pocketed": {"red": state.pocketed[0], "green": state.pocketed[1]},
        "debt": {"red": state.debt[0], "green": state.debt[1]},
        "jack": None if state.jack is None else state.jack.value,
        "next_seat": None if state.is_over else state.shooter,
    }


def to_record(
    match: Match,
    players_info: Sequence[dict[str, Any]] | None = None,
    hints: Sequence[HintUse] = (),
) -> dict[str, Any]:
    """The record of ``match`` so far: settings, who sat where (``players_info``; each seat's
    colour is added), every action with its outcome, the expert's hints the players used, and
    the result.

    The counts and layout hash after each action are recomputed by replaying, so the record
    always describes what :func:`replay` will check.

    Raises:
        RecordFormatError: a hint does not belong to this match (a position it never reached,
            a seat that was not to shoot then).
    """
    shadow = match.restarted()
    actions: list[dict[str, Any]] = []
    shooters: list[int | None] = [shadow.shooter]
    for n, action in enumerate(match.actions, start=1):
        entry = _entry_of(shadow, n, action)
        actions.append(entry)
        shooters.append(None if shadow.is_over else shadow.shooter)
    outcome = match.outcome
    seats = [
        {**p, "color": match.color(p["seat"]).value}
        if isinstance(p.get("seat"), int) and 0 <= p["seat"] < match.players
        else dict(p)
        for p in players_info or ()
    ]
    for h in hints:
        problem = hint_problem(h, shooters)
        if problem is not None:
            raise RecordFormatError(problem)
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": RULES_VERSION,
        "engine": f"hikone-carrom {__version__}",
        "players": match.players,
        "seats": seats,
        "options": match.options.to_dict(),
        "board": match.board.to_dict(),
        "seed": match.seed,
        "fly_off": match.fly_off,
        "start": None
        if match.start is None
        else {"layout": layout_to_dict(match.start[0]), "referee": match.start[1].to_dict()},
        "actions": actions,
        "hints": [h.to_dict() for h in hints],
        "result": None if outcome is None else outcome.to_dict(),
    }


def _entry_of(shadow: Match, n: int, action: Action) -> dict[str, Any]:
    """The record's entry of action ``n``, played again on ``shadow`` (which moves on), with
    its outcome and the counts and layout hash after it."""
    entry: dict[str, Any] = {"n": n, "kind": action.kind, "seat": action.seat}
    if action.kind == ActionKind.SHOT:
        assert action.play is not None
        play = shadow.play(action.play.shot, action.play.noise)
        entry.update(
            color=play.ruling.color.value,
            shot=play.shot.to_dict(),
            noise=play.noise.to_dict(),
            executed=play.executed.to_dict(),
            outcome=play.report.to_dict(),
            ruling=play.ruling.to_dict(),
        )
    elif action.kind == ActionKind.SKIP:
        entry["ruling"] = shadow.skip_turn().to_dict()
    elif action.kind == ActionKind.PASS:
        entry["ruling"] = shadow.pass_turn().to_dict()
    elif action.kind == ActionKind.CALL_TIME:
        shadow.call_time()
    elif action.kind == ActionKind.RESIGN:
        shadow.resign(action.seat)
        entry["color"] = shadow.color(action.seat).value
    elif action.kind == ActionKind.DRAW:
        assert action.offered_by is not None
        shadow.agree_draw(action.offered_by, action.seat)
        entry["offered_by"] = action.offered_by
    else:
        assert action.lot_winner is not None
        shadow.decide_lot(action.lot_winner)
        entry["winner"] = action.lot_winner.value
    entry["counts"] = counts_of(shadow)
    entry["layout_hash"] = layout_hash(shadow.layout)
    return entry


def number(value: Any, what: str) -> float:
    """``value`` as a finite float, or :class:`RecordFormatError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RecordFormatError(f"{what} must be a number, not {type(value).__name__}")
    try:
        result = float(value)
    except OverflowError:
        raise RecordFormatError(f"{what} is too large to be a number of the board") from None
    if not math.isfinite(result):
        raise RecordFormatError(f"{what} must be a finite number")
    return result


def board_from_dict(data: Any, version: int = VERSION) -> BoardSpec:
    """A :class:`BoardSpec` from a record's ``board`` object: every figure of the record's format
    version present, each a finite number (``merge_grazing_pairs`` true or false); unknown keys
    are refused. A version-1 board has no friction-model figures: they take the legacy values,
    the physics version-1 records were played with (docs/record-format.md)."""
    if not isinstance(data, dict):
        raise RecordFormatError("'board' must be an object")
    names = [f.name for f in fields(BoardSpec)]
    if version == 1:
        names = [name for name in names if name not in LEGACY_FIGURES]
    unknown = set(data) - set(names)
    if unknown:
        raise RecordFormatError(f"'board' has unknown figures: {sorted(map(str, unknown))}")
    missing = [name for name in names if name not in data]
    if missing:
        raise RecordFormatError(f"'board' lacks the figures {missing}")
    figures: dict[str, Any] = {}
    for name in names:
        if isinstance(getattr(DEFAULT_BOARD, name), bool):
            if not isinstance(data[name], bool):
                raise RecordFormatError(f"board figure {name!r} must be true or false")
            figures[name] = data[name]
        else:
            figures[name] = number(data[name], f"board figure {name!r}")
    if version == 1:
        figures.update(LEGACY_FIGURES)
    try:
        return BoardSpec(**figures)
    except BoardError as err:
        raise RecordFormatError(f"'board' is not a valid board: {err}") from err


def _require(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise RecordFormatError(f"the record lacks {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordFormatError(f"{key!r} has the wrong type ({type(value).__name__})")
    return value


def check_header(data: Any) -> dict[str, Any]:
    """Check a decoded record's envelope (format, version, rules, types); return it."""
    if not isinstance(data, dict):
        raise RecordFormatError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordFormatError(f"not a {FORMAT} document (format = {data.get('format')!r})")
    version = _require(data, "version", int)
    if version not in READABLE_VERSIONS:
        raise RecordFormatError(
            f"record version {version} is not supported (this reads versions "
            f"{', '.join(map(str, READABLE_VERSIONS))})"
        )
    rules = _require(data, "rules", str)
    if rules != RULES_VERSION:
        raise RecordFormatError(f"the record is for rules {rules!r}, not {RULES_VERSION!r}")
    players = _require(data, "players", int)
    if players not in (2, 4):
        raise RecordFormatError(f"'players' must be 2 or 4, not {players}")
    seed = _require(data, "seed", int)
    if seed < 0:
        raise RecordFormatError("'seed' must be >= 0")
    _require(data, "fly_off", bool)
    _require(data, "actions", list)
    _require(data, "options", dict)
    if "board" not in data:
        raise RecordFormatError("the record lacks 'board'")
    if data["board"] is not None and not isinstance(data["board"], dict):
        raise RecordFormatError("'board' must be an object, or null for a refereed match")
    if data.get("start") is not None and not isinstance(data["start"], dict):
        raise RecordFormatError("'start' must be an object or null")
    _check_depth(data)
    try:
        hints_of(data)
    except HintFormatError as err:
        raise RecordFormatError(str(err)) from err
    return data


def _check_depth(data: Any) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordFormatError(f"the record nests deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def _start_layout(board: BoardSpec, layout: Any) -> list[Disk]:
    if not isinstance(layout, list):
        raise RecordFormatError("'start' layout must be a list of disks")
    disks = []
    for k, d in enumerate(layout):
        where = f"start disk {k + 1}"
        if not isinstance(d, dict) or not {"id", "x", "y", "layer"} <= set(d):
            raise RecordFormatError(f"{where} must be an object with id, x, y and layer")
        if not isinstance(d["id"], str):
            raise RecordFormatError(f"{where}: the id must be a string")
        layer = d["layer"]
        if isinstance(layer, bool) or not isinstance(layer, int) or not 0 <= layer <= 1000:
            raise RecordFormatError(f"{where}: the layer must be an int from 0 to 1000")
        x = number(d["x"], f"{where} x")
        y = number(d["y"], f"{where} y")
        disks.append(Disk(d["id"], x, y, layer=layer))
    return disks


def match_of(data: dict[str, Any]) -> Match:
    """A fresh :class:`Match` with the record's settings (no actions played)."""
    try:
        options = RuleOptions.from_dict(data["options"])
    except RulesError as err:
        raise RecordFormatError(f"'options' are not valid rule options: {err}") from err
    board = board_from_dict(data["board"], data["version"])
    start = data.get("start")
    if start is None:
        return Match(data["players"], options, board, data["seed"], data["fly_off"])
    if "layout" not in start or "referee" not in start:
        raise RecordFormatError("'start' must hold a layout and a referee state")
    layout = _start_layout(board, start["layout"])
    try:
        referee = RefereeState.from_dict(start["referee"])
    except RulesError as err:
        raise RecordFormatError(f"'start' referee state is not valid: {err}") from err
    if referee.players != data["players"] or referee.options != options:
        raise RecordFormatError("'start' disagrees with the record's players or options")
    try:
        return Match.from_position(
            layout, referee, board=board, seed=data["seed"], fly_off=data["fly_off"]
        )
    except ValueError as err:
        raise RecordFormatError(f"'start' is not a valid position: {err}") from err


def dump(record: dict[str, Any]) -> str:
    """The record as JSON text (UTF-8, Japanese kept readable, stable key order)."""
    return json.dumps(record, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def load(text: str | bytes) -> dict[str, Any]:
    """Decode and check a record's envelope; raises :class:`RecordFormatError` on anything wrong."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise RecordFormatError(f"not a record: nested deeper than {MAX_DEPTH} levels") from None
    except (ValueError, TypeError) as err:  # JSONDecodeError, UnicodeDecodeError, huge ints
        raise RecordFormatError(f"not JSON: {err}") from err
    return check_header(data)


def _tmp(target: Path) -> Path:
    return target.with_name(target.name + ".tmp")


def writable(path: str | Path) -> None:
    """Check that a record can be written to ``path``, e.g. before a long computation: the
    folder exists and takes a new file, the path is no folder. Raises :class:`RecordFormatError`
    with a sentence otherwise; leaves nothing behind."""
    target = Path(path)
    try:
        if target.is_dir():
            problem = "it is a folder"
        elif not target.parent.is_dir():
            problem = f"no folder {target.parent}"
        else:
            with _tmp(target).open("wb"):
                pass
            _tmp(target).unlink()
            return
    except (OSError, ValueError) as err:
        problem = str(err.strerror if isinstance(err, OSError) and err.strerror else err)
    raise RecordFormatError(f"cannot write a record to {target}: {problem}")


def write(path: str | Path, record: dict[str, Any]) -> None:
    """Write a record atomically (a temporary file renamed over the target).

    Raises:
        RecordFormatError: the file cannot be written (the reason in a sentence); nothing is left
            behind.
    """
    target = Path(path)
    writable(target)
    tmp = _tmp(target)
    try:
        tmp.write_text(dump(record), encoding="utf-8")
        tmp.replace(target)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise RecordFormatError(f"cannot write {target}: {err.strerror or err}") from err


def read(path: str | Path) -> dict[str, Any]:
    """Read a record file (a regular file of at most :data:`MAX_BYTES`); raises
    :class:`RecordFormatError` (never a bare traceback, never waits on a pipe or device)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError, TypeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else err
        raise RecordFormatError(f"cannot read {path}: {reason}") from err
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RecordFormatError(f"cannot read {path}: not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as err:
        raise RecordFormatError(f"cannot read {path}: {err.strerror or err}") from err
    finally:
        os.close(fd)
    if len(raw) > MAX_BYTES:
        raise RecordFormatError(f"{path} is larger than {MAX_BYTES // (1024 * 1024)} MiB")
    return load(raw)
