"""Thinking on a Ray cluster started apart from the server (``serve --ray ADDRESS``), as on
several machines: a head node and a second node (``ray start --head`` / ``ray start --address``),
and a server process that only connects to them. Computer players in several rooms at once are
answered by Ray tasks, spread over both nodes."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from tests.server.roomkit import straight_shot
from tests.server.serverkit import Player

from hikone_carrom.bench.throwaway import GameServer, _free_port

RAY = str(Path(sys.executable).with_name("ray"))


@dataclass
class RayCluster:
    address: str
    dashboard: str
    nodes: list[subprocess.Popen[bytes]]


def _ray_start(*args: str, log: Path) -> subprocess.Popen[bytes]:
    """``ray start ... --block`` in its own process group (stopped with the group)."""
    with log.open("ab") as out:
        return subprocess.Popen(
            [RAY, "start", "--block", "--num-cpus=1", "--node-ip-address=127.0.0.1", *args],
            stdout=out,
            stderr=out,
            start_new_session=True,
        )


def _stop(node: subprocess.Popen[bytes]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(node.pid, sig)
        except ProcessLookupError:
            return
        try:
            node.wait(timeout=20)
            time.sleep(1)  # the group's other processes (raylet, workers) follow
        except subprocess.TimeoutExpired:
            continue


def _alive_nodes(dashboard: str) -> int:
    from ray.util.state import list_nodes

    return sum(n.state == "ALIVE" for n in list_nodes(address=dashboard))


@pytest.fixture
def ray_home() -> Iterator[Path]:
    """A clean environment for the Ray processes the test starts: a home folder of their own
    (where Ray keeps an authentication token; short, for its unix sockets), none of the ``RAY_*``
    variables other tests or an earlier ``ray.init`` of this process set, no usage statistics,
    this checkout importable by the workers; the environment restored afterwards."""
    saved = dict(os.environ)
    home = Path(tempfile.mkdtemp(prefix="hc-ray-"))
    for name in [n for n in os.environ if n.startswith("RAY_")]:
        del os.environ[name]
    os.environ["HOME"] = str(home)
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    try:
        yield home
    finally:
        os.environ.clear()
        os.environ.update(saved)
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def ray_cluster(tmp_path: Path, ray_home: Path) -> Iterator[RayCluster]:
    """Two Ray nodes on this machine (one CPU each, on loopback), stopped at the end."""
    port, dash = _free_port(), _free_port()
    log = tmp_path / "ray.log"
    head = _ray_start(
        "--head",
        f"--port={port}",
        "--include-dashboard=true",
        "--dashboard-host=127.0.0.1",
        f"--dashboard-port={dash}",
        f"--temp-dir={ray_home / 's'}",
        log=log,
    )
    cluster = RayCluster(f"127.0.0.1:{port}", f"http://127.0.0.1:{dash}", [head])
    try:
        deadline = time.monotonic() + 240  # a busy machine
        while True:
            assert head.poll() is None, log.read_text(errors="replace")[-3000:]
            try:
                httpx.get(f"{cluster.dashboard}/api/version", timeout=2).raise_for_status()
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the Ray head did not start"
                time.sleep(0.5)
        cluster.nodes.append(_ray_start(f"--address={cluster.address}", log=log))
        while _alive_nodes(cluster.dashboard) < 2:
            assert cluster.nodes[1].poll() is None, log.read_text(errors="replace")[-3000:]
            assert time.monotonic() < deadline, "the second Ray node did not join"
            time.sleep(0.5)
        yield cluster
    finally:
        for node in reversed(cluster.nodes):
            _stop(node)


def test_computer_players_of_several_rooms_think_on_both_nodes_of_a_ray_cluster(
    ray_cluster: RayCluster, tmp_path: Path
) -> None:
    from ray.util.state import list_tasks

    server = GameServer(
        f"sqlite:///{tmp_path / 'games.db'}",
        "--ray",
        ray_cluster.address,
        "--think-workers",
        "4",
        log_dir=tmp_path,
    ).wait_ready()
    try:
        players = []
        for name in ("Hana", "Kenji", "Yumi"):
            made = httpx.post(
                f"{server.base}/api/rooms",
                json={"mode": "computer", "players": 2, "level": "6", "name": name},
            ).json()
            players.append(Player(server, made["room_id"], made["token"]))
        for player in players:  # three human shots in a row: three expert replies at once
            player.send(**straight_shot(player.state, speed=1.2))
        for player in players:
            player.until(lambda p: any(e.get("seat") == 1 for e in p.events), timeout=300)
            reply = next(e for e in player.events if e.get("seat") == 1)
            assert reply["kind"] == "shot"  # the computer answered through the checked path
            player.close()
    finally:
        server.stop()
    tasks = list_tasks(
        address=ray_cluster.dashboard,
        filters=[("func_or_class_name", "=", "think")],
        detail=True,
        raise_on_missing_output=False,
    )
    finished = [t for t in tasks if t.state == "FINISHED"]
    assert len(finished) >= 3, [(t.state, t.node_id) for t in tasks]
    assert len({t.node_id for t in finished}) == 2, "the thinking stayed on one node"
