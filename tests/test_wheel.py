"""The wheel: built from the project's files, installed in a fresh virtual environment, it ships
every file under ``src/`` and every command runs from it, reading the package's data there.

The fresh environment borrows the running one's third-party packages through a ``.pth`` path
line: Python appends that folder to ``sys.path`` without processing the ``.pth`` files inside
it, so an editable install of the project there is not seen and nothing is downloaded. A second
``.pth`` installs an audit hook (:data:`_OPENED`) that logs every file of a ``hikone_carrom``
folder each process opens, so the tests see where modules and data are read from. The commands
are found by name in ``hikone-carrom --help``; the first run that simulates compiles the engine
for the new place (a minute or two).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.request
import zipfile
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from importlib.util import find_spec
from pathlib import Path

import pytest
from packaging.requirements import Requirement

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
STORED_RECORD = ROOT / "tests/records/data/format1-random-greedy-seed6.json"
RUN_TIMEOUT = 900.0
"""Longest run of one command, s (the first compiles the engine; a busy machine is slow)."""

_LOG_VAR = "HIKONE_CARROM_WHEEL_TEST_LOG"
_OPENED = f"""\
import os
import sys

_log = os.environ.get({_LOG_VAR!r})
if _log:
    _fd = os.open(_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)

    def _hook(event, args):
        if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            path = os.fsdecode(os.path.realpath(args[0]))
            if "/hikone_carrom/" in path:
                os.write(_fd, (path + "\\n").encode())

    sys.addaudithook(_hook)
"""
"""The audit hook's module: appends the real path of each opened file of a ``hikone_carrom``
folder to the file named by ``$HIKONE_CARROM_WHEEL_TEST_LOG`` (``os.write`` on a descriptor
opened before the hook, so logging opens nothing)."""


@dataclass(frozen=True)
class Run:
    """One finished command: its exit code, output and the package files it opened."""

    code: int
    out: str
    err: str
    opened: frozenset[Path]


@dataclass(frozen=True)
class Install:
    """The wheel installed in a fresh virtual environment (``root``)."""

    root: Path
    site: Path
    work: Path

    def env(self, log: Path) -> dict[str, str]:
        """The environment of an activated venv, without the caller's ``PYTHONPATH``."""
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV")
        }
        env |= {
            "PATH": f"{self.root / 'bin'}{os.pathsep}{env.get('PATH', '')}",
            "VIRTUAL_ENV": str(self.root),
            "PYTHONNOUSERSITE": "1",
            _LOG_VAR: str(log),
        }
        return env

    def log(self) -> Path:
        """A new empty file for the audit hook's log."""
        fd, name = tempfile.mkstemp(dir=self.work, suffix=".opened")
        os.close(fd)
        return Path(name)

    def run(self, line: str, *args: str) -> Run:
        """The venv's program and options in ``line`` (words: ``hikone-carrom bench physics``),
        then ``args`` (paths)."""
        program, *words = line.split()
        log = self.log()
        done = subprocess.run(
            [str(self.root / "bin" / program), *words, *args],
            cwd=self.work,
            env=self.env(log),
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
        )
        return Run(done.returncode, done.stdout, done.stderr, _opened(log))

    def ok(self, line: str, *args: str) -> Run:
        """:meth:`run` that must exit 0 and open package files only inside the venv."""
        run = self.run(line, *args)
        assert run.code == 0, f"{line} exited {run.code}:\n{run.out}\n{run.err}"
        outside = sorted(str(p) for p in run.opened if not p.is_relative_to(self.site))
        assert not outside, f"{line} read package files outside the venv: {outside}"
        return run

    def data(self, relative: str) -> Path:
        """The installed package file at ``relative`` (to the ``hikone_carrom`` folder)."""
        return (self.site / "hikone_carrom" / relative).resolve()


def _opened(log: Path) -> frozenset[Path]:
    return frozenset(Path(line) for line in log.read_text(encoding="utf-8").splitlines())


def _check(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}"


def _project_files() -> list[str]:
    """The project's files as a commit would hold them: tracked or new, not ignored."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("the wheel test needs the project's git checkout")
    return sorted(name for name in listed.decode().split("\0") if name and (ROOT / name).is_file())


def _check_build_backend() -> None:
    """The wheel is built without isolation, by this environment's build requirements."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for requirement in map(Requirement, pyproject["build-system"]["requires"]):
        try:
            have: str | None = version(requirement.name)
        except PackageNotFoundError:
            have = None
        assert have is not None and requirement.specifier.contains(have, prereleases=True), (
            f"building the wheel needs {requirement} in this environment (found {have}): "
            "reinstall the dev extra (make setup)"
        )


@pytest.fixture(scope="module")
def project_files() -> list[str]:
    return _project_files()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory, project_files: list[str]) -> Path:
    """The wheel built from a copy of the project's top-level files and ``src/`` (what the
    build reads, without a stale build folder)."""
    _check_build_backend()
    base = tmp_path_factory.mktemp("wheel")
    tree = base / "tree"
    for name in (n for n in project_files if "/" not in n or n.startswith("src/")):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tree / name)
    dist = base / "dist"
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    _check([*pip, "--no-index", "-w", str(dist), str(tree)])
    (built,) = dist.glob("hikone_carrom-*.whl")
    return built


@pytest.fixture(scope="module")
def install(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Install:
    """The wheel in a fresh venv that sees this environment's third-party packages."""
    root = tmp_path_factory.mktemp("venv")
    _check([sys.executable, "-m", "venv", str(root)])
    _check(
        [str(root / "bin/python"), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)]
    )
    (site,) = (root / "lib").glob("python*/site-packages")
    borrowed = [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")]
    (site / "borrowed.pth").write_text("".join(f"{p}\n" for p in borrowed), encoding="utf-8")
    (site / "_wheel_test_opened.py").write_text(_OPENED, encoding="utf-8")
    (site / "_wheel_test_opened.pth").write_text("import _wheel_test_opened\n", encoding="utf-8")
    return Install(root, site.resolve(), tmp_path_factory.mktemp("work"))


def test_the_wheel_ships_every_file_under_src(wheel: Path, project_files: list[str]) -> None:
    with zipfile.ZipFile(wheel) as whl:
        shipped = {n for n in whl.namelist() if not n.split("/")[0].endswith(".dist-info")}
    expected = {name.removeprefix("src/") for name in project_files if name.startswith("src/")}
    assert sorted(expected - shipped) == [], "files under src/ the wheel leaves out"
    assert sorted(shipped - expected) == [], "files in the wheel that are not under src/"


def test_the_package_is_imported_from_the_venv(install: Install) -> None:
    probe = "import hikone_carrom, importlib.resources as r; print(hikone_carrom.__file__)"
    probe += "; print(r.files('hikone_carrom'))"
    module, data = map(Path, install.ok("python -c", probe).out.split())
    assert module.resolve().is_relative_to(install.site), module
    assert data.resolve() == install.data("."), data
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert install.ok("hikone-carrom --version").out.strip() == pyproject["project"]["version"]


def _commands(install: Install) -> list[str]:
    usage = install.ok("hikone-carrom --help").out
    listing = usage.split("commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in listing.splitlines()]


def test_every_command_answers_help(install: Install) -> None:
    commands = _commands(install)
    assert "bench" in commands and "serve" in commands, commands
    bench = install.ok("hikone-carrom bench --help")  # names its sub-commands
    match = re.search(r"\{([^}]+)\}", bench.out)
    assert match, bench.out
    benches = match[1].split(",")
    assert "physics" in benches, benches
    others = (command for command in commands if command != "bench")
    for command in (*others, *(f"bench {name}" for name in benches)):
        run = install.ok(f"hikone-carrom {command} --help")
        assert run.out.startswith("usage: hikone-carrom"), (command, run.out)


def test_the_physics_benchmark_reads_its_positions_from_the_venv(install: Install) -> None:
    run = install.ok("hikone-carrom bench physics --rounds 1 --no-pymunk")
    assert install.data("bench/data/match_positions.json.gz") in run.opened


def test_the_experts_solo_clear_reads_the_stored_pot_tables_from_the_venv(
    install: Install,
) -> None:
    results = install.work / "solo.jsonl"
    solo = "--players expert --duels none --tiers 1x --seeds 1 --cap 1 --jobs 1 --quiet"
    run = install.ok(f"hikone-carrom ai-eval {solo} --results", str(results))
    assert install.data("ai/data/pot_chances.npz") in run.opened
    assert results.read_text(encoding="utf-8").strip()


def test_a_simulated_and_a_stored_record_replay_from_the_venv(install: Install) -> None:
    record = install.work / "game.json"
    match = "--bots greedy,random --seed 5 --max-actions 6"
    install.ok(f"hikone-carrom simulate {match} --record", str(record))
    for path in (record, STORED_RECORD):
        assert "replay exactly" in install.ok("hikone-carrom replay", str(path)).out


@pytest.mark.skipif(find_spec("matplotlib") is None, reason="needs the draw extra (matplotlib)")
def test_show_draws_a_stored_record_from_the_venv(install: Install) -> None:
    png = install.work / "shot.png"
    install.ok("hikone-carrom show --shot 1 --out", str(png), str(STORED_RECORD))
    assert png.read_bytes().startswith(b"\x89PNG")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _get(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.headers.get_content_type(), response.read()


def test_serve_gives_the_page_its_script_and_health_from_the_venv(install: Install) -> None:
    port, log = _free_port(), install.log()
    base = f"http://127.0.0.1:{port}"
    out = install.work / "serve.out"
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--think-workers", "1"]
    args += ["--db", f"sqlite:///{install.work / 'store.sqlite3'}"]
    with out.open("wb") as sink:
        server = subprocess.Popen(
            [str(install.root / "bin/hikone-carrom"), *args],
            cwd=install.work,
            env=install.env(log),
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + RUN_TIMEOUT
        while True:
            assert server.poll() is None, f"serve exited {server.returncode}:\n{out.read_text()}"
            assert time.monotonic() < deadline, f"serve never answered:\n{out.read_text()}"
            try:
                kind, health = _get(f"{base}/api/health")
                break
            except OSError:
                time.sleep(0.5)
        assert kind == "application/json" and b'"ok"' in health, health
        kind, page = _get(f"{base}/")
        assert kind == "text/html", kind
        script = re.search(rb'<script type="module" src="([^"]+)"', page)
        assert script, page[:500]
        asset = script[1].decode()
        kind, code = _get(base + asset)
        assert kind in ("text/javascript", "application/javascript") and code, kind
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=60) == 0, out.read_text()
    finally:
        with contextlib.suppress(ProcessLookupError):  # its session: the thinking workers too
            os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    opened = _opened(log)
    assert not [p for p in opened if not p.is_relative_to(install.site)], sorted(opened)
    assert install.data("web/index.html") in opened
    assert install.data(f"web/{re.sub(r'^/static/[0-9a-f]+/', '', asset)}") in opened
