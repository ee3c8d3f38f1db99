"""``hikone-carrom show FILE --shot K --out FILE.png|svg``: the board to scale before and after a
shot of a record, with the paths of the moving disks (needs the ``draw`` extra: matplotlib)."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match import Match, PlayResult
from hikone_carrom.physics import Disk
from hikone_carrom.records import RecordFormatError, ReplayError, iter_replay, read

__all__ = ["draw_layout", "draw_shot", "main"]

_WOOD, _RAIL, _LINE = "#e8c99a", "#7a4a22", "#5b3a1a"
_FILL = {"R": "#c8372d", "G": "#2f8f4e", "J": "#f4efe6", "S": "#f2d16b"}
_HATCH = {"R": "", "G": "///", "J": "", "S": "..."}  # colour-blind safe: green pucks are hatched


def _board(ax: Any, board: BoardSpec, players: int) -> None:
    import matplotlib.patches as mp

    h = board.half_width
    ax.add_patch(mp.Rectangle((-h - 0.02, -h - 0.02), 2 * h + 0.04, 2 * h + 0.04, color=_RAIL))
    ax.add_patch(mp.Rectangle((-h, -h), 2 * h, 2 * h, color=_WOOD))
    for cx, cy in board.pocket_centres():
        ax.add_patch(mp.Circle((cx, cy), board.pocket_radius, color="#1d140c"))
    ax.add_patch(mp.Circle((0, 0), board.centre_circle_radius, fill=False, color=_LINE, lw=0.8))
    ax.plot([0], [0], marker="+", color=_LINE)
    for side in Side:
        a, b = board.area_line(side)
        ax.plot([a.x, b.x], [a.y, b.y], color=_LINE, lw=1.0)
        t = board.tee_spot(side)
        ax.plot([t.x], [t.y], marker="o", ms=2.5, color=_LINE)
    ax.set_xlim(-h - 0.025, h + 0.025)
    ax.set_ylim(-h - 0.025, h + 0.025)
    ax.set_aspect("equal")
    ax.axis("off")


def _disks(ax: Any, disks: Sequence[Disk], alpha: float = 1.0) -> None:
    import matplotlib.patches as mp

    for d in sorted(disks, key=lambda d: d.layer):
        k = d.id[0]
        ax.add_patch(
            mp.Circle(
                (d.x, d.y),
                d.radius,
                facecolor=_FILL.get(k, "#999"),
                edgecolor="#222",
                hatch=_HATCH.get(k, ""),
                lw=0.6,
                alpha=alpha,
            )
        )
        if d.layer:
            ax.annotate(str(d.layer), (d.x, d.y), ha="center", va="center", fontsize=6)


def draw_layout(ax: Any, board: BoardSpec, players: int, disks: Sequence[Disk]) -> None:
    """Draw the board to scale with ``disks`` on matplotlib axes ``ax`` (stacked disks on top,
    labelled with their layer, R6e)."""
    _board(ax, board, players)
    _disks(ax, disks)


_TITLES = {"en": ("before", "after"), "ja": ("打つ前", "打った後")}


def _japanese_font() -> str | None:
    """A font with Japanese glyphs installed for matplotlib, or ``None``."""
    from matplotlib import font_manager

    for f in font_manager.fontManager.ttflist:
        if any(k in f.name for k in ("CJK", "IPA", "Takao", "VL Gothic", "Noto Sans JP")):
            return str(f.name)
    return None


def draw_shot(
    play: PlayResult, board: BoardSpec, players: int, out: str, title: str, lang: str = "en"
) -> None:
    """Draw ``play`` to ``out`` (.png or .svg): before with paths on the left, after on the right.

    ``lang`` "ja" labels the panels in Japanese when a Japanese font is installed (else English).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if lang == "ja":
        font = _japanese_font()
        if font is None:
            print(
                "no Japanese font found (e.g. fonts-noto-cjk); labels in English", file=sys.stderr
            )
            lang = "en"
        else:
            matplotlib.rcParams["font.family"] = font

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 5.2))
    for ax in (left, right):
        _board(ax, board, players)
    striker = next(d for d in play.result.initial if d.id == "S")
    _disks(left, (*play.before, striker))
    tracks = play.result.tracks()
    end = play.result.duration
    for disk_id, track in tracks.items():
        stop = track.end_time if track.end_time is not None else end
        times = [stop * k / 120 for k in range(121)]
        pts = [play.result.positions_at(t).get(disk_id) for t in times]
        xs = [p.x for p in pts if p is not None]
        ys = [p.y for p in pts if p is not None]
        if len(xs) > 1 and math.hypot(xs[-1] - xs[0], ys[-1] - ys[0]) > 1e-4:
            left.plot(
                xs,
                ys,
                color="#222" if disk_id == "S" else _FILL.get(disk_id[0], "#555"),
                lw=1.0,
                alpha=0.8,
            )
    _disks(right, play.after)
    before, after = _TITLES[lang]
    left.set_title(before, fontsize=10)
    right.set_title(after, fontsize=10)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    plt.close(fig)


def _check_out(out: Path) -> str | None:
    """Why a drawing cannot be written to ``out``, or ``None``."""
    if out.suffix not in (".png", ".svg"):
        return "--out must end in .png or .svg"
    if out.is_dir():
        return f"cannot write {out}: it is a folder"
    if not out.parent.is_dir():
        return f"cannot write {out}: no folder {out.parent}"
    return None


def main(argv: list[str] | None = None) -> int:
    """Draw one shot of a record; exit 1 on a bad record, shot number or output file."""
    parser = argparse.ArgumentParser(prog="hikone-carrom show", description=__doc__)
    parser.add_argument("file", help="match record (JSON)")
    parser.add_argument("--shot", type=int, default=1, help="action number (1-based)")
    parser.add_argument("--out", required=True, help="output file, .png or .svg")
    parser.add_argument("--lang", choices=("en", "ja"), default="en", help="label language")
    args = parser.parse_args(argv)
    problem = _check_out(Path(args.out))
    if problem is not None:
        parser.error(problem)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("show needs matplotlib: pip install 'hikone-carrom[draw]'", file=sys.stderr)
        return 1
    try:
        record = read(args.file)
        for step in iter_replay(record):
            if step.n == args.shot:
                if step.play is None:
                    kind = step.entry["kind"]  # one the replay knows
                    print(f"action {args.shot} ({kind}) is not a simulated shot", file=sys.stderr)
                    return 1
                m = step.match
                assert isinstance(m, Match)  # only a simulated match has played shots
                ruling = step.play.ruling
                title = (
                    f"{args.file} — shot {args.shot}, seat {step.play.seat} "
                    f"({ruling.color.value}): {' '.join(ruling.reasons) or '-'}"
                ).replace("$", r"\$")  # no TeX from a file name
                draw_shot(step.play, m.board, m.players, args.out, title, args.lang)
                print(f"wrote {args.out}")
                return 0
    except (RecordFormatError, ReplayError) as exc:
        print(f"cannot show {args.file}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"the record has no action {args.shot}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
