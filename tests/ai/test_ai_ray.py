"""``ai-eval --ray`` against a real Ray: a private local instance started by the command, and a
``ray start --head`` cluster reached by its GCS address. Results must equal a local-process run of
the same seeds (only wall-clock decision times differ); a task that fails on a worker is reported
and the results file resumes. No Ray process is left behind.

Every Ray process here keeps its traffic on loopback: ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``
(read by Ray when imported, inherited by ``ray start``) makes a single-node Ray use 127.0.0.1
instead of the machine's network address; the cluster fixture checks that it did.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # before Ray is imported: loopback only
import ray

from hikone_carrom.ai import runner
from hikone_carrom.ai.eval_cli import main
from hikone_carrom.ai.evaluation import Task
from hikone_carrom.ai.results import ResultsFile

PLAN = [
    "--players",
    "greedy,aim",
    "--duels",
    "greedy:random",
    "--tiers",
    "1x",
    "--seeds",
    "2",
    "--cap",
    "6",
    "--max-shots",
    "6",
]
"""Six tasks: two solo players and one pairing, two seeds each, at the 1x noise tier."""
KEYS = 6
BROKEN_KEY = "solo/aim/1x/cap6/1"
COMMAND = Path(sys.executable).parent / "hikone-carrom"
START_TIMEOUT_S = 90.0


def _comparable(path: Path) -> dict[str, dict[str, Any]]:
    """Results by key without wall-clock decision times (s), but with how many were timed."""
    out: dict[str, dict[str, Any]] = {}
    for key, line in ResultsFile(path).lines.items():
        result = dict(line["result"])
        for name in [n for n in result if n.startswith("times")]:
            result[name] = len(result[name])
        out[key] = result
    return out


def _live_processes() -> Iterator[tuple[int, list[str]]]:
    """(pid, fields of /proc/PID/stat after the command name) of every live (non-zombie)
    process: fields[1] is the parent, fields[3] the session."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":
            yield int(entry), fields


def _descendants(pid: int) -> list[int]:
    """Live (non-zombie) processes below ``pid``, read from /proc."""
    children: dict[int, list[int]] = {}
    for child, fields in _live_processes():
        children.setdefault(int(fields[1]), []).append(child)
    found: list[int] = []
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:200]
    except OSError:
        return f"{pid} (gone)"


def _in_session(sid: int) -> list[int]:
    """Live processes of session ``sid`` (a ``ray start`` and everything it spawned)."""
    return [pid for pid, fields in _live_processes() if int(fields[3]) == sid]


def _wait_until_gone(probe: Any, timeout_s: float) -> list[int]:
    deadline = time.monotonic() + timeout_s
    left: list[int] = probe()
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = probe()
    return left


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@dataclass(frozen=True)
class Cluster:
    """A ``ray start --head`` cluster: its GCS address, its Ray Client address and the
    environment (token authentication) a driver needs."""

    gcs: str
    client: str
    env: dict[str, str]
    session: int


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the ``ray start --block`` session this test started (by its process group id)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=2)
    if _in_session(proc.pid):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    home = tmp_path_factory.mktemp("ray-head")
    log = home / "ray-start.log"
    env = {
        **os.environ,
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": uuid.uuid4().hex,
        "RAY_USAGE_STATS_ENABLED": "0",
        # gRPC's epoll1 poller once crashed a Ray Client server at its start ("Check failed:
        # next_worker->state == KICKED", ev_epoll1_linux.cc), failing the Ray Client test.
        "GRPC_POLL_STRATEGY": "poll",
    }
    port, client_port, agent_port = _free_port(), _free_port(), _free_port()
    argv = [
        str(Path(sys.executable).parent / "ray"),
        "start",
        "--head",
        "--node-ip-address=127.0.0.1",
        f"--port={port}",
        f"--ray-client-server-port={client_port}",
        f"--dashboard-agent-listen-port={agent_port}",
        "--num-cpus=2",
        "--include-dashboard=false",
        "--disable-usage-stats",
        "--block",
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            argv, cwd=home, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        text = ""
        while "--block" not in text:
            assert proc.poll() is None, f"ray start failed:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"ray start too slow:\n{log.read_text()}"
            time.sleep(0.2)
            text = re.sub(r"\x1b\[[0-9;]*m", "", log.read_text(errors="replace"))
        found = re.search(r"Local node IP: (\S+)", text)
        assert found and found.group(1) == "127.0.0.1", text  # loopback only
        yield Cluster(f"127.0.0.1:{port}", f"ray://127.0.0.1:{client_port}", env, proc.pid)
    finally:
        _stop(proc)
        assert _wait_until_gone(lambda: _in_session(proc.pid), 10.0) == []


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The plan run on two local worker processes (the default runner)."""
    path = tmp_path_factory.mktemp("local") / "eval.jsonl"
    assert main([*PLAN, "--results", str(path), "--jobs", "2", "--quiet"]) == 0
    out = _comparable(path)
    assert len(out) == KEYS
    return out


def _cli(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``hikone-carrom ai-eval ARGS`` in a fresh process, run from ``cwd``."""
    return subprocess.run(
        [str(COMMAND), "ai-eval", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_local_ray_reports_a_worker_failure_then_a_cluster_resumes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    reference: dict[str, dict[str, Any]],
    cluster: Cluster,
) -> None:
    path = tmp_path / "eval.jsonl"
    real = runner.task_to_dict

    def break_one(task: Task) -> dict[str, Any]:
        data = real(task)
        if task.key == BROKEN_KEY:
            data["player"] = "nobody"  # the worker cannot make this player
        return data

    driver = tmp_path / "driver"
    driver.mkdir()
    before = set(_descendants(os.getpid()))  # e.g. multiprocessing's resource tracker
    with monkeypatch.context() as patch:
        patch.setattr(runner, "task_to_dict", break_one)
        patch.chdir(driver)
        code = main([*PLAN, "--results", str(path), "--ray", "local", "--jobs", "2", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert BROKEN_KEY in err and "nobody" in err and "rerun" in err and "再実行" in err
    assert not ray.is_initialized()

    def left() -> list[int]:  # the ray start cluster runs on; the local Ray must be gone
        now = set(_descendants(os.getpid())) - set(_in_session(cluster.session))
        return sorted(now - before)

    assert _wait_until_gone(left, 15.0) == [], [_command(pid) for pid in left()]
    saved = ResultsFile(path)
    assert len(saved) == KEYS - 1 and BROKEN_KEY not in saved

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = _cli([*PLAN, "--results", str(path), "--ray", cluster.gcs], elsewhere, cluster.env)
    assert done.returncode == 0, done.stderr
    assert f"{KEYS - 1} done before" in done.stdout and "1/1" in done.stdout
    assert _comparable(path) == reference


def test_ray_client_address_runs_the_plan_like_local_processes(
    tmp_path: Path, reference: dict[str, dict[str, Any]], cluster: Cluster
) -> None:
    path = tmp_path / "eval.jsonl"
    done = _cli([*PLAN, "--results", str(path), "--ray", cluster.client], tmp_path, cluster.env)
    assert done.returncode == 0, done.stderr
    assert f"{KEYS}/{KEYS}" in done.stdout
    assert _comparable(path) == reference


def test_ray_is_imported_only_for_ray_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    probe = (
        "import sys, hikone_carrom.cli, hikone_carrom.ai.eval_cli, hikone_carrom.ai.runner;"
        "assert 'ray' not in sys.modules, 'ray imported eagerly'"
    )
    fresh = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert fresh.returncode == 0, fresh.stderr
    path = tmp_path / "eval.jsonl"
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    assert main([*PLAN, "--results", str(path), "--ray", "local", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'hikone-carrom[ray]'" in err and "Ray が入っていません" in err
    assert not path.exists()


@pytest.mark.parametrize(
    "address", ["nowhere", "ray://", "http://head:80", "head:99999", "ray://head"]
)
def test_malformed_address_changes_nothing(
    tmp_path: Path, address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "eval.jsonl"
    assert main([*PLAN, "--results", str(path), "--ray", address, "--quiet"]) == 2
    assert "--ray" in capsys.readouterr().err
    assert not path.exists()
