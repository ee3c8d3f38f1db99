"""``hikone-carrom bench server``'s single-room figures run against a real server: the hint
latencies read the asker's reply among the room's events announcing the hint (32.1.6); the CPU
of a process with its children (PostgreSQL's backends) as the load figures count it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg

from hikone_carrom.bench.flood import KINDS, report, run_flood
from hikone_carrom.bench.server import (
    cpu_seconds,
    event_latencies,
    hint_latencies,
    serve_app_in_thread,
    tree_cpu_seconds,
)
from hikone_carrom.bench.server_load import SOAK_SHOTS, make_rooms, run_load, run_soak
from hikone_carrom.bench.throwaway import SUPERUSER, PostgresCluster
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.errors import CloseCode


def test_the_single_room_figures_are_measured_on_a_real_server(tmp_path: Path) -> None:
    settings = ServerSettings(db_url=f"sqlite:///{tmp_path / 'games.sqlite3'}", ai_delay_s=0.0)
    with serve_app_in_thread(create_app(settings)) as base:
        first, again = hint_latencies(base, 2)
        events = event_latencies(base, 3)
    assert len(first) == len(again) == 2
    assert all(t > 0.0 for t in first + again)
    assert len(events) == 3 and all(t >= 0.0 for t in events)


def test_the_load_s_hint_rooms_are_answered_and_their_shots_timed(tmp_path: Path) -> None:
    """Rooms of ``bench server --hint-rooms`` turn hints on (online rooms have them off unless
    asked, 32.1.6): every ask is answered, and the hint event shown to the room does not pass
    for the shot's."""
    settings = ServerSettings(db_url=f"sqlite:///{tmp_path / 'games.sqlite3'}", ai_delay_s=0.0)
    with serve_app_in_thread(create_app(settings)) as base:
        plans = make_rooms([base], 1, hint_rooms=1)
        result = run_load(plans, 10.0, processes=1)
    assert result.errors == []
    assert (result.lost, result.gaps, result.doubled) == (0, 0, 0)
    assert result.hint_times and result.busy == 0
    assert len(result.hint_room_latencies) == len(result.hint_times)
    assert result.latencies


def test_a_soak_makes_plays_finishes_and_leaves_rooms_and_samples_as_it_goes(
    tmp_path: Path,
) -> None:
    """``bench server --soak``: rooms come and go (each made, played a few shots, then resigned
    or left mid-game, and replaced), and the sampler is called while it runs."""
    settings = ServerSettings(db_url=f"sqlite:///{tmp_path / 'games.sqlite3'}", ai_delay_s=0.0)
    samples: list[float] = []
    with serve_app_in_thread(create_app(settings)) as base:
        result = run_soak(base, 0.5, 4, processes=1, every_s=5.0, sample=samples.append)
    assert result.errors == []
    assert (result.lost, result.gaps, result.doubled) == (0, 0, 0)
    assert result.rooms_played > 4  # the first rooms were replaced by new ones
    assert 0 < result.rooms_finished < result.rooms_played
    assert len(result.latencies) >= 4 * SOAK_SHOTS[0]
    assert len(samples) >= 4 and samples == sorted(samples)
    assert result.client_cpu_s > 0.0


BUSY = (
    "import sys, time\nt = time.process_time()\n"
    "while time.process_time() - t < 0.5: pass\nsys.stdin.read()"
)
"""A child that works 0.5 s of CPU, then waits for its standard input to close (``/proc``
counts CPU in clock ticks, a little behind the process's own clock: the test waits for 0.3 s)."""


def test_a_process_s_cpu_counts_its_children_running_and_ended() -> None:
    me = os.getpid()
    before = tree_cpu_seconds(me)
    child = subprocess.Popen([sys.executable, "-c", BUSY], stdin=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while cpu_seconds(child.pid) < 0.3:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert tree_cpu_seconds(me) - before >= 0.25  # running
    assert child.stdin is not None
    child.stdin.close()
    child.wait()
    assert tree_cpu_seconds(me) - before >= 0.25  # ended: counted in the parent's children's


def test_the_throwaway_postgresql_s_backends_count_in_its_cpu(pg_cluster: PostgresCluster) -> None:
    before = tree_cpu_seconds(pg_cluster.pid())
    with psycopg.connect(
        host="127.0.0.1", port=pg_cluster.port, user=SUPERUSER, dbname="postgres"
    ) as conn:
        conn.execute("SELECT count(*) FROM generate_series(1, 3000000)").fetchone()
        # Read while the backend lives: one that is exiting may be reaped between the read of
        # the postmaster's children's times and its own, and then counts nowhere.
        assert tree_cpu_seconds(pg_cluster.pid()) - before > 0.05


def test_the_flood_bench_measures_every_socket_kind_against_the_quiet_figures(
    tmp_path: Path,
) -> None:
    """``bench flood``, tiny: the quiet phase and one phase per socket kind, each with health
    and shot latencies, the flooder cut off by the server (1008) or dropped as too slow."""
    key = "bench-organiser-key-0123"
    settings = ServerSettings(
        db_url=f"sqlite:///{tmp_path / 'games.sqlite3'}",
        ai_delay_s=0.0,
        organiser_key=key,
        sockets_per_second=1e6,  # the flooder's messages are what is limited here, not its sockets
    )
    with serve_app_in_thread(create_app(settings)) as base:
        figures = run_flood(base, seconds=2.0, board_entries=5, event_rows=8, organiser_key=key)
    assert [p.name for p in figures.phases] == ["quiet", *KINDS]
    for phase in figures.phases:
        assert phase.errors == [] and phase.health and phase.shots, phase
    for phase in figures.phases[1:]:
        assert phase.flood is not None and phase.flood.sent > 0
        assert set(phase.flood.closes) <= {CloseCode.FLOOD, CloseCode.TOO_SLOW}, phase.flood
    lines = report(figures)
    assert len(lines) == 2 + len(figures.phases)


def test_the_tournament_benchmarks_server_takes_a_key_that_begins_with_a_dash(
    tmp_path: Path,
) -> None:
    import httpx

    from hikone_carrom.bench.tournament_live import running_server

    key = "-" + "k" * 40  # token_urlsafe gives one in 64 such keys
    with running_server(f"sqlite:///{tmp_path / 'live.sqlite3'}", key) as url:
        made = httpx.post(
            f"{url}/api/boards", json={"name": "1"}, headers={"Authorization": f"Bearer {key}"}
        )
    assert made.status_code == 201, made.text
