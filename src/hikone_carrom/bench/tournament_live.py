"""``hikone-carrom bench tournament-live``: live updates of a full-size championship to many
spectators, and a restart in the middle.

A real server (``hikone-carrom serve`` in a subprocess, SQLite store, loopback) gets the
simulated championship of ``hikone_carrom.bench.tournament`` (800 entrants, 124 boards) through
its REST API (CSV import, six draws, the plan). ``--spectators`` WebSocket connections (default
1,000) take a spectator's snapshot and each asks for one division's pools, as a phone on the
pools tab does; results then arrive as a scoring pad sends them, ``--rate`` per second. For each
result the time from just before its request leaves to the moment each spectator has the
numbered update is measured (s). The bytes of JSON a spectator gets (snapshot, division view,
updates) are set against the whole event (what the director's console takes). Then the server
is stopped and started again on the same store, and the event is compared with what it was.
Last, the same championship at real pace in one process (:mod:`.live_pace`, ``--pace-minutes``
of simulated play): the director's console's bytes per numbered update beside the whole event it
took before, and a spectator's page's bytes per second beside what the protocol before sent.
Figures only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import gzip
import io
import json
import math
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hikone_carrom.bench.live_pace import run_pace
from hikone_carrom.bench.tournament import simulated_championship
from hikone_carrom.server.core.app import GZIP_LEVEL, WEB_DIR
from hikone_carrom.tournament import school_year_label

__all__ = ["FIRST_LOAD", "championship_csv", "main", "running_server", "set_up_event"]

FIRST_LOAD = (
    "tournament.html",
    "style.css",
    "tournament.css",
    "js/tournament.js",
    "js/tourney-common.js",
    "js/tourney-deltas.js",
    "js/hall.js",
    "js/hall-calls.js",
    "js/hall-pages.js",
    "favicon.svg",
)
"""The files a phone loads for a tournament page before its snapshot (under ``web/``)."""

DIVISIONS = ("JA", "JB", "GS", "JP", "FP", "GP")
"""The six classes of the simulated championship."""


def championship_csv(scale: float = 1.0) -> bytes:
    """The simulated championship's entries (every class shrunk by ``scale``) as a Shift_JIS
    CSV file, as a spreadsheet saves it."""
    event = simulated_championship(scale=scale)
    out = io.StringIO()
    writer = csv.writer(out)
    cols = ["氏名", "よみがな", "所属", "都道府県", "年齢", "学年"]
    writer.writerow(["部門", *cols, *(c + "2" for c in cols)])
    for entry in event.entries.values():
        row = [entry.division]
        for p in entry.members:
            grade = school_year_label(p.school_year)
            row += [p.name, p.reading, p.club, p.prefecture, str(p.age or ""), grade]
        writer.writerow(row)
    return out.getvalue().encode("cp932")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_server(db_url: str, key: str = "") -> Iterator[str]:
    """``hikone-carrom serve`` on a free loopback port in a subprocess (with the organiser's
    ``key`` if given); yields its base URL."""
    port = _free_port()
    options = ["--port", str(port), "--no-browser", "--db", db_url]
    options += ["--sockets-per-second", "1000000"]  # every spectator comes from 127.0.0.1
    options += ["--organiser-key", key] if key else []
    code = f"from hikone_carrom.server import main; raise SystemExit(main({options!r}))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/health", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    raise RuntimeError(f"the server did not start:\n{err}") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def _deflated(text: str) -> int:
    """Bytes of ``text`` deflated as the server's WebSocket compression sends a first message
    (permessage-deflate, 12-bit window)."""
    packer = zlib.compressobj(wbits=-12, memLevel=5)
    return len(packer.compress(text.encode()) + packer.flush(zlib.Z_SYNC_FLUSH))


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


async def set_up_event(
    base: str, key: str, boards: int = 124, entries: bytes | None = None
) -> tuple[str, str]:
    """Make the event over REST with the organiser's ``key``: import ``entries`` (a CSV file;
    the full-size championship's by default), draw the six classes, plan the day on
    ``boards``; returns the event's id and the director's token."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=120) as c:
        r = await c.post("/api/tournaments", json={"name": "模擬選手権", "boards": boards},
                         headers={"Authorization": f"Bearer {key}"})  # fmt: skip
        r.raise_for_status()
        tid, token = r.json()["id"], r.json()["token"]
        h = {"Authorization": f"Bearer {token}", "X-Operator": "bench"}
        csv_file = championship_csv() if entries is None else entries
        r = await c.post(f"/api/tournaments/{tid}/entries/import", content=csv_file,
                         headers=h)  # fmt: skip
        r.raise_for_status()
        if r.json()["imported"] == 0:
            raise RuntimeError(f"import refused: {r.json()['problems'][:3]}")
        for division in DIVISIONS:
            r = await c.post(f"/api/tournaments/{tid}/divisions/{division}/draw", json={},
                             headers=h)  # fmt: skip
            r.raise_for_status()
        (await c.post(f"/api/tournaments/{tid}/plan", headers=h)).raise_for_status()
    return tid, token


async def _watch(
    base: str, tid: str, token: str, spectators: int, results: int, rate: float, batch: int
) -> dict[str, Any]:
    import httpx
    import websockets

    ws_url = base.replace("http://", "ws://") + f"/ws/tournaments/{tid}"
    arrived: list[dict[int, float]] = [{} for _ in range(spectators)]
    first_seq: list[int] = [0] * spectators
    sizes: dict[str, list[int]] = {"snapshot": [], "snapshot_wire": [], "view": [], "update": []}
    ready = asyncio.Event()
    n_ready = 0

    async def spectator(i: int) -> None:
        nonlocal n_ready
        async with websockets.connect(ws_url, max_size=None, open_timeout=120) as ws:
            async for text in ws:
                now = time.perf_counter()
                assert isinstance(text, str)
                if text.startswith('{"type":"snapshot"'):
                    head = re.search(r'"seq":(\d+)', text[:80])
                    assert head is not None
                    first_seq[i] = int(head.group(1))
                    sizes["snapshot"].append(len(text.encode()))
                    if i == 0:
                        sizes["snapshot_wire"].append(_deflated(text))
                    division = DIVISIONS[i % len(DIVISIONS)]
                    await ws.send(json.dumps({"type": "division", "key": f"{division}:pools"}))
                    continue
                if text.startswith('{"type":"division"'):
                    sizes["view"].append(len(text.encode()))
                    n_ready += 1
                    if n_ready == spectators:
                        ready.set()
                    continue
                # updates start with their number: '{"seq":12,...' (no need to parse the rest)
                if text.startswith('{"seq":'):
                    arrived[i][int(text[7 : text.index(",", 7)])] = now
                    sizes["update"].append(len(text.encode()))
                if len(arrived[i]) >= results:
                    return

    t0 = time.perf_counter()
    tasks = []
    for start in range(0, spectators, batch):
        tasks += [
            asyncio.create_task(spectator(i)) for i in range(start, min(spectators, start + batch))
        ]
        while n_ready < min(spectators, start + batch):
            await asyncio.sleep(0.05)
            for t in tasks:
                if t.done() and t.exception():
                    raise RuntimeError(f"a spectator failed: {t.exception()!r}")
    await ready.wait()
    connect_s = time.perf_counter() - t0
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        whole = await c.get(f"/api/tournaments/{tid}")
        event = whole.json()["event"]
        todo = sorted(
            (m for m in event["matches"] if m["stage"] == "pool" and m["planned"]),
            key=lambda m: m["planned"]["start_s"],
        )[:results]
        sent: dict[int, float] = {}
        h = {"Authorization": f"Bearer {token}", "X-Operator": "pad"}
        base_seq = max(first_seq)
        t_start = time.perf_counter()
        for k, m in enumerate(todo):
            await asyncio.sleep(max(0.0, t_start + k / rate - time.perf_counter()))
            sent[base_seq + k + 1] = time.perf_counter()
            r = await c.put(f"/api/tournaments/{tid}/matches/{m['id']}/result",
                            json={"scores": [k % 13, (k * 7) % 12]}, headers=h)  # fmt: skip
            r.raise_for_status()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=120)
    latencies = [arr[seq] - sent[seq] for arr in arrived for seq in sent if seq in arr]
    missing = sum(1 for arr in arrived for seq in sent if seq not in arr)
    return {
        "spectators": spectators,
        "results": len(sent),
        "whole_bytes": len(whole.content),
        "whole_wire": _deflated(whole.text),
        "sizes": sizes,
        "connect_s": connect_s,
        "latencies": latencies,
        "missing": missing,
    }


def _restart(db_url: str, tid: str, before: bytes) -> bool:
    with (
        running_server(db_url) as base,
        urllib.request.urlopen(f"{base}/api/tournaments/{tid}", timeout=60) as r,
    ):
        return bool(json.loads(r.read())["event"] == json.loads(before)["event"])


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hikone-carrom bench tournament-live``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom bench tournament-live",
        description="Live updates of an 800-entrant championship to many spectators; a restart.",
    )
    parser.add_argument("--spectators", type=int, default=1000, help="WebSocket spectators (1000)")
    parser.add_argument("--results", type=int, default=40, help="results sent (40)")
    parser.add_argument("--rate", type=float, default=10.0, help="results per second (10)")
    parser.add_argument("--batch", type=int, default=100, help="spectators connecting at once")
    parser.add_argument(
        "--pace-minutes", type=float, default=30.0, help="minutes played at real pace (30; 0: none)"
    )
    parser.add_argument(
        "--pace-scale", type=float, default=1.0, help="share of the entrants at real pace (1.0)"
    )
    parser.add_argument("--pace-only", action="store_true", help="only the real pace figures")
    args = parser.parse_args(argv)
    if args.spectators < 1 or args.results < 1 or args.rate <= 0 or args.batch < 1:
        parser.error("--spectators, --results, --batch and --rate must be positive")
    if args.pace_minutes < 0 or not 0 < args.pace_scale <= 1:
        parser.error("--pace-minutes must be >= 0 and --pace-scale in (0, 1]")
    if args.pace_only:
        _print_pace(args.pace_minutes, args.pace_scale)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        key = secrets.token_urlsafe(32)
        with running_server(db_url, key) as base:
            t0 = time.perf_counter()
            tid, token = asyncio.run(set_up_event(base, key))
            setup_s = time.perf_counter() - t0
            fig = asyncio.run(
                _watch(base, tid, token, args.spectators, args.results, args.rate, args.batch)
            )
            with urllib.request.urlopen(f"{base}/api/tournaments/{tid}", timeout=60) as r:
                before = r.read()
        t1 = time.perf_counter()
        same = _restart(db_url, tid, before)
        restart_s = time.perf_counter() - t1
    lat = fig["latencies"]
    print(f"set-up over REST (CSV import of 680 entries, 6 draws, plan): {setup_s:.1f} s")
    sizes = fig["sizes"]
    view = sorted(sizes["view"])
    print(
        f"{fig['spectators']} spectators connected and took a division's pools in "
        f"{fig['connect_s']:.1f} s ({args.batch} at a time)"
    )
    print(
        f"JSON a spectator gets: snapshot {max(sizes['snapshot']) / 1e3:.0f} kB, one division's "
        f"pools {view[0] / 1e3:.0f}-{view[-1] / 1e3:.0f} kB, an update "
        f"{statistics.mean(sizes['update']) / 1e3:.1f} kB on average, "
        f"{max(sizes['update']) / 1e3:.1f} kB at most "
        f"(the whole event, the director's console: {fig['whole_bytes'] / 1e6:.2f} MB)"
    )
    print(
        f"compressed on the wire (permessage-deflate): snapshot "
        f"{sizes['snapshot_wire'][0] / 1e3:.0f} kB, the whole event "
        f"{fig['whole_wire'] / 1e3:.0f} kB"
    )
    print(
        f"{fig['results']} results at {args.rate:g}/s: {len(lat)} deliveries, {fig['missing']} "
        f"missing; latency median {statistics.median(lat) * 1000:.0f} ms, "
        f"p95 {_quantile(lat, 0.95) * 1000:.0f} ms, max {max(lat) * 1000:.0f} ms (target p95 < 1 s)"
    )
    print(f"restart on the same store: event {'identical' if same else 'DIFFERENT'} "
          f"({restart_s:.1f} s to start and serve it)")  # fmt: skip
    if args.pace_minutes:
        _print_pace(args.pace_minutes, args.pace_scale)
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0 if same and not fig["missing"] else 1


def _print_pace(minutes: float, scale: float) -> None:
    """The real pace figures (:mod:`.live_pace`)."""
    pace = run_pace(minutes * 60, scale)
    mean, most = pace.console_update()
    print(
        f"real pace ({pace.boards} boards, {pace.entrants} entries, {minutes:g} min simulated, "
        f"{pace.results} results; {pace.cpu_s / pace.seconds * 100:.1f} % of a core for the "
        f"changes and the feed):"
    )
    print(
        f"  the director's console: {mean / 1e3:.1f} kB per numbered update on average, "
        f"{most / 1e3:.1f} kB at most (before: the whole event again, "
        f"{pace.full_view / 1e6:.2f} MB, after every check-in and change of structure)"
    )
    names = {"boards": "on the boards", "pools": "on one division's pools",
             "find": "on one entry's matches"}  # fmt: skip
    for name, what in names.items():
        page = pace.pages[name]
        print(
            f"  a spectator's page {what}: {pace.frames_per_second(name) / 1e3:.2f} kB/s as "
            f"sent (?z=1 deflated frames; JSON text {pace.per_second(name) / 1e3:.2f} kB/s, "
            f"{page.deflated / pace.seconds / 1e3:.2f} kB/s if permessage-deflate were on)"
        )
    print(
        f"  before (the same run, the protocol before: matches whole, every clock reading): "
        f"{pace.before_page / 1e3:.2f} kB/s for a page on the boards; target <= 0.5 kB/s"
    )
    files = [WEB_DIR / f for f in FIRST_LOAD]
    plain = sum(len(f.read_bytes()) for f in files)
    packed = sum(len(gzip.compress(f.read_bytes(), GZIP_LEVEL)) for f in files)
    print(
        f"  a phone's first load: HTML, scripts and styles {plain / 1e3:.0f} kB "
        f"({packed / 1e3:.0f} kB gzip-compressed as served), then the snapshot "
        f"{pace.snapshots['whole_z'] / 1e3:.1f} kB on the boards, "
        f"{pace.snapshots['trimmed_z'] / 1e3:.1f} kB on the pools or its own matches (?z=1; "
        f"JSON text {pace.snapshot / 1e3:.0f} kB and {pace.snapshots['trimmed'] / 1e3:.1f} kB)"
    )


if __name__ == "__main__":
    raise SystemExit(main())
