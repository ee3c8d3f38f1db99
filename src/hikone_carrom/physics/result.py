"""ShotResult: the outcome of one simulated shot, built lazily from the engine's arrays."""

from __future__ import annotations

import bisect
import math
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from hikone_carrom.board import BoardSpec, Side
from hikone_carrom.physics import _engine as E
from hikone_carrom.physics.disk import Disk
from hikone_carrom.physics.events import (
    DiskState,
    Event,
    EventKind,
    FirstContact,
    StrikerFate,
    Track,
    TrackSegment,
)

__all__ = ["Pocketed", "ShotResult", "position_on_segment", "spin_decay"]

_KINDS = tuple(EventKind)
_SIDES = tuple(Side)
RESULT_VERSION = 2


class Pocketed(NamedTuple):
    """A disk that fell: its id, the pocket index (BoardSpec.pocket_centres) and the time (s)."""

    id: str
    pocket: int
    time: float


def spin_decay(board: BoardSpec, radius: float) -> float:
    """Rate (rad/s^2) at which a disk's spin decays on the board: 4*mu*g / (3*r)."""
    return E.SPIN_DECAY * board.friction * board.gravity / radius


def position_on_segment(seg: TrackSegment, t: float, spin_rate: float = 0.0) -> DiskState:
    """State of a disk at time t (s) on a track segment, exactly as the engine evaluates it
    (the spin decays at ``spin_rate`` rad/s^2, see :func:`spin_decay`)."""
    vx = seg.vx
    vy = seg.vy
    tau = max(0.0, t - seg.t_start)
    w = seg.spin
    if w != 0.0:
        drop = spin_rate * tau
        w = 0.0 if drop >= abs(w) else (w - drop if w > 0.0 else w + drop)
    if seg.curved:
        return DiskState(
            "",
            seg.x + (vx + 0.5 * seg.ax * tau) * tau,
            seg.y + (vy + 0.5 * seg.ay * tau) * tau,
            vx + seg.ax * tau,
            vy + seg.ay * tau,
            seg.layer,
            w,
        )
    sp = math.sqrt(vx * vx + vy * vy)
    if sp == 0.0:
        return DiskState("", seg.x, seg.y, 0.0, 0.0, seg.layer, w)
    decel = seg.decel
    stop = seg.t_start + sp / decel if decel > 0.0 else math.inf
    if t >= stop:
        tau = sp / decel
        f = tau - 0.5 * decel * tau * tau / sp
        return DiskState("", seg.x + vx * f, seg.y + vy * f, 0.0, 0.0, seg.layer, w)
    f = tau - 0.5 * decel * tau * tau / sp
    k = 1.0 - decel * tau / sp
    return DiskState("", seg.x + vx * f, seg.y + vy * f, vx * k, vy * k, seg.layer, w)


class ShotResult:
    """Outcome of :func:`simulate`: final layout, event log and what the referee needs.

    Attributes are computed on first access from the engine's arrays. Times in s, lengths in m.
    ``truncated`` is True when the event guard (``max_events``) stopped the shot: every moving
    disk was then stopped where it stood.
    """

    def __init__(
        self,
        *,
        board: BoardSpec,
        seed: int,
        striker: str | None,
        initial: tuple[Disk, ...],
        S: np.ndarray,
        L: np.ndarray,
        EVf: np.ndarray,
        EVi: np.ndarray,
        outi: np.ndarray,
        outf: np.ndarray,
        rails: np.ndarray,
    ) -> None:
        self.board = board
        self.seed = seed
        self.striker = striker
        self.initial = initial
        self._S = S
        self._L = L
        self._EVf = EVf
        self._EVi = EVi
        self._rails = rails
        self.events_handled = int(outi[1])
        self.truncated = bool(outi[2])
        self._fc = int(outi[3])
        self._fc_time = float(outf[0])
        self._n_rails = int(outi[4])
        self.deceleration = float(board.friction * board.gravity)

    def __repr__(self) -> str:
        return (
            f"ShotResult(events={len(self._EVf)}, pocketed={[p.id for p in self.pocketed]}, "
            f"off_board={list(self.off_board)}, striker_fate={self.striker_fate}, "
            f"truncated={self.truncated})"
        )

    @property
    def ids(self) -> tuple[str, ...]:
        """Disk ids in the engine's canonical order (sorted)."""
        return tuple(d.id for d in self.initial)

    @cached_property
    def final(self) -> tuple[Disk, ...]:
        """The disks left on the board, at rest, with their layers (canonical order)."""
        out = []
        for i, d in enumerate(self.initial):
            if self._L[i, E.STATUS] == E.ON_BOARD:
                out.append(
                    Disk(
                        d.id,
                        float(self._S[i, E.X]),
                        float(self._S[i, E.Y]),
                        0.0,
                        0.0,
                        d.radius,
                        d.mass,
                        int(self._L[i, E.LAYER]),
                    )
                )
        return tuple(out)

    @cached_property
    def events(self) -> tuple[Event, ...]:
        """Every event in order (ties in the engine's fixed order)."""
        ids = self.ids
        out = []
        for row_f, row_i in zip(self._EVf.tolist(), self._EVi.tolist(), strict=True):
            kind = _KINDS[row_i[0]]
            i, j, aux = row_i[1], row_i[2], row_i[3]
            states = [_state(ids[i], row_f, 1, row_i[4])]
            if j >= 0:
                states.append(_state(ids[j], row_f, 1 + E.N_DISK_F, row_i[5]))
            side = _SIDES[aux] if kind in (EventKind.DISK_RAIL, EventKind.FLEW_OFF) else None
            pocket = aux if kind is EventKind.POCKETED else None
            out.append(
                Event(row_f[0], kind, tuple(s.id for s in states), tuple(states), side, pocket)
            )
        return tuple(out)

    @cached_property
    def pocketed(self) -> tuple[Pocketed, ...]:
        """Disks that fell into a pocket, in the order they fell."""
        rows = [
            (
                int(self._L[i, E.ORDER]),
                Pocketed(d.id, int(self._L[i, E.POCKET]), float(self._S[i, E.PTIME])),
            )
            for i, d in enumerate(self.initial)
            if self._L[i, E.STATUS] == E.IN_POCKET
        ]
        return tuple(p for _, p in sorted(rows))

    @cached_property
    def off_board(self) -> tuple[str, ...]:
        """Ids of the disks that flew off the board (R5c, R5d, R6c), in order."""
        rows = [
            (int(self._L[i, E.ORDER]), d.id)
            for i, d in enumerate(self.initial)
            if self._L[i, E.STATUS] == E.OFF_BOARD
        ]
        return tuple(i for _, i in sorted(rows))

    @cached_property
    def first_contact(self) -> FirstContact:
        """The striker's first disk contact and the rails it touched before it (R4)."""
        rails = tuple(_SIDES[int(k)] for k in self._rails[: self._n_rails])
        disk = self.initial[self._fc].id if self._fc >= 0 else None
        return FirstContact(disk, self._fc_time, rails)

    @property
    def striker_fate(self) -> StrikerFate | None:
        """Where the striker ended (None when the shot has no striker)."""
        if self.striker is None:
            return None
        i = self.ids.index(self.striker)
        status = int(self._L[i, E.STATUS])
        if status == E.IN_POCKET:
            return StrikerFate.POCKETED
        return StrikerFate.FLEW_OFF if status == E.OFF_BOARD else StrikerFate.ON_BOARD

    @property
    def duration(self) -> float:
        """Time of the last event, s (0 when nothing happened)."""
        return float(self._EVf[-1, 0]) if len(self._EVf) else 0.0

    @cached_property
    def _tracks(self) -> dict[str, Track]:
        decel = self.deceleration
        segs: list[list[TrackSegment]] = [
            [TrackSegment(0.0, d.x, d.y, d.vx, d.vy, d.layer, decel)] for d in self.initial
        ]
        ends: list[tuple[float | None, EventKind | None]] = [(None, None)] * len(self.initial)
        for row_f, row_i in zip(self._EVf.tolist(), self._EVi.tolist(), strict=True):
            kind = _KINDS[row_i[0]]
            i, j = row_i[1], row_i[2]
            if kind in (EventKind.POCKETED, EventKind.FLEW_OFF):
                ends[i] = (row_f[0], kind)
                continue
            segs[i].append(_segment(row_f, 1, row_i[4], row_i[6]))
            if j >= 0:
                segs[j].append(_segment(row_f, 1 + E.N_DISK_F, row_i[5], row_i[7]))
        return {
            d.id: Track(d.id, d.radius, tuple(segs[k]), ends[k][0], ends[k][1])
            for k, d in enumerate(self.initial)
        }

    def forget_views(self) -> None:
        """Drop the events and tracks built from the engine's arrays (they are built again if
        asked for): a result kept for a long time (a match's history) then holds a few arrays
        instead of hundreds of small objects for the garbage collector to look at."""
        for name in ("events", "_tracks"):
            self.__dict__.pop(name, None)

    def tracks(self) -> dict[str, Track]:
        """Per disk, its motion segments and how it left the board, for exact animation."""
        return dict(self._tracks)

    def positions_at(self, t: float) -> dict[str, DiskState]:
        """Every disk on the board at time t (s): centre (m), velocity (m/s), layer."""
        if not math.isfinite(t) or t < 0.0:
            raise ValueError(f"t must be a finite time >= 0 s, got {t!r}")
        out = {}
        for tid, tr in self._tracks.items():
            if tr.end_time is not None and t >= tr.end_time:
                continue
            k = bisect.bisect_right([s.t_start for s in tr.segments], t) - 1
            rate = spin_decay(self.board, tr.radius)
            st = position_on_segment(tr.segments[max(k, 0)], t, rate)
            out[tid] = DiskState(tid, st.x, st.y, st.vx, st.vy, st.layer, st.spin)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (records, WebSocket). Times s, lengths m, speeds m/s."""
        fc = self.first_contact
        return {
            "version": RESULT_VERSION,
            "seed": self.seed,
            "striker": self.striker,
            "deceleration": self.deceleration,
            "truncated": self.truncated,
            "events_handled": self.events_handled,
            "initial": [_disk_dict(d) for d in self.initial],
            "final": [_disk_dict(d) for d in self.final],
            "events": [
                {
                    "time": e.time,
                    "kind": e.kind.value,
                    "ids": list(e.ids),
                    "states": [[s.x, s.y, s.vx, s.vy, s.layer, s.spin] for s in e.states],
                    "side": None if e.side is None else e.side.value,
                    "pocket": e.pocket,
                }
                for e in self.events
            ],
            "pocketed": [{"id": p.id, "pocket": p.pocket, "time": p.time} for p in self.pocketed],
            "off_board": list(self.off_board),
            "first_contact": {
                "disk_id": fc.disk_id,
                "time": fc.time if math.isfinite(fc.time) else None,
                "rails_before": [s.value for s in fc.rails_before],
            },
            "striker_fate": None if self.striker_fate is None else self.striker_fate.value,
            "tracks": {
                tid: {
                    "radius": tr.radius,
                    "segments": [
                        {
                            "t": s.t_start,
                            "x": s.x,
                            "y": s.y,
                            "vx": s.vx,
                            "vy": s.vy,
                            "layer": s.layer,
                            "decel": s.decel,
                            "ax": s.ax,
                            "ay": s.ay,
                            "curved": s.curved,
                            "spin": s.spin,
                        }
                        for s in tr.segments
                    ],
                    "end_time": tr.end_time,
                    "end_kind": None if tr.end_kind is None else tr.end_kind.value,
                }
                for tid, tr in self._tracks.items()
            },
        }


def _state(disk_id: str, row: list[float], col: int, layer: int) -> DiskState:
    return DiskState(
        disk_id, row[col], row[col + 1], row[col + 2], row[col + 3], layer, row[col + 4]
    )


def _segment(row: list[float], col: int, layer: int, curved: int) -> TrackSegment:
    t, x, y, vx, vy, w, dec, ax, ay = row[0], *row[col : col + 8]
    return TrackSegment(t, x, y, vx, vy, layer, dec, ax, ay, bool(curved), w)


def _disk_dict(d: Disk) -> dict[str, Any]:
    return {
        "id": d.id,
        "x": d.x,
        "y": d.y,
        "vx": d.vx,
        "vy": d.vy,
        "radius": d.radius,
        "mass": d.mass,
        "layer": d.layer,
    }
