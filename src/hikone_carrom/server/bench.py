"""``hikone-carrom bench server``: figures for the browser game and its server, on loopback.

1. Event latency: time from the end of a shot's simulation on the server to the moment every one
   of the 4 clients of a doubles room has the event (s; WebSocket on 127.0.0.1, SQLite store).
2. Animation frame rate: frames per second drawn while a shot animates in headless Chromium
   (Debian's ``/usr/bin/chromium`` through Playwright), skipped with ``--no-browser``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["event_latencies", "hint_latencies", "main", "serve_in_thread"]

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve_in_thread(db_url: str) -> Iterator[str]:
    """Run the game server under uvicorn in a background thread; yields its base URL."""
    import uvicorn

    from hikone_carrom.server.app import create_app
    from hikone_carrom.server.config import ServerSettings

    port = _free_port()
    app = create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0))
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    import httpx

    r = httpx.post(url, json=body, timeout=10)
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


def _aim(state: dict[str, Any], k: int) -> dict[str, Any]:
    """A legal shot for the shooter, towards the centre with a small varying angle."""
    placement = state["placement"]
    if placement["kind"] == "point":
        x, y = placement["point"]
    else:
        (x0, y0), (x1, y1) = placement["line"]
        lo, hi = max(placement["free"], key=lambda iv: iv[1] - iv[0])
        s = (lo + hi) / 2
        x, y = x0 + (x1 - x0) * s, y0 + (y1 - y0) * s
    angle = math.atan2(-y, -x) + 0.15 * math.sin(k)
    return {
        "type": "shot",
        "seat": state["shooter"],
        "x": x,
        "y": y,
        "angle": angle,
        "speed": 2.0 + (k % 5) * 0.5,
    }


async def _latencies(base: str, shots: int) -> list[float]:
    import websockets

    made = _post(f"{base}/api/rooms", {"mode": "online", "players": 4, "name": "bench"})
    room = made["room_id"]
    tokens = {0: made["token"]}
    for seat in (1, 2, 3):
        tokens[seat] = _post(f"{base}/api/rooms/{room}/seats/{seat}", {"name": f"p{seat}"})["token"]
    ws_url = base.replace("http://", "ws://") + f"/ws/rooms/{room}"
    clients = [await websockets.connect(ws_url, max_size=None) for _ in range(4)]
    snap: dict[str, Any] = {}
    state: dict[str, Any] = {}
    for seat, ws in enumerate(clients):
        await ws.send(json.dumps({"type": "hello", "token": tokens[seat], "last_seq": 0}))
        snap = json.loads(await ws.recv())
        state = snap["state"]
    out: list[float] = []

    async def receive(ws: Any, seq: int) -> tuple[float, dict[str, Any]]:
        while True:
            msg = json.loads(await ws.recv())
            if msg.get("type") == "event" and msg["seq"] >= seq:
                return time.time(), msg["event"]

    seq = int(snap["seq"])
    for k in range(shots):
        if state["over"]:
            break
        shooter = state["shooter"]
        waiters = [asyncio.create_task(receive(ws, seq + 1)) for ws in clients]
        await clients[shooter].send(json.dumps(_aim(state, k)))
        got = await asyncio.gather(*waiters)
        seq += 1
        event = got[0][1]
        out.append(max(t for t, _ in got) - float(event["sim_end_at"]))
        state = event["state"]
    for ws in clients:
        await ws.close()
    return out


async def _hint_latencies(base: str, positions: int) -> tuple[list[float], list[float]]:
    import websockets

    made = _post(f"{base}/api/rooms", {"mode": "hotseat", "players": 2})
    ws_url = base.replace("http://", "ws://") + f"/ws/rooms/{made['room_id']}"
    first: list[float] = []
    again: list[float] = []
    async with websockets.connect(ws_url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": made["token"], "last_seq": 0}))
        state = json.loads(await ws.recv())["state"]

        async def ask() -> tuple[float, dict[str, Any]]:
            start = time.perf_counter()
            await ws.send(json.dumps({"type": "hint"}))
            answer: dict[str, Any] = json.loads(await ws.recv())
            if answer.get("type") != "hint":
                raise RuntimeError(f"no hint: {answer}")
            return time.perf_counter() - start, answer

        for _ in range(positions):
            if state["over"]:
                break
            took, answer = await ask()
            first.append(took)
            again.append((await ask())[0])
            await ws.send(json.dumps({"type": "shot", "seat": answer["seat"], **answer["shot"]}))
            state = json.loads(await ws.recv())["event"]["state"]
    return first, again


def hint_latencies(base: str, positions: int) -> tuple[list[float], list[float]]:
    """Seconds from asking for the expert's hint to holding it, per position of a hot-seat game
    that plays every hint: (first asks, which compute it; repeat asks, answered from the cache)."""
    return asyncio.run(_hint_latencies(base, positions))


def event_latencies(base: str, shots: int) -> list[float]:
    """Seconds from simulation end to the last of 4 clients holding the event, per shot."""
    return asyncio.run(_latencies(base, shots))


def animation_fps(base: str, chromium: str) -> tuple[float, float, int]:
    """(frames per second while animating, seconds animated, shots) in headless Chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        made = _post(f"{base}/api/rooms", {"mode": "hotseat", "players": 2})
        page.goto(f"{base}/")
        page.evaluate(
            "([r, t]) => localStorage.setItem('hikone-carrom.token.' + r, t)",
            [made["room_id"], made["token"]],
        )
        page.goto(f"{base}/room/{made['room_id']}")
        shots = 0
        for k in range(3):
            page.wait_for_function("() => window.__game && window.__game.myTurn()")
            page.evaluate(
                "(k) => { const g = window.__game; g.aim.power = 0.9;"
                " g.aim.angle = g.aim.ahead + 0.2 * Math.sin(k + 1); g.shoot(); }",
                k,
            )
            page.wait_for_function(
                "(n) => window.__game.log.filter(e => e.ev.kind === 'shot').length > n"
                " && !window.__game.anim",
                arg=k,
                timeout=60_000,
            )
            shots += 1
        frames, seconds = page.evaluate(
            "() => [window.__game.stats.animFrames, window.__game.stats.animTime]"
        )
        browser.close()
    return float(frames) / max(float(seconds), 1e-9), float(seconds), shots


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> int:
    """Print the server and browser figures; returns the exit status."""
    parser = argparse.ArgumentParser(prog="hikone-carrom bench server", description=__doc__)
    parser.add_argument("--shots", type=int, default=30, help="shots for the latency figure")
    parser.add_argument("--hints", type=int, default=12, help="positions for the hint figure")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium frame rate")
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="Chromium executable")
    args = parser.parse_args(argv)
    if args.shots < 1:
        parser.error("--shots must be at least 1")
    if args.hints < 0:
        parser.error("--hints must be at least 0")
    if not args.no_browser and not os.access(args.chromium, os.X_OK):
        parser.error(f"--chromium {args.chromium} is not an executable (or use --no-browser)")
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        with serve_in_thread(db) as base:
            lat = event_latencies(base, args.shots)
            ms = [1000.0 * v for v in lat]
            print(f"event latency, simulation end -> all 4 clients (loopback, {len(ms)} shots):")
            print(
                f"  median {statistics.median(ms):.1f} ms   p95 {_quantile(ms, 0.95):.1f} ms"
                f"   max {max(ms):.1f} ms"
            )
            if args.hints:
                first, again = hint_latencies(base, args.hints)
                print(f"expert's hint, ask -> answer (hot-seat, {len(first)} positions):")
                for label, values in (("first ask", first), ("repeat ask", again)):
                    ms = [1000.0 * v for v in values]
                    print(
                        f"  {label}: median {statistics.median(ms):.1f} ms   max {max(ms):.1f} ms"
                    )
            if not args.no_browser:
                fps, seconds, shots = animation_fps(base, args.chromium)
                print(f"animation in headless Chromium ({shots} shots, {seconds:.1f} s animated):")
                print(f"  {fps:.1f} frames per second")
    return 0
