"""``hikone-carrom bench flood``: does one client flooding a socket delay anybody else?

A real server (``hikone-carrom serve`` in its own process, SQLite store, loopback) gets a pad
board with ``--board-entries`` entries (200), an event of the simulated championship (800
entrants) and a game room. Then, for ``--seconds`` (10) each: nothing (the quiet figures), and
one client (from its own loopback address) flooding each socket kind as fast as it can
(reconnecting whenever it is cut off or refused, HTTP 429 counted as close 429):
rooms (``resync``), boards (``resync``), tournaments (``resync``, a division's pools, a search)
and the director's full view (a hello with the token, then ``resync``). Meanwhile this process
measures ``/api/health`` latency and a room's shot latency (a second client plays shots in
another room, from sending the shot to holding its event), p50/p95/max in ms, and prints them
against the quiet figures and the target: p95 within 2x of quiet and under 200 ms. The flooder
runs in a process of its own so that its sending never slows the measuring loop. Figures only:
nothing here asserts a speed.

Creating boards and events needs the organiser's key: the bench starts its server with one of
its own (or ``--organiser-key``, default ``$HIKONE_CARROM_ORGANISER_KEY``), sent as
``Authorization: Bearer`` by :func:`organiser_headers`, the one place that builds it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import csv
import itertools
import json
import math
import multiprocessing
import os
import secrets
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hikone_carrom.bench.server_load import aim
from hikone_carrom.bench.throwaway import GameServer
from hikone_carrom.bench.tournament_live import championship_csv

__all__ = ["FloodFigures", "Target", "main", "organiser_headers", "run_flood", "setup_target"]

KINDS = ("rooms", "boards", "tournaments", "director")
"""The socket kinds flooded, in order."""

ORGANISER_ENV = "HIKONE_CARROM_ORGANISER_KEY"

TARGET_RATIO, TARGET_P95_MS = 2.0, 200.0
"""The target under a flood: p95 within this many times the quiet p95, and under this (ms)."""

FLOODER_ADDRESS = "127.0.0.2"
"""The flooder's own loopback address: the server limits new sockets per client address, and
the probes (``127.0.0.1``) are other clients."""

PROBE_PAUSE_S = 0.2
"""Pause between two probes of one kind (health requests, shots), s: the shots stay well
within a room socket's message rate."""


def organiser_headers(key: str | None) -> dict[str, str]:
    """The headers that create events and boards (none when no organiser key is given)."""
    return {"Authorization": f"Bearer {key}"} if key else {}


@dataclass(frozen=True)
class Target:
    """What the flooders and probes use on the server."""

    base: str
    room: str
    board: str
    event: str
    director_token: str
    division: str
    entries: int
    entrants: int


@dataclass
class Flooded:
    """What one flooder did: messages sent, connections opened, close codes seen."""

    sent: int = 0
    connections: int = 0
    closes: dict[int, int] = field(default_factory=dict)


@dataclass
class Phase:
    """One phase's latencies (s) and failures."""

    name: str
    health: list[float] = field(default_factory=list)
    shots: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    flood: Flooded | None = None


@dataclass
class FloodFigures:
    """The quiet phase first, then one phase per flooded socket kind."""

    target: Target
    phases: list[Phase]


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank); NaN when there are none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def _csv_rows(rows: int | None) -> tuple[bytes, list[str], int, int]:
    """The championship's CSV cut to its first ``rows`` entries: (CSV, divisions, entries,
    entrants)."""
    lines = championship_csv().decode("cp932").splitlines()
    body = lines[1:] if rows is None else lines[1 : 1 + rows]
    parsed = list(csv.reader(body))
    divisions = sorted({row[0] for row in parsed})
    people = {tuple(row[k : k + 3]) for row in parsed for k in (1, 7) if len(row) > k and row[k]}
    entrants = len(people)  # a player in a singles and a doubles entry counts once
    text = "\r\n".join([lines[0], *body]) + "\r\n"
    return text.encode("cp932"), divisions, len(body), entrants


async def setup_target(base: str, key: str | None, board_entries: int, rows: int | None) -> Target:
    """Make the pad board, the event (the first ``rows`` entries of the championship, all when
    None) and the room the flooders use."""
    import httpx

    made = organiser_headers(key)
    async with httpx.AsyncClient(base_url=base, timeout=300) as c:
        r = await c.post("/api/boards", json={"name": "第1台"}, headers=made)
        r.raise_for_status()
        board = r.json()
        pad = {"Authorization": f"Bearer {board['token']}"}
        device = "bench-flood-pad"
        ops: list[dict[str, Any]] = [
            {"seq": 1, "op": "setup", "match": 1, "setup": {"names": ["田中", "佐藤"]}}
        ]
        ops += [
            {"seq": 2 + k, "op": "add", "match": 1, "entry": {"kind": "shot", "tap": {}}}
            for k in range(board_entries)
        ]
        r = await c.post(f"/api/boards/{board['id']}/ops", json={"device": device, "ops": ops},
                         headers=pad)  # fmt: skip
        r.raise_for_status()
        r = await c.post("/api/tournaments", json={"name": "模擬選手権", "boards": 124},
                         headers=made)  # fmt: skip
        r.raise_for_status()
        tid, token = r.json()["id"], r.json()["token"]
        h = {"Authorization": f"Bearer {token}", "X-Operator": "bench"}
        table, divisions, entries, entrants = _csv_rows(rows)
        r = await c.post(f"/api/tournaments/{tid}/entries/import", content=table, headers=h)
        r.raise_for_status()
        for division in divisions:
            r = await c.post(f"/api/tournaments/{tid}/divisions/{division}/draw", json={},
                             headers=h)  # fmt: skip
            r.raise_for_status()
        (await c.post(f"/api/tournaments/{tid}/plan", headers=h)).raise_for_status()
        r = await c.post("/api/rooms", json={"mode": "hotseat", "players": 2})
        r.raise_for_status()
        room = str(r.json()["room_id"])
    return Target(base, room, board["id"], tid, token, divisions[0], entries, entrants)


def flood_plan(target: Target, kind: str) -> tuple[str, list[str], list[str]]:
    """Where a flooder of ``kind`` connects, what it sends first, and what it sends again and
    again (in turn)."""
    ws = target.base.replace("http://", "ws://")
    resync = json.dumps({"type": "resync"})
    if kind == "rooms":
        return f"{ws}/ws/rooms/{target.room}", [], [json.dumps({"type": "resync", "last_seq": 0})]
    if kind == "boards":
        return f"{ws}/ws/boards/{target.board}", [], [resync]
    if kind == "tournaments":
        asks = [
            resync,
            json.dumps({"type": "division", "key": f"{target.division}:pools"}),
            json.dumps({"type": "search", "key": "山"}),
        ]
        return f"{ws}/ws/tournaments/{target.event}", [], asks
    if kind == "director":
        hello = json.dumps({"type": "hello", "token": target.director_token})
        return f"{ws}/ws/tournaments/{target.event}?full=1", [hello], [resync]
    raise ValueError(f"no such socket kind: {kind}")


async def _flood(url: str, first: list[str], messages: list[str], seconds: float) -> Flooded:
    import websockets

    done = Flooded()
    deadline = time.monotonic() + seconds
    cycle = itertools.cycle(messages)

    async def drain(ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for _ in ws:
                pass

    while time.monotonic() < deadline:
        done.connections += 1
        ws: Any = None
        refused: int | None = None
        try:
            ws = await websockets.connect(
                url, max_size=None, open_timeout=10, local_addr=(FLOODER_ADDRESS, 0)
            )
            reader = asyncio.create_task(drain(ws))
            for text in first:
                await ws.send(text)
            while time.monotonic() < deadline and not reader.done():
                await ws.send(next(cycle))
                done.sent += 1
                if done.sent % 20 == 0:
                    await asyncio.sleep(0)  # let the reader take what came
            reader.cancel()
        except websockets.InvalidStatus as err:
            refused = err.response.status_code
        except (OSError, TimeoutError, websockets.WebSocketException):
            pass
        finally:
            if ws is not None:
                await ws.close()
        code = ws.close_code if ws is not None and ws.close_code is not None else 1006
        code = refused or code
        if time.monotonic() < deadline:
            done.closes[code] = done.closes.get(code, 0) + 1
    return done


def flood_for(url: str, first: list[str], messages: list[str], seconds: float) -> Flooded:
    """Flood ``url`` for ``seconds`` (run in the flooder's own process)."""
    return asyncio.run(_flood(url, first, messages, seconds))


async def _health(base: str, until: float, phase: Phase) -> None:
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        while time.monotonic() < until:
            t0 = time.perf_counter()
            try:
                r = await c.get("/api/health")
                if r.status_code == 200:
                    phase.health.append(time.perf_counter() - t0)
                else:
                    phase.errors.append(f"health: {r.status_code}")
            except httpx.HTTPError as err:
                phase.errors.append(f"health: {err!r}")
            await asyncio.sleep(PROBE_PAUSE_S)


async def _new_room(base: str) -> tuple[str, str]:
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        r = await c.post("/api/rooms", json={"mode": "hotseat", "players": 2})
        r.raise_for_status()
        return str(r.json()["room_id"]), str(r.json()["token"])


async def _shots(base: str, until: float, phase: Phase) -> None:
    """Play shots in a hot-seat room of this probe's own (a new one when a game is over)."""
    import websockets

    ws_base = base.replace("http://", "ws://")
    k = 0
    while time.monotonic() < until:
        room, token = await _new_room(base)
        async with websockets.connect(f"{ws_base}/ws/rooms/{room}", max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token, "last_seq": 0}))
            snap = json.loads(await ws.recv())
            seq, state = int(snap["seq"]), snap["state"]
            while time.monotonic() < until and not state["over"]:
                t0 = time.perf_counter()
                await ws.send(json.dumps(aim(state, k)))
                k += 1
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
                    if msg.get("type") == "event" and msg["seq"] > seq:
                        break
                    if msg.get("type") == "error":
                        phase.errors.append(f"shot: {msg.get('code')}")
                        state = {"over": True}
                        break
                if msg.get("type") != "event":
                    break
                phase.shots.append(time.perf_counter() - t0)
                seq, state = int(msg["seq"]), msg["event"]["state"]
                await asyncio.sleep(PROBE_PAUSE_S)


async def _phase(
    target: Target, kind: str | None, seconds: float, pool: ProcessPoolExecutor
) -> Phase:
    phase = Phase(kind or "quiet")
    flooder = None
    if kind is not None:
        url, first, messages = flood_plan(target, kind)
        flooder = asyncio.get_running_loop().run_in_executor(
            pool, flood_for, url, first, messages, seconds
        )
        await asyncio.sleep(0.5)  # the flooder's process has connected
    until = time.monotonic() + seconds - (0.5 if flooder else 0.0)
    await asyncio.gather(_health(target.base, until, phase), _shots(target.base, until, phase))
    if flooder is not None:
        phase.flood = await flooder
    return phase


async def _phases(target: Target, seconds: float, kinds: Sequence[str]) -> list[Phase]:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        await asyncio.get_running_loop().run_in_executor(pool, time.sleep, 0)  # start it
        phases = [await _phase(target, None, seconds, pool)]
        for kind in kinds:
            phases.append(await _phase(target, kind, seconds, pool))
    return phases


def run_flood(
    base: str,
    *,
    seconds: float,
    board_entries: int = 200,
    event_rows: int | None = None,
    organiser_key: str | None = None,
    kinds: Sequence[str] = KINDS,
) -> FloodFigures:
    """Set up the board, the event and the room on the server at ``base``, then measure the
    quiet phase and one phase per flooded socket kind."""
    target = asyncio.run(setup_target(base, organiser_key, board_entries, event_rows))
    return FloodFigures(target, asyncio.run(_phases(target, seconds, kinds)))


def _ms(values: Sequence[float]) -> str:
    return "/".join(
        f"{quantile(values, q) * 1000:.0f}" if values else "-" for q in (0.5, 0.95, 1.0)
    )


def _meets(values: Sequence[float], quiet: Sequence[float]) -> bool:
    p95, calm = quantile(values, 0.95) * 1000, quantile(quiet, 0.95) * 1000
    return bool(values) and p95 <= max(TARGET_RATIO * calm, 1.0) and p95 < TARGET_P95_MS


def report(figures: FloodFigures) -> list[str]:
    """The figures as printed lines (latencies p50/p95/max, ms)."""
    t = figures.target
    quiet = figures.phases[0]
    lines = [
        f"pad board: {t.board}; event: {t.entries} entries ({t.entrants} entrants); "
        f"target under a flood: p95 <= {TARGET_RATIO:g}x quiet and < {TARGET_P95_MS:.0f} ms",
        f"{'flooded':<12} {'health ms p50/p95/max':>22} {'n':>5} {'shot ms p50/p95/max':>20} "
        f"{'n':>4}  {'flooder: sent, connections, closes':<36} target",
    ]
    for phase in figures.phases:
        flood = phase.flood
        what = (
            f"{flood.sent} sent, {flood.connections} conn, "
            + ",".join(f"{c}x{n}" for c, n in sorted(flood.closes.items()))
            if flood
            else "-"
        )
        ok = "-"
        if flood is not None:
            met = _meets(phase.health, quiet.health) and _meets(phase.shots, quiet.shots)
            ok = "met" if met else "MISSED"
        lines.append(
            f"{phase.name:<12} {_ms(phase.health):>22} {len(phase.health):>5} "
            f"{_ms(phase.shots):>20} {len(phase.shots):>4}  {what:<36} {ok}"
        )
        lines += [f"  error: {e}" for e in sorted(set(phase.errors))[:5]]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom bench flood``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom bench flood",
        description="/api/health and shot latency while one client floods each socket kind.",
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="per phase (10)")
    parser.add_argument("--board-entries", type=int, default=200, help="pad board entries (200)")
    parser.add_argument(
        "--event-entries", type=int, default=None, help="entries of the event (all: 800 entrants)"
    )
    parser.add_argument(
        "--organiser-key",
        default=os.environ.get(ORGANISER_ENV),
        help=f"sent when creating events and boards (default ${ORGANISER_ENV})",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.board_entries < 0:
        parser.error("--seconds must be positive and --board-entries not negative")
    with tempfile.TemporaryDirectory() as tmp:
        key = args.organiser_key or secrets.token_urlsafe(32)
        server = GameServer(
            f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
            f"--organiser-key={key}",  # a key may start with "-"
            log_dir=Path(tmp),
        )
        try:
            server.wait_ready()
            figures = run_flood(
                server.base,
                seconds=args.seconds,
                board_entries=args.board_entries,
                event_rows=args.event_entries,
                organiser_key=key,
            )
        finally:
            server.stop()
    print("\n".join(report(figures)))
    print(f"load average {os.getloadavg()[0]:.1f}")
    answered = all(p.health and p.shots for p in figures.phases)
    return 0 if answered else 1


if __name__ == "__main__":
    raise SystemExit(main())
