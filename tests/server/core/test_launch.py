"""``hikone-carrom serve`` refuses what cannot work in one sentence, never a traceback, and says
where to find the server."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hikone_carrom.server.core.launch import lan_address, main


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["--no-browser", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("hikone-carrom: ")
    return err


@pytest.mark.parametrize(
    ("db", "says"),
    [
        ("sqlite://", "in-memory SQLite store would lose every game"),
        ("sqlite:///:memory:", "in-memory SQLite store would lose every game"),
        ("not a url", "is not a database URL"),
        ("nosuchdb://host/x", "no database driver"),
        ("postgresql+psycopg://nobody@127.0.0.1:1/x", "cannot open the game store"),
        ("sqlite:////proc/hikone/games.sqlite3", "cannot open the game store"),
    ],
)
def test_every_unusable_store_is_one_sentence(
    capsys: pytest.CaptureFixture[str], db: str, says: str
) -> None:
    assert says in _refusal(capsys, "--db", db)


def test_a_store_from_a_newer_version_is_one_sentence(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "newer.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)")
        db.execute("INSERT INTO alembic_version VALUES ('9999')")
    assert "schema is not one this version knows" in _refusal(capsys, "--db", f"sqlite:///{path}")


def test_a_port_in_use_is_one_sentence(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = _refusal(capsys, "--db", f"sqlite:///{tmp_path / 'g.sqlite3'}", "--port", str(port))
    assert f"cannot listen on 127.0.0.1:{port}" in err


def test_all_addresses_print_addresses_a_browser_can_open(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "hikone_carrom.cli", "serve", "--host", "0.0.0.0"]
    command += ["--port", str(port), "--db", f"sqlite:///{tmp_path / 'g.sqlite3'}"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert "0.0.0.0" not in first
        assert f"http://127.0.0.1:{port}/ on this computer" in first
        lan = lan_address()
        if lan is not None:
            assert f"http://{lan}:{port}/ on your network" in first
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # and it does answer there
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the server did not listen")
    finally:
        server.terminate()
        server.wait(timeout=30)
