"""A championship at real pace in one process: what the director's console and the spectators'
pages are sent, in bytes, per numbered update and per second (part of ``bench tournament-live``
and of its test).

The simulated championship (``hikone_carrom.bench.tournament``) is drawn and planned; every board
then plays as a scoring pad at a real hall does, on a simulated clock (no waiting): its next match
is called, opened on its pad, begun 20-60 s later, a shot entered every 5-10 s (the score changes
on 30 % of them; each entry carries the pad's clock reading, a little off from the wall), the
result after the match time, the next call a minute later. Subscribers take every message the
event's feed sends: the director's console, a page on the boards (every live score), a page on
one division's pools (no live scores), a page on one entry ("my next match"). The store does
nothing (the bytes sent are the figure). The same run also sizes what the protocol before these
changes sent: every update's matches whole and every clock reading once a second.
"""

from __future__ import annotations

import asyncio
import random
import time
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from hikone_carrom.bench.tournament import simulated_championship
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.core.wire import dumps, loads
from hikone_carrom.server.tournaments.feed_wire import deflated
from hikone_carrom.server.tournaments.hub import LiveTournament
from hikone_carrom.server.tournaments.hub_feed import Watching
from hikone_carrom.tournament import Result, TournamentError

__all__ = ["PaceFigures", "Subscriber", "run_pace"]

SHOT_EVERY_S = (5.0, 10.0)
"""Seconds between two entries on one pad (about 33 requests a second on 124 boards)."""

BEGIN_AFTER_S = (20.0, 60.0)
"""Seconds from a call to the match's first entry."""

CHANGEOVER_S = 60.0
"""Seconds from a result to the board's next call."""

STEP_S = 0.1
"""The simulated clock's step, s."""


class _Store:
    """A store that keeps nothing (what is sent is measured, not what is stored)."""

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Keep nothing."""


@dataclass(eq=False)
class Subscriber:
    """A connection that counts what it is sent (bytes of UTF-8 text, by message type)."""

    full: bool = False
    division: str | None = None
    watching: Watching = "all"
    entries: set[str] = field(default_factory=set)
    trimmed: bool = False
    bytes: dict[str, int] = field(default_factory=dict)
    updates: list[str] = field(default_factory=list)
    """The numbered updates' texts."""
    deflated: int = 0
    """Bytes the same messages would take with permessage-deflate (the server's 12-bit
    window, the context kept from message to message)."""
    frames: int = 0
    """Bytes of the same messages as the socket sends them to a page asking ``?z=1`` (each
    deflated on its own: :mod:`~hikone_carrom.server.tournaments.feed_wire`)."""
    _packer: Any = field(default_factory=lambda: zlib.compressobj(wbits=-12, memLevel=5))

    def send(self, text: str) -> None:
        """Count ``text``."""
        kind = "live" if text.startswith('{"type":"live"') else "update"
        data = text.encode()
        self.bytes[kind] = self.bytes.get(kind, 0) + len(data)
        packed = self._packer.compress(data) + self._packer.flush(zlib.Z_SYNC_FLUSH)
        self.deflated += len(packed) - 4  # the frame leaves out the flush's 00 00 ff ff
        self.frames += len(deflated(text))
        if kind == "update":
            self.updates.append(text)


@dataclass
class PaceFigures:
    """Bytes sent over ``seconds`` of simulated play on ``boards`` boards."""

    entrants: int
    boards: int
    seconds: float
    results: int
    full_view: int
    snapshot: int
    """Bytes of a spectator's page's first snapshot."""
    snapshots: dict[str, int]
    """Bytes of a page's first snapshot as sent: ``whole`` and ``trimmed`` (a page on the
    pools or on its own matches), each as JSON text and as a ``?z=1`` frame (``…_z``)."""
    console: Subscriber
    pages: dict[str, Subscriber]
    before_page: float
    """Bytes a second a page on the boards was sent by the protocol before (reconstructed)."""
    cpu_s: float
    """Seconds of this process's time the event's changes and the feed took."""

    def per_second(self, name: str) -> float:
        """Bytes a second page ``name`` was sent (JSON text)."""
        return sum(self.pages[name].bytes.values()) / self.seconds

    def frames_per_second(self, name: str) -> float:
        """Bytes a second page ``name`` was sent as ``?z=1`` frames."""
        return self.pages[name].frames / self.seconds

    def console_update(self) -> tuple[float, int]:
        """Bytes of the console's numbered updates: mean and most."""
        sizes = [len(t.encode()) for t in self.console.updates]
        return sum(sizes) / max(1, len(sizes)), max(sizes, default=0)


def _old_page(text: str) -> int:
    """Bytes of the protocol before of a console's update: its matches whole (empty fields
    left out), no pool tables, every tile and place."""
    whole = loads(text)
    whole.pop("audit", None)
    whole.pop("entries", None)
    whole["matches"] = [{k: v for k, v in m.items() if v is not None} for m in whole["matches"]]
    whole["pools"] = []
    return len(dumps(whole).encode())


async def _play(seconds: float, scale: float, seed: int) -> PaceFigures:
    event = simulated_championship(scale=scale, seed=seed)
    for division in event.divisions:
        event.draw(division)
    event.make_plan()
    runner = Runner()
    live = LiveTournament("pace", event, {}, 0, "", _Store(), runner, "{}")  # type: ignore[arg-type]
    full_view = len((await live.snapshot_text(full=True)).encode())
    whole = await live.snapshot_text(full=False)
    cut = await live.feed.snapshot_text(full=False, trimmed=True)
    snapshot = len(whole.encode())
    snapshots = {"whole": snapshot, "whole_z": len(deflated(whole))}
    snapshots |= {"trimmed": len(cut.encode()), "trimmed_z": len(deflated(cut))}
    one = next(iter(event.entries))
    console = Subscriber(full=True)
    pages = {
        "boards": Subscriber(),
        "pools": Subscriber(division="GS", watching="none", trimmed=True),
        "find": Subscriber(watching="find", entries={one}, trimmed=True),
    }
    for sub in (console, *pages.values()):
        live.subscribers.add(sub)
    old_updates = 0
    old_live: set[str] = set()
    old_live_bytes = 0
    rng = random.Random(seed)
    due = {b: rng.uniform(0.0, CHANGEOVER_S) for b in range(1, event.settings.boards + 1)}
    playing: dict[int, dict[str, Any]] = {}
    wall_ms = 1.8e12
    cpu = 0.0
    results = 0
    steps = round(seconds / STEP_S)
    for step in range(steps):
        now = step * STEP_S
        for board, at in due.items():
            if now < at:
                continue
            sent = len(console.updates)
            t0 = time.process_time()
            game = playing.get(board)
            if game is None:
                try:
                    call = await live.call_next(board, "bench")
                except (RoomError, TournamentError):
                    due[board] = seconds + 1
                    continue
                playing[board] = {"match": call.match_id, "scores": [0, 0], "begun": None}
                fields = {"pad_board": f"pad{board}", "pad_match": 1}
                await live.link(call.match_id, "bench", fields, "pad", {})
                due[board] = now + rng.uniform(*BEGIN_AFTER_S)
            elif game["begun"] is None:
                game["begun"] = now
                clock = {"elapsed": 0.0, "running": True, "at_ms": wall_ms + now * 1000}
                await live.begin(game["match"], "pad", datetime.now(UTC), clock)
                due[board] = now + rng.uniform(*SHOT_EVERY_S)
            elif now - game["begun"] < _match_time(live, game["match"]):
                if rng.random() < 0.3:
                    game["scores"][rng.randrange(2)] += rng.randint(1, 5)
                reading = {
                    "elapsed": now - game["begun"] + rng.uniform(-0.3, 0.3),
                    "running": True,
                    "at_ms": wall_ms + now * 1000 + rng.uniform(0.0, 50.0),
                }
                live.live_score(game["match"], (game["scores"][0], game["scores"][1]), reading)
                old_live.add(game["match"])
                due[board] = now + rng.uniform(*SHOT_EVERY_S)
            else:
                a, b = game["scores"]
                b += a == b  # a level score would need a lot: the pad's tie-break
                result = Result(scores=(a, b), pucks=(0, 0), winner=0 if a > b else 1)
                await live.record_result(game["match"], result, "pad", "pad")
                results += 1
                del playing[board]
                due[board] = now + CHANGEOVER_S
            cpu += time.process_time() - t0
            old_updates += sum(_old_page(t) for t in console.updates[sent:])
        if step % round(1 / STEP_S) == 0:
            t0 = time.process_time()
            live.feed.flush_live()
            cpu += time.process_time() - t0
            if old_live:
                # every reading changed the clock: its score and clock went to every page
                per_match = 22 + 62  # "GS-A-01":[12,3], and its clock, as JSON
                old_live_bytes += 36 + per_match * len(old_live)
                old_live = set()
    runner.close()
    return PaceFigures(
        entrants=len(event.entries),
        boards=event.settings.boards,
        seconds=seconds,
        results=results,
        full_view=full_view,
        snapshot=snapshot,
        snapshots=snapshots,
        console=console,
        pages=pages,
        before_page=(old_updates + old_live_bytes) / seconds,
        cpu_s=cpu,
    )


def _match_time(live: LiveTournament, match_id: str) -> float:
    """The match's time, s (an untimed final as long as a timed match)."""
    event = live.event
    return event.division(event.match(match_id).division).match_time_s or 300.0


def run_pace(seconds: float = 1800.0, scale: float = 1.0, seed: int = 0) -> PaceFigures:
    """Play ``seconds`` of the simulated championship (``scale`` of its entrants) at real pace."""
    return asyncio.run(_play(seconds, scale, seed))
