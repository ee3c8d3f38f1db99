"""Lighthouse (pinned in package.json, mobile preset) scores every audited page at least 95 in
performance, accessibility, best practices and SEO; the four scores of each page are printed.
One Debian Chromium serves every run, the pages one after the other."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.e2e.auditkit import LIGHTHOUSE, PLAYER, audited_pages

pytestmark = [pytest.mark.e2e]

TARGET = 95
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROMIUM = os.environ.get("HIKONE_CARROM_CHROMIUM", "/usr/bin/chromium")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def chromium(tmp_path: Path) -> Iterator[int]:
    """Debian's Chromium, headless, listening for Lighthouse on a free debugging port."""
    port = _free_port()
    proc = subprocess.Popen(
        [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--remote-debugging-port={port}", f"--user-data-dir={tmp_path / 'profile'}",
         "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=1):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("Chromium did not open its debugging port") from None
            time.sleep(0.2)
    yield port
    proc.terminate()
    proc.wait(timeout=10)


def _scores(url: str, port: int, report: Path) -> dict[str, int]:
    subprocess.run(
        [shutil.which("node") or "node", str(LIGHTHOUSE), url, f"--port={port}", "--quiet",
         f"--only-categories={','.join(CATEGORIES)}", "--output=json",
         f"--output-path={report}", "--max-wait-for-load=30000"],
        check=True, timeout=120, env={**os.environ, "CHROME_PATH": CHROMIUM},
    )  # fmt: skip
    found = json.loads(report.read_text())
    assert not found.get("runtimeError"), found["runtimeError"]
    return {c: round(100 * (found["categories"][c]["score"] or 0)) for c in CATEGORIES}


def test_every_page_scores_at_least_95_on_a_phone(
    chromium: int, server_url: str, finished_game: str, artifacts: Path
) -> None:
    assert LIGHTHOUSE.exists(), f"{LIGHTHOUSE} missing: npm ci"
    low = []
    for name, url in audited_pages(server_url, finished_game).items():
        if name == PLAYER:
            continue  # a fresh Lighthouse tab holds no seat: the room is audited as a spectator's
        slug = name.split()[0]
        scores = _scores(url, chromium, artifacts / f"lighthouse-{slug}.json")
        print(f"lighthouse {slug:13} " + " ".join(f"{c} {s}" for c, s in scores.items()))
        low += [f"{slug}: {c} {s}" for c, s in scores.items() if s < TARGET]
    assert not low, f"below {TARGET}: " + ", ".join(low)
