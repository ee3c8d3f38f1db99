"""End-to-end fixtures: the real server under uvicorn on a free loopback port, and Debian's
Chromium driven by Playwright (``executable_path``). Every test fails on a Content-Security-Policy
violation in any page it drives."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    sync_playwright,
)
from tests.e2e.gamekit import play_finished_game
from tests.e2e.organiserkit import organiser_env

from hikone_carrom.bench.server import CHROMIUM_ARGS

CHROMIUM = os.environ.get("HIKONE_CARROM_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def e2e_db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The store of the end-to-end server (SQLite; tests may add games to it in-process)."""
    return f"sqlite:///{tmp_path_factory.mktemp('e2e') / 'games.sqlite3'}"


@pytest.fixture(scope="session")
def server_url(e2e_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    code = (
        "from hikone_carrom.server import main; "
        f"raise SystemExit(main(['--port', '{port}', '--no-browser', '--db', '{e2e_db_url}', "
        "'--sockets-per-second', '1000']))"
    )  # the whole suite's pages come from 127.0.0.1, faster than anybody's browser
    # The server's output goes to a file: a pipe nobody reads would stop the server once full.
    log_path = tmp_path_factory.mktemp("e2e-server") / "server.log"
    log = log_path.open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=log, stderr=subprocess.STDOUT, env=organiser_env()
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180  # a busy machine: the store migrates, thinking warms up
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            log.close()
            raise RuntimeError(f"server did not start:\n{log_path.read_text(errors='replace')}")
        time.sleep(0.2)
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install -y chromium")
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    """Close the browser contexts a test opened, even when it fails: a page left open keeps
    drawing its board every frame and slows every later test."""
    before = set(browser.contexts)
    yield
    for ctx in browser.contexts:
        if ctx not in before:
            ctx.close()


CSP_WATCH = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || "inline"}`
    + ` in ${e.sourceFile || e.documentURI}:${e.lineNumber}`);
});
"""
"""Run before a page's own scripts on every navigation: reports each violation on the console."""


def _is_csp(message: ConsoleMessage) -> bool:
    text = message.text
    return text.startswith("CSP violation") or "Content Security Policy" in text


@pytest.fixture(scope="session", autouse=True)
def _csp_violations() -> Iterator[list[str]]:
    """The CSP violations any page reported: every context or page the tests open (also in
    module fixtures) is watched from its first navigation on."""
    seen: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if _is_csp(message):
            seen.append(f"{message.page.url if message.page else '?'}: {message.text}")

    def watch(target: BrowserContext | Page) -> None:
        target.add_init_script(CSP_WATCH)
        target.on("console", note)

    new_context, new_page = Browser.new_context, Browser.new_page

    def watched_context(self: Browser, *args: Any, **kwargs: Any) -> BrowserContext:
        ctx = new_context(self, *args, **kwargs)
        watch(ctx)
        return ctx

    def watched_page(self: Browser, *args: Any, **kwargs: Any) -> Page:
        page = new_page(self, *args, **kwargs)
        watch(page)
        return page

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Browser, "new_context", watched_context)
        patch.setattr(Browser, "new_page", watched_page)
        yield seen


@pytest.fixture(autouse=True)
def _no_csp_violation(_csp_violations: list[str]) -> Iterator[None]:
    """Fail the test if a page broke the Content-Security-Policy while it ran."""
    _csp_violations.clear()
    yield
    assert not _csp_violations, "\n".join(_csp_violations)


@pytest.fixture(scope="session")
def finished_game(server_url: str, e2e_db_url: str) -> str:
    """Id of a finished game in the server's store: a few real shots, then time runs out (R7b)."""
    return play_finished_game(e2e_db_url, shots=4)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
