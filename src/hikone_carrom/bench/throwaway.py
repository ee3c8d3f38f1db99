"""Throwaway servers for tests and benchmarks, each on a free loopback port and stopped at the
end: Debian's real PostgreSQL and Redis in a temporary folder, and the game server itself
(``hikone-carrom serve``) in its own process. Not production code: only the tests and the
benchmarks use it; the game server never imports it.

PostgreSQL: ``initdb`` and ``pg_ctl``; when run as root, the server runs as the unprivileged
``postgres`` user (or ``nobody``), which owns the folder: PostgreSQL refuses to run as root.
Redis: ``redis-server`` without persistence; it can be stopped and started again on the same
port (a Redis outage). The game server writes its log to a file (a pipe nobody reads would
stop it once full).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg

__all__ = [
    "MISSING_MESSAGE",
    "REDIS_MISSING",
    "ClusterError",
    "GameServer",
    "PostgresCluster",
    "RedisServer",
    "find_bin_dir",
]

PG_BIN_GLOB = "/usr/lib/postgresql/*/bin"
MISSING_MESSAGE = (
    "PostgreSQL server binaries (initdb, pg_ctl) not found under "
    f"{PG_BIN_GLOB}: install Debian's package with `apt-get install -y postgresql`"
)
SUPERUSER = "hikone"
START_TIMEOUT_S = 60


class ClusterError(RuntimeError):
    """The throwaway PostgreSQL server could not be started or stopped."""


def find_bin_dir() -> Path | None:
    """The newest PostgreSQL bin folder that has ``initdb`` and ``pg_ctl``, or None."""

    def version(path: str) -> tuple[int, ...]:
        name = Path(path).parent.name
        return tuple(int(p) for p in name.split(".") if p.isdigit())

    for candidate in sorted(glob.glob(PG_BIN_GLOB), key=version, reverse=True):
        folder = Path(candidate)
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _server_user() -> pwd.struct_passwd | None:
    """Whom to run the server as: None when not root, else ``postgres`` or ``nobody``."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise ClusterError("running as root and neither a 'postgres' nor a 'nobody' user exists")


class PostgresCluster:
    """One running PostgreSQL server; :meth:`start` it, :meth:`database` per test, :meth:`stop`."""

    def __init__(
        self, bin_dir: Path, root: Path, port: int, user: pwd.struct_passwd | None
    ) -> None:
        self.bin_dir = bin_dir
        self.root = root
        self.data = root / "data"
        self.logfile = root / "server.log"
        self.port = port
        self.user = user

    @classmethod
    def start(cls, bin_dir: Path) -> PostgresCluster:
        """initdb a new cluster in a temporary folder and start it on a free loopback port."""
        user = _server_user()
        root = Path(tempfile.mkdtemp(prefix="hikone-pg-"))
        if user is not None:
            os.chown(root, user.pw_uid, user.pw_gid)
        cluster = cls(bin_dir, root, _free_port(), user)
        try:
            cluster._run(
                "initdb",
                "-D",
                str(cluster.data),
                "-U",
                SUPERUSER,
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync",
            )
            cluster.resume()
        except ClusterError:
            shutil.rmtree(root, ignore_errors=True)
            raise
        return cluster

    def resume(self) -> None:
        """Start the server process on the cluster's folder and port (again)."""
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.logfile),
            "-w",
            "-t",
            str(START_TIMEOUT_S),
            "-o",
            options,
            "start",
        )

    def pid(self) -> int:
        """The running server's process id (the postmaster; each connection has a child)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def pause(self) -> None:
        """Stop the server process (fast shutdown: open connections are cut), keeping its data."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin_dir / tool), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user.pw_name, "--", *command]
        done = subprocess.run(
            command, cwd=self.root, capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode != 0:
            log = self.logfile.read_text() if self.logfile.exists() else ""
            raise ClusterError(
                f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}{log}"
            )

    def url(self, database: str = "postgres") -> str:
        """SQLAlchemy URL of a database of this server (psycopg 3 driver)."""
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """Create a new empty database and return its SQLAlchemy URL."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        try:
            self.pause()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


REDIS_MISSING = (
    "redis-server not found: install Debian's package with `apt-get install -y redis-server`"
)


class RedisServer:
    """One running ``redis-server`` on a free loopback port, without persistence."""

    def __init__(self, process: subprocess.Popen[bytes] | None, root: Path, port: int) -> None:
        self.process = process
        self.root = root
        self.port = port

    @property
    def url(self) -> str:
        """The server's URL (database 0)."""
        return f"redis://127.0.0.1:{self.port}/0"

    @classmethod
    def start(cls) -> RedisServer:
        """Start ``redis-server`` and wait until it answers."""
        if shutil.which("redis-server") is None:
            raise ClusterError(REDIS_MISSING)
        server = cls(None, Path(tempfile.mkdtemp(prefix="hikone-redis-")), _free_port())
        server.resume()
        return server

    def resume(self) -> None:
        """Start the server process (again, empty: nothing is persisted) on its port."""
        binary = shutil.which("redis-server") or "redis-server"
        command = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.root)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise ClusterError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def pause(self) -> None:
        """Stop the server process (its connections are cut), keeping the port for
        :meth:`resume`."""
        process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        self.pause()
        shutil.rmtree(self.root, ignore_errors=True)


class GameServer:
    """``hikone-carrom serve --db URL [options]`` started in its own process on a free loopback
    port (or ``port``: a restart on the same one), its log in ``log`` (a file in ``log_dir``);
    :meth:`wait_ready` until it answers, :meth:`kill9` stops it as a crash would, :meth:`stop`
    as Ctrl+C."""

    def __init__(self, db_url: str, *options: str, log_dir: Path, port: int | None = None) -> None:
        self.port = port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log_dir / f"server-{self.port}.log"
        command = [sys.executable, "-m", "hikone_carrom.cli", "serve", "--port", str(self.port)]
        command += ["--db", db_url, *options]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(command, env=env, stdout=out, stderr=out)

    @property
    def ws(self) -> str:
        """The WebSocket base URL."""
        return self.base.replace("http://", "ws://")

    def wait_ready(self) -> GameServer:
        """Wait until the server answers (it migrates its store first); returns it.

        Raises:
            ClusterError: it stopped, or did not answer within 3 minutes (a busy machine).
        """
        import httpx

        deadline = time.monotonic() + 180
        while True:
            if self.process.poll() is not None:
                raise ClusterError(f"the game server stopped: {self.log_tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/health", timeout=2).status_code == 200:
                    return self
            if time.monotonic() > deadline:
                self.kill9()
                raise ClusterError(f"the game server did not start: {self.log_tail()}")
            time.sleep(0.1)

    def log_tail(self, lines: int = 20) -> str:
        """The last lines of the server's log."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def kill9(self) -> None:
        """Stop the process at once, as a crash would (its sockets are closed by the kernel)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """Stop the process as Ctrl+C would (it gives its leases up)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill9()
