"""What clients see: the board's geometry, a match's state, a shot's animation tracks (JSON).

Everything here reads the library (board, match, referee, physics results); nothing decides.
Lengths in m, times in s, speeds in m/s, angles in rad.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.match import IllegalShotError, Match, PlayResult
from hikone_carrom.match.pieces import JACK_ID, STRIKER_ID
from hikone_carrom.physics import Disk, EventKind
from hikone_carrom.rules import Color, Ruling, explain, explain_outcome
from hikone_carrom.rules.clock import MatchClock

__all__ = [
    "LANGS",
    "board_view",
    "clock_view",
    "disk_view",
    "kind_of",
    "layout_view",
    "pile_view",
    "ruling_text",
    "shot_view",
    "sounds_view",
    "state_view",
    "tracks_duration",
    "tracks_view",
]

LANGS: tuple[Literal["en"], Literal["ja"]] = ("en", "ja")
"""Languages every text is given in."""

RAIL_WIDTH = 0.022
"""Drawn width of the wooden frame around the playing surface, m (the box is about 62 cm)."""


def board_view(board: BoardSpec) -> dict[str, Any]:
    """Geometry the browser draws to scale: rails, pockets, circles, area lines and tee spots."""
    lines = []
    for side in Side:
        seg = board.area_line(side)
        tee = board.tee_spot(side)
        lines.append(
            {"side": side.value, "a": list(seg.a), "b": list(seg.b), "tee": [tee.x, tee.y]}
        )
    return {
        "half": board.half_width,
        "rail_width": RAIL_WIDTH,
        "pocket_radius": board.pocket_radius,
        "centre_circle_radius": board.centre_circle_radius,
        "puck_radius": board.puck_radius,
        "striker_radius": board.striker_radius,
        "jack_radius": board.jack_radius,
        "thickness": board.puck_thickness,
        "deceleration": board.deceleration,
        "max_speed": board.max_speed,
        "area_lines": lines,
        "pockets": [list(p) for p in board.pocket_centres()],
    }


@functools.cache
def kind_of(disk_id: str) -> str:
    """Drawing kind of a disk id: "jack", "red", "green" or "striker"."""
    if disk_id == JACK_ID:
        return "jack"
    if disk_id == STRIKER_ID:
        return "striker"
    return "red" if disk_id.startswith("R") else "green"


def disk_view(disk: Disk) -> dict[str, Any]:
    """One disk at rest: id, kind, centre (m), layer, radius (m)."""
    return {
        "id": disk.id,
        "kind": kind_of(disk.id),
        "x": disk.x,
        "y": disk.y,
        "layer": disk.layer,
        "r": disk.radius,
    }


def layout_view(layout: Sequence[Disk]) -> list[dict[str, Any]]:
    """Every disk of a layout at rest."""
    return [disk_view(d) for d in layout]


def pile_view(layout: Sequence[Disk], board: BoardSpec) -> list[str]:
    """Kinds of the pieces standing on the jack spot, bottom to top (R5h, R6d, R6e)."""
    near = [d for d in layout if math.hypot(d.x, d.y) < 0.25 * board.puck_radius]
    return [kind_of(d.id) for d in sorted(near, key=lambda d: d.layer)]


def clock_view(clock: MatchClock | None, *, running: bool) -> dict[str, Any] | None:
    """Match time left and, under the 10-second rule, the shot time left (s) (R7b, R8a); a clock
    that is not ``running`` (the game is over) shows its final time and no shot time."""
    if clock is None:
        return None
    if not clock.started:
        return {
            "limit_s": clock.limit_s,
            "remaining_s": clock.limit_s,
            "turn_remaining_s": None,
            "shot_time_s": clock.shot_time_s,
            "paused": True,
        }
    return {
        "limit_s": clock.limit_s,
        "remaining_s": clock.remaining(),
        "turn_remaining_s": clock.turn_remaining() if running else None,
        "shot_time_s": clock.shot_time_s,
        "paused": not running,
    }


def state_view(
    match: Match, *, waiting: bool = False, clock: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The whole visible state of a match after an event (layout, turn, counts, pile, result)."""
    ref = match.referee
    over = match.is_over
    shooter = None if over else match.shooter
    placement: dict[str, Any] | None = None
    if shooter is not None:
        try:
            placement = match.legal_placement().to_dict()
        except IllegalShotError:
            placement = None
    counts = {
        c.value: {
            "pocketed": ref.pocketed(c),
            "debt": ref.debt(c),
            "on_board": ref.pucks_on_board(c),
        }
        for c in (Color.RED, Color.GREEN)
    }
    scores = ref.scores()
    outcome = match.outcome
    return {
        "layout": layout_view(match.layout),
        "shooter": shooter,
        "first_shot": shooter is not None and ref.is_first_shot(shooter),
        "placement": placement,
        "unshootable": [] if shooter is None else list(match.unshootable(shooter)),
        "counts": counts,
        "jack_pocketed": ref.jack_pocketed,
        "scores": {c.value: s for c, s in scores.items()},
        "pile": pile_view(match.layout, match.board),
        "over": over,
        "outcome": None if outcome is None else outcome.to_dict(),
        "outcome_text": None
        if outcome is None
        else {lang: explain_outcome(outcome, lang) for lang in LANGS},
        "time_called": ref.time_called,
        "waiting": waiting,
        "clock": clock,
        "actions": len(match.actions),
    }


def ruling_text(
    ruling: Ruling, names: Mapping[str, Mapping[int, str]] | None = None
) -> dict[str, list[str]]:
    """The library's explanation of a ruling, sentence by sentence with rule ids, ja and en;
    ``names`` (language -> seat -> name) name the players (default: by colour)."""
    return {
        lang: list(explain(ruling, lang, None if names is None else names.get(lang)))
        for lang in LANGS
    }


def shot_view(
    play: PlayResult, board: BoardSpec, names: Mapping[str, Mapping[int, str]] | None = None
) -> dict[str, Any]:
    """A shot for the browser: the input, the ruling (its players named by ``names``), what fell,
    and exact animation tracks."""
    tracks = tracks_view(play, board)
    return {
        "seat": play.seat,
        "shot": play.shot.to_dict(),
        "noise": play.noise.to_dict(),
        "executed": play.executed.to_dict(),
        "ruling": play.ruling.to_dict(),
        "explain": ruling_text(play.ruling, names),
        "report": play.report.to_dict(),
        "pocketed": list(play.report.to_dict()["pocketed"]),
        "before": layout_view(play.before),
        "tracks": tracks,
        "duration": tracks_duration(tracks),
        "sounds": sounds_view(play, board),
    }


_SOUND_OF = {
    EventKind.DISK_DISK: "hit",
    EventKind.DISK_RAIL: "rail",
    EventKind.POCKETED: "pocket",
    EventKind.FLEW_OFF: "off",
}


def sounds_view(play: PlayResult, board: BoardSpec) -> list[dict[str, Any]]:
    """What a shot sounds like: every hit, rail, pocket and fly-off with its time (s) and its
    strength (0-1: the speed involved over the board's top speed)."""
    out: list[dict[str, Any]] = []
    for event in play.result.events:
        kind = _SOUND_OF.get(event.kind)
        if kind is None:
            continue
        states = event.states
        if kind == "hit" and len(states) == 2:
            a, b = states
            speed = math.hypot(a.vx - b.vx, a.vy - b.vy)
        else:
            speed = max(math.hypot(s.vx, s.vy) for s in states)
        strength = min(1.0, speed / board.max_speed)
        out.append({"t": event.time, "kind": kind, "strength": round(strength, 3)})
    return out


def tracks_view(play: PlayResult, board: BoardSpec) -> list[dict[str, Any]]:
    """Every disk's motion in the shot as segments of constant acceleration (m, s, m/s^2).

    In a segment from ``t0`` to ``t1`` the centre is ``x + vx*dt + ax*dt^2/2`` (same for y) with
    ``dt = t - t0``; ``fate`` is "pocket" (with the pocket's corner) or "off" at ``fate_t``.
    """
    pockets = board.pocket_centres()
    pocket_of = {p.id: p.pocket for p in play.result.pocketed}
    out: list[dict[str, Any]] = []
    for track in play.result.tracks().values():
        segments: list[dict[str, Any]] = []
        for k, seg in enumerate(track.segments):
            stop = seg.stop_time
            if k + 1 < len(track.segments):
                stop = min(stop, track.segments[k + 1].t_start)
            if track.end_time is not None:
                stop = min(stop, track.end_time)
            if math.isinf(stop):
                stop = seg.t_start
            ax, ay = seg.acceleration
            segments.append(
                {
                    "t0": seg.t_start,
                    "t1": max(seg.t_start, stop),
                    "x": seg.x,
                    "y": seg.y,
                    "vx": seg.vx,
                    "vy": seg.vy,
                    "ax": ax,
                    "ay": ay,
                    "layer": seg.layer,
                }
            )
        fate: str | None = None
        if track.end_kind == EventKind.POCKETED:
            fate = "pocket"
        elif track.end_kind == EventKind.FLEW_OFF:
            fate = "off"
        entry: dict[str, Any] = {
            "id": track.id,
            "kind": kind_of(track.id),
            "r": track.radius,
            "segments": segments,
            "fate": fate,
            "fate_t": track.end_time,
        }
        if track.id == STRIKER_ID:
            entry["color"] = play.ruling.color.value
        if fate == "pocket" and track.id in pocket_of:
            entry["pocket"] = list(pockets[pocket_of[track.id]])
        out.append(entry)
    return out


def tracks_duration(tracks: Sequence[dict[str, Any]]) -> float:
    """When (s) the last disk of a shot comes to rest or leaves the board."""
    end = 0.0
    for track in tracks:
        end = max(end, track["segments"][-1]["t1"] if track["segments"] else 0.0)
        if track["fate_t"] is not None:
            end = max(end, float(track["fate_t"]))
    return end
