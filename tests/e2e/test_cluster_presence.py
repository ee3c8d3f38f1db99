"""Presence in real headless Chromium when the two players of an online room are served by two
different server processes (``serve --redis --db postgresql``): each sees the other "online",
and "disconnected since" once the other leaves. Screenshots go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.e2e.gamekit import new_game
from tests.e2e.guestkit import answer_name
from tests.server.serverkit import running_servers

from hikone_carrom.bench.throwaway import (
    MISSING_MESSAGE,
    GameServer,
    PostgresCluster,
    RedisServer,
    find_bin_dir,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}, "locale": "en-US"}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "locale": "ja-JP",
}


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[GameServer, ...]]:
    """Two game servers sharing a throwaway PostgreSQL and Redis."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        pytest.fail(MISSING_MESSAGE)
    pg = PostgresCluster.start(bin_dir)
    redis = RedisServer.start()
    try:
        with running_servers(2, pg.database(), redis.url, tmp_path_factory.mktemp("logs")) as s:
            yield s
    finally:
        redis.stop()
        pg.stop()


def _ready(page: Page) -> None:
    page.wait_for_function("() => window.__game && window.__game.state")


def test_an_opponent_on_the_other_process_shows_online_then_disconnected(
    browser: Browser, two_processes: tuple[GameServer, ...], artifacts: Path
) -> None:
    a, b = two_processes
    errors: list[str] = []
    host_ctx = browser.new_context(**DESKTOP)
    guest_ctx = browser.new_context(**PHONE)
    try:
        host = host_ctx.new_page()
        host.on("pageerror", lambda e: errors.append(str(e)))
        url = new_game(host, a.base, "online")  # a owns the room
        guest = guest_ctx.new_page()
        guest.on("pageerror", lambda e: errors.append(str(e)))
        guest.goto(url.replace(a.base, b.base))  # the guest is served by b
        _ready(guest)
        guest.locator("#waiting button[data-seat='1']").tap()
        answer_name(guest)
        badge = host.locator("#seats .presence[data-seat='1']")
        expect(badge).to_have_text("online")
        expect(guest.locator("#seats .presence[data-seat='0']")).to_have_text("接続中")
        guest.locator("#seats").scroll_into_view_if_needed()
        guest.screenshot(path=str(artifacts / "presence-two-processes-phone-ja.png"))

        guest.close()
        expect(badge).to_contain_text("disconnected since ")
        host.locator("#seats").scroll_into_view_if_needed()
        host.screenshot(path=str(artifacts / "presence-two-processes-away-desktop-en.png"))
        back = guest_ctx.new_page()
        back.goto(url.replace(a.base, b.base))  # the seat token is kept by this browser
        _ready(back)
        expect(badge).to_have_text("online")
    finally:
        host_ctx.close()
        guest_ctx.close()
    assert errors == []
