"""``hikone-carrom bench server``: figures for the browser game and its server, on loopback.

Without ``--rooms``:

1. Event latency: time from the end of a shot's simulation on the server to the moment every one
   of the 4 clients of a doubles room has the event (s; WebSocket on 127.0.0.1, SQLite store).
2. The expert's hint: ask -> answer, first and repeat asks of each position.
3. Animation frame rate: frames per second drawn while a shot animates in headless Chromium
   (Debian's ``/usr/bin/chromium`` through Playwright), skipped with ``--no-browser``.

With ``--rooms N`` (the load, :mod:`hikone_carrom.bench.server_load`): N online rooms of 2 and 4
clients on a server started as ``hikone-carrom serve`` in its own process, each shooter shooting
about 1 s after the previous result; the latency from sending a shot to the room's last client
holding it (p50, p95), shots per second; then the same with ``--hint-rooms`` more rooms whose
players ask for the expert's hint before every shot. ``--memory`` adds the server's memory per
idle room and per connection. With ``--computer-rooms M``, one run plays the N rooms, the hint
rooms and M rooms against the computer (level 6) together, and prints the computer's answer
time (p95 target 1 s) and the hints' (p95 target 2 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hikone_carrom.bench.server_load import START_SPREAD_S, LoadResult, aim
from hikone_carrom.bench.throwaway import GameServer
from hikone_carrom.server.core.config import WS_DEFLATE, ServerSettings

__all__ = ["event_latencies", "hint_latencies", "main", "serve_app_in_thread", "serve_in_thread"]

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

_UNLIMITED = ("--rooms-per-minute", "1000000", "--sockets-per-second", "1000000")
"""The load's many clients all come from this machine's address: no per-address limits."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve_in_thread(settings: ServerSettings) -> Iterator[str]:
    """Run the game server under uvicorn in a background thread; yields its base URL."""
    from hikone_carrom.server.core.app import create_app

    with serve_app_in_thread(create_app(settings)) as base:
        yield base


@contextmanager
def serve_app_in_thread(app: Any) -> Iterator[str]:
    """Run an ASGI app under uvicorn in a background thread; yields its base URL."""
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws="websockets-sansio",
            ws_per_message_deflate=WS_DEFLATE,
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
        await clients[shooter].send(json.dumps(aim(state, k)))
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

        async def until(kind: str) -> dict[str, Any]:
            """The next "hint" reply, or the next event of ``kind``, passing over the room's
            events that announce a hint used (32.1.6), which may come before the reply."""
            while True:
                message: dict[str, Any] = json.loads(await ws.recv())
                if message.get("type") == "error":
                    raise RuntimeError(f"no {kind}: {message}")
                if kind == "hint":
                    if message.get("type") == "hint":
                        return message
                elif message.get("type") == "event" and message["event"].get("kind") == kind:
                    return message

        async def ask() -> tuple[float, dict[str, Any]]:
            start = time.perf_counter()
            await ws.send(json.dumps({"type": "hint"}))
            answer = await until("hint")
            return time.perf_counter() - start, answer

        for _ in range(positions):
            if state["over"]:
                break
            took, answer = await ask()
            first.append(took)
            again.append((await ask())[0])
            await ws.send(json.dumps({"type": "shot", "seat": answer["seat"], **answer["shot"]}))
            state = (await until("shot"))["event"]["state"]
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


def rss_mib(pid: int) -> float:
    """Resident memory of a process, MiB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    raise RuntimeError(f"no VmRSS for process {pid}")


def _percentiles(label: str, seconds: list[float]) -> str:
    if not seconds:
        return f"{label}: none"
    ms = [1000.0 * v for v in seconds]
    return (
        f"{label}: p50 {_quantile(ms, 0.5):.1f} ms   p95 {_quantile(ms, 0.95):.1f} ms"
        f"   max {max(ms):.1f} ms   ({len(ms)} shots)"
    )


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used so far, all its threads, user + system, s (Linux ``/proc``)."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    """The fields of ``/proc/{pid}/stat`` after the command name (the state is field 0)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def tree_cpu_seconds(pid: int) -> float:
    """CPU time (s) a process and its children have used so far, those that ended included
    (PostgreSQL: the postmaster and one backend per connection)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = _stat(int(entry.name))
        except (OSError, IndexError):
            continue  # it ended meanwhile
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return total / os.sysconf("SC_CLK_TCK")


def _load_figures(
    label: str,
    servers: list[GameServer],
    args: argparse.Namespace,
    hint_rooms: int,
    services: dict[str, int],
    computer_rooms: int = 0,
) -> float:
    """Play the load once and print its figures; returns the p95 (s) of rooms without hints.
    ``services`` names the processes (with their children) of the store and Redis started
    for the run, whose CPU is shown too; ``computer_rooms`` rooms against level 6 play too."""
    from hikone_carrom.bench.server_load import make_rooms, run_load

    plans = make_rooms(
        [s.base for s in servers],
        args.rooms,
        hint_rooms=hint_rooms,
        computer_rooms=computer_rooms,
    )
    cpu = sum(cpu_seconds(s.process.pid) for s in servers)
    used = {name: tree_cpu_seconds(pid) for name, pid in services.items()}
    result = run_load(plans, args.seconds, processes=args.client_processes)
    cpu = sum(cpu_seconds(s.process.pid) for s in servers) - cpu
    used = {name: tree_cpu_seconds(pid) - used[name] for name, pid in services.items()}
    shots = len(result.latencies) + len(result.hint_room_latencies)
    print(f"{label}: {args.rooms} rooms (half of 2, half of 4 clients)", end="")
    print(f" + {hint_rooms} rooms asking for hints" if hint_rooms else "", end="")
    print(f" + {computer_rooms} rooms against level 6" if computer_rooms else "", end="")
    print(f", {args.seconds:g} s, {result.shots_per_s():.1f} shots/s")
    print("  " + _percentiles("send -> last client", result.latencies))
    if shots:
        print(
            f"  server CPU per shot: {1000.0 * cpu / shots:.2f} ms"
            " (all its threads, from the first connection to the last shot)"
        )
        if used:
            names = " and ".join(used)
            every = 1000.0 * (cpu + sum(used.values())) / shots
            print(f"  with {names}: {every:.2f} ms a shot")
    _cpu_shares(cpu, result, used)
    if hint_rooms:
        print("  " + _percentiles("in the rooms asking for hints", result.hint_room_latencies))
        answered = _percentiles("hint ask -> answer", result.hint_times).replace("shots", "hints")
        print(f"  {answered}, busy {result.busy} (target p95 <= 2 s)")
    if computer_rooms:
        moves = _percentiles("computer's answer", result.computer_times).replace("shots", "moves")
        print(
            f"  {moves} (target p95 <= 1 s); games over {result.computer_games_over},"
            f" still waiting for the computer 30 s after the end {result.computer_unanswered}"
        )
    print(
        f"  lost {result.lost}, seen twice {result.doubled}, gaps {result.gaps},"
        f" reconnects {_reconnects(result)}, errors {len(result.errors)}"
    )
    for err in result.errors[:5]:
        print(f"    {err}")
    return _quantile(result.latencies, 0.95) if result.latencies else math.nan


def _cpu_shares(server_cpu_s: float, result: LoadResult, services: dict[str, float]) -> None:
    """How much of the machine the servers, the store and Redis (``services``: CPU s by name)
    and the load generator (the clients) used."""
    begin, end = result.window
    seconds = end - begin + START_SPREAD_S
    others = "".join(f" {name} {100.0 * s / seconds:.0f} %," for name, s in services.items())
    print(
        f"  CPU over the run: servers {100.0 * server_cpu_s / seconds:.0f} % of a core,{others}"
        f" load generator (clients) {100.0 * result.client_cpu_s / seconds:.0f} %"
        f" of a core, of {os.cpu_count()} cores"
    )


def _reconnects(result: LoadResult) -> str:
    """How many times clients reconnected, and after which close codes."""
    if not result.closes:
        return str(result.reconnects)
    codes = ", ".join(f"{code}: {n}" for code, n in sorted(result.closes.items()))
    return f"{result.reconnects} (close codes {codes})"


def _memory_figures(base: str, proc: subprocess.Popen[bytes], rooms: int) -> None:
    """Memory of the server per idle room and per connection (MiB, RSS deltas)."""
    import httpx
    import websockets.sync.client

    time.sleep(1.0)
    before = rss_mib(proc.pid)
    made = []
    with httpx.Client(timeout=30) as http:
        for _ in range(rooms):
            r = http.post(f"{base}/api/rooms", json={"mode": "hotseat", "players": 4})
            made.append(r.json())
    time.sleep(1.0)
    after_rooms = rss_mib(proc.pid)
    url = base.replace("http://", "ws://") + f"/ws/rooms/{made[0]['room_id']}"
    sockets = []
    for _ in range(rooms):
        ws = websockets.sync.client.connect(url, max_size=None)
        ws.send(json.dumps({"type": "hello", "token": None, "last_seq": 0}))
        ws.recv()
        sockets.append(ws)
    time.sleep(1.0)
    after_sockets = rss_mib(proc.pid)
    for ws in sockets:
        ws.close()
    per_room = 1024.0 * (after_rooms - before) / rooms
    per_socket = 1024.0 * (after_sockets - after_rooms) / rooms
    print(f"memory: {before:.0f} MiB at rest; {rooms} idle rooms (4 seats) and {rooms} connections")
    print(f"  per idle room {per_room:.1f} KiB   per connection {per_socket:.1f} KiB")


def main(argv: list[str] | None = None) -> int:
    """Print the server and browser figures; returns the exit status."""
    parser = argparse.ArgumentParser(prog="hikone-carrom bench server", description=__doc__)
    parser.add_argument("--shots", type=int, default=30, help="shots for the latency figure")
    parser.add_argument("--hints", type=int, default=12, help="positions for the hint figure")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium frame rate")
    parser.add_argument(
        "--first-move",
        action="store_true",
        help="only the computer's first move after a start, cold and warm (bench/first_move.py)",
    )
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="Chromium executable")
    parser.add_argument("--rooms", type=int, default=0, help="play this many rooms at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the load plays")
    parser.add_argument(
        "--hint-rooms", type=int, default=12, help="rooms asking for hints in the second load run"
    )
    parser.add_argument(
        "--computer-rooms",
        type=int,
        default=0,
        metavar="M",
        help="with --rooms: one run with the hint rooms and M rooms against level 6 as well",
    )
    parser.add_argument("--client-processes", type=int, default=2, help="processes for clients")
    parser.add_argument(
        "--memory", type=int, default=0, metavar="N", help="measure memory with N rooms"
    )
    parser.add_argument(
        "--db",
        default=None,
        help="store of the servers (default: SQLite for one, a throwaway PostgreSQL for more)",
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="server processes (more than one share a Redis)"
    )
    parser.add_argument("--redis", default=None, help="Redis URL (default: a throwaway Redis)")
    parser.add_argument(
        "--kill-after",
        type=float,
        default=None,
        metavar="S",
        help="kill -9 the first server this long into the load; its rooms must go on",
    )
    parser.add_argument("--logs", default=None, metavar="DIR", help="keep the servers' logs here")
    parser.add_argument(
        "--soak",
        type=float,
        default=None,
        metavar="MINUTES",
        help="rooms coming and going this long (--rooms at a time, default 40); the server's"
        " memory is printed every minute",
    )
    parser.add_argument(
        "--soak-idle",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="with --soak: the server's --room-idle (rooms left this long leave memory)",
    )
    args = parser.parse_args(argv)
    if args.shots < 1:
        parser.error("--shots must be at least 1")
    if min(args.hints, args.rooms, args.hint_rooms, args.memory, args.computer_rooms) < 0:
        parser.error("counts must be at least 0")
    if args.servers < 1 or (args.kill_after is not None and args.servers < 2):
        parser.error("--servers must be at least 1, and at least 2 with --kill-after")
    if args.first_move:
        from hikone_carrom.bench.first_move import first_move_figures

        print(f"machine: {os.cpu_count()} cores, load average {_load_average()}")
        first_move_figures()
        return 0
    if args.soak is not None:
        if args.soak <= 0 or args.soak_idle <= 0 or args.servers != 1:
            parser.error("--soak needs a positive MINUTES and --soak-idle, on one server")
        return _soak_main(args)
    if args.rooms or args.memory:
        return _load_main(args)
    if not args.no_browser and not os.access(args.chromium, os.X_OK):
        parser.error(f"--chromium {args.chromium} is not an executable (or use --no-browser)")
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        with serve_in_thread(ServerSettings(db_url=db, ai_delay_s=0.0)) as base:
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


def _load_main(args: argparse.Namespace) -> int:
    """The load and memory figures on servers in their own processes."""
    from hikone_carrom.bench.throwaway import PostgresCluster, RedisServer, find_bin_dir

    print(f"machine: {os.cpu_count()} cores, load average {_load_average()}")
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        db = args.db
        services: dict[str, int] = {}
        if db is None and args.servers > 1:
            bin_dir = find_bin_dir()
            if bin_dir is None:
                raise SystemExit("hikone-carrom bench server: PostgreSQL is not installed")
            cluster = PostgresCluster.start(bin_dir)
            stack.callback(cluster.stop)
            db = cluster.database()
            services["PostgreSQL"] = cluster.pid()
        db = db or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        more: list[str] = []
        if args.servers > 1:
            redis_url = args.redis
            if redis_url is None:
                redis = RedisServer.start()
                stack.callback(redis.stop)
                redis_url = redis.url
                assert redis.process is not None
                services["Redis"] = redis.process.pid
            more = ["--redis", redis_url]
        shown = "SQLite" if db.startswith("sqlite") else "PostgreSQL"
        logs = Path(args.logs) if args.logs else Path(tmp)
        servers: list[GameServer] = []
        for _ in range(args.servers):
            servers.append(GameServer(db, *_UNLIMITED, *more, log_dir=logs))
            stack.callback(servers[-1].stop)
        for server in servers:
            server.wait_ready()
        bases = [server.base for server in servers]
        label = f"{args.servers} server process{'es' if args.servers > 1 else ''}, {shown}"
        label += ", Redis" if args.servers > 1 else ""
        if args.memory:
            _memory_figures(bases[0], servers[0].process, args.memory)
        if args.rooms and args.kill_after is not None:
            _kill_figures(label, bases, args, servers[0].kill9)
        elif args.rooms and args.computer_rooms:
            _load_figures(label, servers, args, args.hint_rooms, services, args.computer_rooms)
        elif args.rooms:
            plain = _load_figures(label, servers, args, 0, services)
            if args.hint_rooms:
                hinted = _load_figures(label, servers, args, args.hint_rooms, services)
                print(f"  p95 with hint rooms / without: {hinted / plain:.2f}")
    print(f"machine load average after: {_load_average()}")
    return 0


def _kill_figures(
    label: str, bases: list[str], args: argparse.Namespace, kill: Callable[[], None]
) -> None:
    """Play the load, kill -9 the first server during it, and check every room afterwards."""
    from hikone_carrom.bench.server_load import check_against_store, make_rooms, run_load

    plans = make_rooms(bases, args.rooms)
    result = run_load(
        plans, args.seconds, processes=args.client_processes, kill=(args.kill_after, kill)
    )
    check = check_against_store(bases[1], result)
    resumed = sorted(result.resumed)
    print(f"{label}: {args.rooms} rooms, kill -9 of one process {args.kill_after:g} s in")
    print("  " + _percentiles("send -> last client", result.latencies))
    if resumed:
        print(
            f"  rooms going on after the kill: {len(resumed)}/{len(plans)};"
            f" kill -> next shot p50 {_quantile(resumed, 0.5):.2f} s,"
            f" p95 {_quantile(resumed, 0.95):.2f} s, max {resumed[-1]:.2f} s"
        )
    print(
        f"  rooms whose clients disagree: {check.differ}; rooms with a client behind: "
        f"{check.behind}; rooms unlike the store: {check.unlike_store}; shots stored twice: "
        f"{check.stored_twice}; shots lost (no event within 30 s, resent with the same id): "
        f"{result.lost}; events seen twice: {result.doubled}; gaps: {result.gaps}"
    )
    print(f"  reconnects {_reconnects(result)}, errors {len(result.errors)}")
    for err in result.errors[:5]:
        print(f"    {err}")


def _load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def _soak_main(args: argparse.Namespace) -> int:
    """Rooms coming and going on one server for ``--soak`` minutes; its memory every minute."""
    from hikone_carrom.bench.server_load import run_soak

    rooms = args.rooms or 40
    print(f"machine: {os.cpu_count()} cores, load average {_load_average()}")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        logs = Path(args.logs) if args.logs else Path(tmp)
        server = GameServer(
            db,
            *_UNLIMITED,
            "--room-idle",
            f"{args.soak_idle:g}",
            log_dir=logs,
        )
        try:
            server.wait_ready()
            pid = server.process.pid
            shown = "SQLite" if db.startswith("sqlite") else "PostgreSQL"
            print(
                f"soak: {rooms} rooms at a time for {args.soak:g} min on 1 server process,"
                f" {shown}; each room plays 4-20 shots, then is finished (resigned) or left;"
                f" a room left {args.soak_idle:g} s leaves memory"
            )
            samples: list[tuple[float, float]] = [(0.0, rss_mib(pid))]
            print(f"  0.0 min: server RSS {samples[0][1]:.1f} MiB")

            def sample(elapsed: float) -> None:
                samples.append((elapsed, rss_mib(pid)))
                print(f"  {elapsed / 60:.1f} min: server RSS {samples[-1][1]:.1f} MiB", flush=True)

            cpu = cpu_seconds(pid)
            result = run_soak(
                server.base, args.soak, rooms, processes=args.client_processes, sample=sample
            )
            cpu = cpu_seconds(pid) - cpu
            samples.append((60.0 * args.soak, rss_mib(pid)))
        finally:
            server.stop()
    _soak_figures(result, samples, cpu)
    print(f"machine load average after: {_load_average()}")
    return 0


def _soak_figures(result: LoadResult, samples: list[tuple[float, float]], cpu: float) -> None:
    """What a soak played, and how the server's memory went from its first minute to its end."""
    left = result.rooms_played - result.rooms_finished
    print(
        f"  rooms played {result.rooms_played} (finished {result.rooms_finished}, left {left}),"
        f" {len(result.latencies)} shots"
    )
    print("  " + _percentiles("send -> last client", result.latencies))
    print(
        f"  CPU: server {cpu:.1f} s, load generator (clients) {result.client_cpu_s:.1f} s;"
        f" lost {result.lost}, seen twice {result.doubled}, gaps {result.gaps},"
        f" errors {len(result.errors)}"
    )
    for err in result.errors[:5]:
        print(f"    {err}")
    warm = next(((t, m) for t, m in samples if t >= 60.0), samples[-1])
    end_t, end_m = samples[-1]
    print(
        f"  server RSS {samples[0][1]:.1f} MiB at the start, {warm[1]:.1f} MiB after"
        f" {warm[0] / 60:.1f} min, {end_m:.1f} MiB at the end ({end_t / 60:.1f} min):"
        f" {end_m - warm[1]:+.1f} MiB from minute {warm[0] / 60:.1f} to the end"
    )
