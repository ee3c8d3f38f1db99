"""``hikone-carrom calibrate``: fit a board's physical constants to shots measured on a real board.

A club films a few dozen simple shots with a phone above the board (docs/physics.md
"Calibrating a board"): for each, where every disk started, how fast the moving ones started and
where every disk came to rest. The fit finds the constants (friction on the board, restitutions,
impact and stack friction) with which the exact engine brings the disks to rest closest to where
they did (least squares over the rest positions) and writes a board file that ``--board FILE``
loads everywhere.

The shots file is CSV with a header row, one row per disk of a shot (SI units, origin at the
jack spot, x to the right, y up, seen from above, docs/architecture.md):

``shot``      the shot's name (rows of one shot share it)
``disk``      the disk's name within the shot (e.g. ``S``, ``R3``, ``J``)
``kind``      ``striker``, ``puck`` or ``jack`` (size and mass come from the board)
``layer``     0 on the board, 1 on a disk of layer 0, ... (empty: 0)
``x``, ``y``  the centre at the start, m
``vx``, ``vy`` the velocity at the start, m/s (empty or 0 for a disk at rest)
``rest_x``, ``rest_y`` the centre at rest, m; both empty when the disk left the board

Fly-off is switched off in the fit (a disk that flew off counts as having left the board).
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from hikone_carrom.board import BoardError, BoardSpec, PieceKind
from hikone_carrom.board_file import add_board_argument, board_from_args, write_board_file
from hikone_carrom.physics import Disk, PhysicsError, simulate

__all__ = [
    "FIT_BOUNDS",
    "CalibrationError",
    "Fit",
    "MeasuredShot",
    "fit_board",
    "main",
    "read_shots",
    "write_shots",
]

FIT_BOUNDS: dict[str, tuple[float, float]] = {
    "friction": (0.02, 0.6),
    "restitution_disk": (0.2, 1.0),
    "restitution_rail": (0.2, 1.0),
    "disk_friction": (0.0, 0.6),
    "rail_friction": (0.0, 0.6),
    "stack_friction": (0.0, 1.0),
}
"""The figures the fit may change, with the range it searches (dimensionless)."""
LEFT_PENALTY = 0.3
"""Residual (m, in x and in y) of a disk that left the board in the simulation and not on the
real board, or the other way round."""
COLUMNS = ("shot", "disk", "kind", "layer", "x", "y", "vx", "vy", "rest_x", "rest_y")
MAX_ROWS = 100_000


class CalibrationError(ValueError):
    """The shots file or the fit cannot be used (one sentence)."""


@dataclass(frozen=True)
class MeasuredDisk:
    """A disk of a measured shot: its start (kind, layer, centre m, velocity m/s) and rest
    centre (m), or None when it left the board."""

    disk: str
    kind: PieceKind
    layer: int
    x: float
    y: float
    vx: float
    vy: float
    rest: tuple[float, float] | None


@dataclass(frozen=True)
class MeasuredShot:
    """One shot of the shots file."""

    name: str
    disks: tuple[MeasuredDisk, ...]

    def start(self, board: BoardSpec) -> list[Disk]:
        """The disks at the start, sized and weighed for ``board``."""
        return [
            Disk.of_kind(d.kind, d.disk, d.x, d.y, d.vx, d.vy, layer=d.layer, board=board)
            for d in self.disks
        ]


@dataclass(frozen=True)
class Fit:
    """The result of a fit: the board, each fitted figure with its standard error (None when the
    shots say nothing about it), the root-mean-square miss of the rest positions (m) before and
    after, and the numbers of shots and disks used."""

    board: BoardSpec
    errors: dict[str, float | None]
    rms_before: float
    rms_after: float
    shots: int
    disks: int


def _number(row: dict[str, str], key: str, line: int, default: float | None = None) -> float:
    text = (row.get(key) or "").strip()
    if not text and default is not None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise CalibrationError(f"line {line}: {key} must be a number, not {text!r}") from None
    if not math.isfinite(value) or abs(value) > 100.0:
        raise CalibrationError(f"line {line}: {key} must be a finite number of metres or m/s")
    return value


def read_shots(path: str | Path) -> list[MeasuredShot]:
    """The shots of a shots file (see the module docstring); CalibrationError on anything
    wrong, naming the line."""
    name = str(path)
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise CalibrationError(f"{name!r} lacks the columns {', '.join(missing)}")
            rows: dict[str, list[MeasuredDisk]] = {}
            for line, row in enumerate(reader, start=2):
                if line > MAX_ROWS:
                    raise CalibrationError(f"{name!r} has more than {MAX_ROWS:,} rows")
                rows.setdefault(row["shot"] or "", []).append(_disk(row, line))
    except OSError as err:
        raise CalibrationError(f"cannot read {name!r}: {err.strerror or err}") from err
    except (UnicodeDecodeError, csv.Error) as err:
        raise CalibrationError(f"{name!r} is not a readable CSV file: {err}") from err
    if not rows:
        raise CalibrationError(f"{name!r} holds no shot")
    shots = []
    for shot, disks in rows.items():
        if not shot:
            raise CalibrationError(f"{name!r}: every row needs a shot name")
        ids = [d.disk for d in disks]
        if len(set(ids)) != len(ids):
            raise CalibrationError(f"shot {shot!r} names a disk twice")
        if not any(d.vx or d.vy for d in disks):
            raise CalibrationError(f"shot {shot!r}: no disk moves at the start")
        shots.append(MeasuredShot(shot, tuple(disks)))
    return shots


def _disk(row: dict[str, str], line: int) -> MeasuredDisk:
    disk = (row.get("disk") or "").strip()
    if not disk:
        raise CalibrationError(f"line {line}: the disk needs a name")
    try:
        kind = PieceKind((row.get("kind") or "").strip().lower())
    except ValueError:
        raise CalibrationError(f"line {line}: kind must be striker, puck or jack") from None
    layer_text = (row.get("layer") or "").strip() or "0"
    if not layer_text.isdigit() or int(layer_text) > 30:
        raise CalibrationError(f"line {line}: layer must be an int from 0 to 30")
    rx, ry = (row.get("rest_x") or "").strip(), (row.get("rest_y") or "").strip()
    if bool(rx) != bool(ry):
        raise CalibrationError(f"line {line}: give both rest_x and rest_y, or neither")
    rest = (_number(row, "rest_x", line), _number(row, "rest_y", line)) if rx else None
    return MeasuredDisk(
        disk,
        kind,
        int(layer_text),
        _number(row, "x", line),
        _number(row, "y", line),
        _number(row, "vx", line, 0.0),
        _number(row, "vy", line, 0.0),
        rest,
    )


def write_shots(path: str | Path, shots: Sequence[MeasuredShot]) -> None:
    """Write shots in the shots-file format (floats with 17 significant digits)."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(COLUMNS)
        for shot in shots:
            for d in shot.disks:
                rest = ("", "") if d.rest is None else (repr(d.rest[0]), repr(d.rest[1]))
                start = (repr(d.x), repr(d.y), repr(d.vx), repr(d.vy))
                out.writerow([shot.name, d.disk, d.kind.value, d.layer, *start, *rest])


def residuals(shots: Sequence[MeasuredShot], board: BoardSpec) -> np.ndarray:
    """Misses (m) of the simulated rest positions: x and y of every disk of every shot."""
    out = []
    for shot in shots:
        try:
            res = simulate(shot.start(board), board, striker=None, fly_off=False)
        except PhysicsError as err:
            raise CalibrationError(f"shot {shot.name!r}: {err}") from err
        final = {d.id: d for d in res.final}
        for d in shot.disks:
            sim = final.get(d.disk)
            if d.rest is None and sim is None:
                out += [0.0, 0.0]
            elif d.rest is None or sim is None:
                out += [LEFT_PENALTY, LEFT_PENALTY]
            else:
                out += [sim.x - d.rest[0], sim.y - d.rest[1]]
    return np.array(out)


def fit_board(
    shots: Sequence[MeasuredShot], base: BoardSpec, names: Sequence[str] = tuple(FIT_BOUNDS)
) -> Fit:
    """Least-squares fit of the figures ``names`` of ``base`` to the shots' rest positions
    (scipy's trust-region reflective method within :data:`FIT_BOUNDS`). A figure no shot
    responds to keeps the base board's value and gets no error (None)."""
    from scipy.optimize import least_squares

    def board_of(values: dict[str, Any]) -> BoardSpec:
        return replace(base, **values)

    start = {n: min(max(getattr(base, n), FIT_BOUNDS[n][0]), FIT_BOUNDS[n][1]) for n in names}
    before = residuals(shots, board_of(start))
    # a figure no shot responds to (e.g. stack friction without a pile) keeps the base value
    errors: dict[str, float | None] = {}
    free = []
    for n in names:
        hi = FIT_BOUNDS[n][1]
        probe = start[n] + 0.01 if start[n] + 0.01 <= hi else start[n] - 0.01
        if np.array_equal(residuals(shots, board_of({**start, n: probe})), before):
            errors[n] = None
        else:
            free.append(n)
    fitted = dict(start)
    after = before
    if free:
        lo_arr = np.array([FIT_BOUNDS[n][0] for n in free])
        hi_arr = np.array([FIT_BOUNDS[n][1] for n in free])

        def fun(x: np.ndarray) -> np.ndarray:
            values = {**start, **{n: float(v) for n, v in zip(free, x, strict=True)}}
            return residuals(shots, board_of(values))

        found = least_squares(
            fun,
            np.array([start[n] for n in free]),
            bounds=(lo_arr, hi_arr),
            method="trf",
            diff_step=1e-6,
            x_scale="jac",
            xtol=1e-12,
            ftol=1e-12,
            gtol=1e-12,
            max_nfev=400 * len(free),
        )
        fitted.update({n: float(v) for n, v in zip(free, found.x, strict=True)})
        after = found.fun
        dof = max(1, after.size - len(free))
        cov = np.linalg.pinv(found.jac.T @ found.jac) * (float(after @ after) / dof)
        for k, n in enumerate(free):
            errors[n] = math.sqrt(max(0.0, float(cov[k, k])))
    disks = sum(len(s.disks) for s in shots)
    return Fit(
        board_of(fitted),
        {n: errors[n] for n in names},
        float(np.sqrt(np.mean(before**2))),
        float(np.sqrt(np.mean(after**2))),
        len(shots),
        disks,
    )


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom calibrate``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom calibrate",
        description="Fit the board's physical constants to shots measured on a real board and "
        "write a board file / 実測したショットから盤の物理定数を求めて盤ファイルに書く",
    )
    parser.add_argument("shots", help="shots file (CSV; columns in docs/physics.md)")
    parser.add_argument("--out", required=True, help="board file to write (JSON)")
    parser.add_argument(
        "--fit",
        default=",".join(FIT_BOUNDS),
        help=f"figures to fit, comma-separated (default: {','.join(FIT_BOUNDS)})",
    )
    add_board_argument(parser)
    args = parser.parse_args(argv)
    base = board_from_args(parser, args)
    names = [n.strip() for n in args.fit.split(",") if n.strip()]
    unknown = [n for n in names if n not in FIT_BOUNDS]
    if unknown or not names:
        parser.error(f"--fit takes some of {', '.join(FIT_BOUNDS)}; got {args.fit!r}")
    try:
        __import__("scipy.optimize")
    except ImportError:
        parser.error("calibrate needs SciPy: pip install 'hikone-carrom[calibrate]'")
    try:
        shots = read_shots(args.shots)
        fit = fit_board(shots, base, names)
        note = (
            f"fitted by hikone-carrom calibrate to {fit.shots} shots ({fit.disks} disks) of "
            f"{Path(args.shots).name} on {date.today().isoformat()}; rest positions missed by "
            f"{1000 * fit.rms_after:.1f} mm rms (before: {1000 * fit.rms_before:.1f} mm)"
        )
        extra: dict[str, Any] = {"fit": {n: fit.errors[n] for n in names}}
        write_board_file(args.out, fit.board, note, **extra)
    except (CalibrationError, BoardError) as err:
        print(f"hikone-carrom calibrate: {err}", file=sys.stderr)
        return 2
    print(note)
    for n in names:
        sd = fit.errors[n]
        spread = "not determined by these shots" if sd is None else f"+- {sd:.4f}"
        print(f"  {n:<17} {getattr(fit.board, n):.4f}  {spread}")
    print(f"board file written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
