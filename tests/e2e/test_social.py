"""The social side in real headless Chromium, as players use it: two browsers (and a spectator)
in an online room, on a 1366x900 desktop and a 390x844 touch phone, in English and Japanese.

Invitation with QR code and the waiting state, presence, chat (escaped), draw offers, resigning,
the rematch vote with colours changing sides, hints shown to everyone, names on one device, my
games in progress, the post-game analysis. Screenshots go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from tests.e2e.gamekit import drag_shot, new_game, wait_my_turn
from tests.e2e.guestkit import answer_name

from hikone_carrom.ai.analysis import shot_numbers

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
LOCALE = {"en": "en-US", "ja": "ja-JP"}


class Players:
    """Browser contexts opened by a test, closed at its end; every page's errors are kept."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def page(self, size: dict[str, Any], lang: str) -> Page:
        ctx = self.browser.new_context(**size, locale=LOCALE[lang])
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def players(browser: Browser) -> Iterator[Players]:
    p = Players(browser)
    yield p
    p.close()
    assert p.errors == []


def _ready(page: Page) -> None:
    page.wait_for_function("() => window.__game && window.__game.state")


def _press(page: Page, locator: Any) -> None:
    """A click on the desktop, a tap on a touch phone."""
    if page.evaluate("() => navigator.maxTouchPoints > 0"):
        locator.tap()
    else:
        locator.click()


def _online_pair(
    players: Players,
    host_size: dict[str, Any],
    host_lang: str,
    guest_size: dict[str, Any],
    guest_lang: str,
    base: str,
) -> tuple[Page, Page, str]:
    """An online room made from the start page by the host and joined by the guest: the host's
    page, the guest's page and the room's link."""
    host = players.page(host_size, host_lang)
    url = new_game(host, base, "online")
    guest = players.page(guest_size, guest_lang)
    guest.goto(url)
    _ready(guest)
    _press(guest, guest.locator("#waiting button[data-seat='1']"))
    answer_name(guest)
    guest.wait_for_function("() => window.__game.mySeats.has(1) && !window.__game.state.waiting")
    host.wait_for_function("() => !window.__game.state.waiting")
    return host, guest, url


@pytest.mark.parametrize(
    ("host_size", "host_lang", "guest_size", "guest_lang", "tag"),
    [(DESKTOP, "en", PHONE, "ja", "desktop-en"), (PHONE, "en", DESKTOP, "ja", "phone-en")],
)
def test_invitation_first_waiting_state_and_live_presence(
    players: Players,
    server_url: str,
    artifacts: Path,
    host_size: dict[str, Any],
    host_lang: str,
    guest_size: dict[str, Any],
    guest_lang: str,
    tag: str,
) -> None:
    host = players.page(host_size, host_lang)
    url = new_game(host, server_url, "online")
    waiting = host.locator("#waiting")
    expect(waiting).to_be_visible()
    expect(waiting.locator("h2")).to_have_text("Waiting for players")
    expect(host.locator("#controls")).to_have_attribute("inert", "")
    qr = waiting.locator("img.qr")
    expect(qr).to_be_visible()
    host.wait_for_function("() => document.querySelector('#waiting img.qr').naturalWidth > 0")
    expect(waiting.locator("input")).to_have_value(url)
    box = waiting.locator(".wait-card").bounding_box()
    assert box is not None and box["y"] < host_size["viewport"]["height"] / 2  # first on screen
    copy = waiting.locator("button.copy")
    assert (copy.bounding_box() or {}).get("height", 0) >= 44
    host.screenshot(path=str(artifacts / f"invite-{tag}.png"))

    guest = players.page(guest_size, guest_lang)
    guest.goto(url)
    _ready(guest)
    take = guest.locator("#waiting button[data-seat='1']")
    expect(take).to_have_text("緑（北）で参加する")
    guest.screenshot(path=str(artifacts / f"invite-guest-{tag}-ja.png"))
    _press(guest, take)
    answer_name(guest)
    expect(guest.locator("#waiting")).to_be_hidden()
    expect(waiting).to_be_hidden()
    expect(host.locator("#controls")).not_to_have_attribute("inert", "")
    badge = host.locator("#seats .presence[data-seat='1']")
    expect(badge).to_have_text("online")
    expect(guest.locator("#seats .presence[data-seat='0']")).to_have_text("接続中")
    guest.locator("#seats").scroll_into_view_if_needed()
    guest.screenshot(path=str(artifacts / f"presence-online-{tag}-ja.png"))

    guest.close()
    expect(badge).to_contain_text("disconnected since ")
    host.locator("#seats").scroll_into_view_if_needed()
    host.screenshot(path=str(artifacts / f"presence-away-{tag}.png"))
    back = players.contexts[-1].new_page()
    back.goto(url)  # the seat token is kept by this browser
    _ready(back)
    assert back.evaluate("() => [...window.__game.mySeats]") == [1]
    expect(badge).to_have_text("online")


def test_chat_in_both_languages_escaped_limited_and_kept(
    players: Players, server_url: str, artifacts: Path
) -> None:
    host, guest, url = _online_pair(players, DESKTOP, "en", PHONE, "ja", server_url)
    watcher = players.page(DESKTOP, "ja")
    watcher.goto(url)
    _ready(watcher)
    expect(watcher.locator("#chat")).to_be_visible()
    expect(watcher.locator("#chat form")).to_be_hidden()  # spectators: set phrases only
    expect(watcher.locator("#chat .chat-note")).to_have_text("観戦者は定型文だけを送れます。")
    host.locator("#chat button[data-preset='hello']").click()
    expect(guest.locator("#chat .chat-lines li").last).to_contain_text("よろしくお願いします")
    expect(host.locator("#chat .chat-lines li").last).to_contain_text("Good game to you")
    watcher.locator("#chat button[data-preset='nice']").click()
    expect(host.locator("#chat .chat-lines li").last).to_contain_text("Spectator")
    expect(host.locator("#chat .chat-lines li").last).to_contain_text("Nice shot")

    script = "<script>window.__xss = 1</script><b>bold?</b> どうぞ"
    box = guest.locator("#chat input[name=text]")
    box.fill(script)
    _press(guest, guest.locator("#chat form button[type=submit]"))
    line = host.locator("#chat .chat-lines li").last
    expect(line.locator(".what")).to_have_text(script)
    expect(line.locator(".who")).to_have_text("Green (north)")
    expect(box).to_have_value("")
    for page in (host, guest, watcher):
        assert page.evaluate("() => window.__xss") is None
        assert page.locator("#chat .chat-lines b").count() == 0
    # refused lines: the reason next to the input, in the reader's language; nothing is sent
    host.evaluate(
        """() => {
          const i = document.querySelector('#chat input[name=text]');
          i.removeAttribute('maxlength');
          i.value = 'x'.repeat(201);
        }"""
    )
    host.locator("#chat form button[type=submit]").click()
    expect(host.locator("#chat .chat-error")).to_have_text(
        "A message may be at most 200 characters (this one has 201)"
    )
    guest.evaluate(
        "() => { document.querySelector('#chat input[name=text]').value = 'a\\u0007b'; }"
    )
    _press(guest, guest.locator("#chat form button[type=submit]"))
    expect(guest.locator("#chat .chat-error")).to_have_text("メッセージに制御文字は使えません")
    assert host.locator("#chat .chat-lines li").count() == 3
    host.locator("#chat").scroll_into_view_if_needed()
    host.screenshot(path=str(artifacts / "chat-desktop-en.png"))
    guest.locator("#chat").scroll_into_view_if_needed()
    guest.screenshot(path=str(artifacts / "chat-phone-ja.png"))
    # a reconnecting client sees the recent chat
    guest.reload()
    _ready(guest)
    expect(guest.locator("#chat .chat-lines li")).to_have_count(3)
    expect(guest.locator("#chat .chat-lines li").last.locator(".what")).to_have_text(script)


def test_draw_offer_declined_then_resign_and_a_rematch_with_colours_swapped(
    players: Players, server_url: str, artifacts: Path
) -> None:
    host, guest, _ = _online_pair(players, DESKTOP, "en", PHONE, "ja", server_url)
    host.locator("#actions button.draw-offer").click()
    offer = guest.locator("#actions .offer")
    expect(offer).to_contain_text("赤（南）が引き分けを申し出ています。")
    expect(host.locator("#actions .offer")).to_contain_text(
        "Draw offered: waiting for Green (north) to answer."
    )
    guest.locator("#actions").scroll_into_view_if_needed()
    guest.screenshot(path=str(artifacts / "draw-offer-phone-ja.png"))
    host.locator("#actions").scroll_into_view_if_needed()
    host.screenshot(path=str(artifacts / "draw-offer-desktop-en.png"))
    _press(guest, offer.locator("button.draw-decline"))
    expect(host.locator("#log li").first).to_contain_text("Green (north) declines the draw.")
    expect(host.locator("#actions .offer")).to_have_count(0)
    host.locator("#actions button.draw-offer").click()  # again at once: refused, with the reason
    expect(host.locator("#shot-error")).to_have_text(
        "Your draw offer was declined: offer again after the next shot"
    )
    # a shot's ruling names the players by colour and side, never by seat number
    wait_my_turn(host)
    drag_shot(host, pull=0.07)
    guest.wait_for_function(
        "() => window.__game.log.some(e => e.ev.kind === 'shot') && !window.__game.anim"
    )
    ruling = guest.locator("#log li").first.inner_text()
    assert ruling.startswith("赤（南） のショット。") and "席" not in ruling
    assert (
        "緑（北）の番に交替します（R3d）" in ruling or "赤（南）が続けて打ちます（R3a）" in ruling
    )

    host.locator("#actions button.resign").click()
    dialog = host.locator("#resign-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Red (south) gives up: Red loses at once.")
    host.screenshot(path=str(artifacts / "resign-dialog-desktop-en.png"))
    dialog.locator("button.resign-no").click()
    expect(dialog).to_be_hidden()
    assert host.evaluate("() => window.__game.state.over") is False
    _press(guest, guest.locator("#actions button.resign"))
    expect(guest.locator("#resign-dialog")).to_contain_text(
        "緑（北）が投了し、緑の負けになります。"
    )
    guest.screenshot(path=str(artifacts / "resign-dialog-phone-ja.png"))
    _press(guest, guest.locator("#resign-dialog button.resign-yes"))
    for page, title, detail in (
        (host, "Red wins", "Green resigned."),
        (guest, "赤の勝ち", "緑が投了しました。"),
    ):
        expect(page.locator("#endscreen")).to_be_visible()
        expect(page.locator("#end-title")).to_have_text(title)
        expect(page.locator("#end-detail")).to_have_text(detail)
    host.screenshot(path=str(artifacts / "resigned-end-desktop-en.png"))

    # the rematch needs both: offered, then accepted on the other side
    host.locator("#end-social button.rematch-offer").click()
    expect(host.locator("#end-social .rm-status")).to_have_text(
        "Waiting for Green (north) to accept the rematch…"
    )
    status = guest.locator("#end-social .rm-status")
    expect(status).to_have_text("赤（南）が再戦を申し込んでいます。")
    guest.locator("#endscreen").scroll_into_view_if_needed()
    guest.screenshot(path=str(artifacts / "rematch-asked-phone-ja.png"))
    assert host.evaluate("() => window.__game.state.over") is True
    _press(guest, guest.locator("#end-social button.rematch-accept"))
    for page in (host, guest):
        page.wait_for_function(
            "() => !window.__game.state.over && window.__game.room.game_number === 1"
        )
        assert page.evaluate("() => window.__game.room.seats.map(s => s.color)") == ["green", "red"]
        assert page.evaluate("() => window.__game.state.shooter") == 1  # red shoots first (R1b)
    wait_my_turn(guest)
    expect(guest.locator("#turn")).to_contain_text("あなたの番です")
    expect(host.locator("#seats li").first).to_contain_text("Green (south)")


def test_hints_are_off_online_unless_chosen_and_shown_to_everyone_when_used(
    players: Players, server_url: str, artifacts: Path
) -> None:
    plain_host, _, _ = _online_pair(players, DESKTOP, "en", DESKTOP, "en", server_url)
    expect(plain_host.locator("#hintbox")).to_be_hidden()
    host = players.page(DESKTOP, "en")
    host.goto(f"{server_url}/")
    host.check("input[name=mode][value=online]")
    hints = host.locator("#newgame input[name=hints]")
    expect(hints).not_to_be_checked()  # off by default online
    host.check("input[name=mode][value=computer]")
    expect(hints).to_be_checked()  # on by default against the computer
    host.check("input[name=mode][value=online]")
    hints.check()
    host.click("#newgame button[type=submit]")
    host.wait_for_url("**/room/*")
    _ready(host)
    guest = players.page(PHONE, "ja")
    guest.goto(host.url)
    _ready(guest)
    _press(guest, guest.locator("#waiting button[data-seat='1']"))
    answer_name(guest)
    wait_my_turn(host)
    host.locator("#hint-ask").click()
    expect(guest.locator("#log li").first).to_contain_text(
        "赤（南）がヒントを使いました。", timeout=60_000
    )
    expect(host.locator("#log li").first).to_contain_text("Red (south) used a hint.")
    guest.screenshot(path=str(artifacts / "hint-shown-phone-ja.png"))


def test_names_on_one_device_and_my_games_in_progress(
    players: Players, server_url: str, artifacts: Path
) -> None:
    page = players.page(PHONE, "ja")
    page.goto(f"{server_url}/")
    page.evaluate("() => localStorage.setItem('hikone-carrom.token.gone-room', 'nothing')")
    _press(page, page.locator("label.mode", has=page.locator("input[value=hotseat]")))
    expect(page.locator("#names")).to_be_visible()
    expect(page.locator("#newgame input[name=name]")).to_be_hidden()
    expect(page.locator("#names label").first).to_contain_text("赤（南）")
    page.fill("#names input[name=name0]", "花子")
    page.fill("#names input[name=name1]", "<Taro>")
    page.locator("#names").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "home-names-phone-ja.png"))
    _press(page, page.locator("#newgame button[type=submit]"))
    expect(page.locator("#err-name1")).to_have_text(
        "プレイヤー2の名前に < や > 、制御文字は使えません。"
    )
    page.fill("#names input[name=name1]", "Taro")
    _press(page, page.locator("#newgame button[type=submit]"))
    page.wait_for_url("**/room/*")
    _ready(page)
    room_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#seats li").first).to_contain_text("花子")
    expect(page.locator("#seats li").nth(1)).to_contain_text("Taro")
    wait_my_turn(page)
    _press(page, page.locator("#numeric button[type=submit]"))  # the aim as it stands
    page.wait_for_function("() => window.__game.log.length === 1 && !window.__game.anim")
    ruling = page.locator("#log li").first
    expect(ruling).to_contain_text("花子 のショット。")
    text = ruling.inner_text()
    assert ("Taro" in text or "花子" in text.split("。", 1)[1]) and "席" not in text
    page.goto(f"{server_url}/")
    mine = page.locator("#mygames")
    expect(mine).to_be_visible()
    item = mine.locator(f"li[data-room='{room_id}']")
    expect(item).to_contain_text("花子 · Taro")
    expect(item.locator("a")).to_have_text("続ける")
    assert page.evaluate("() => localStorage.getItem('hikone-carrom.token.gone-room')") is None
    page.screenshot(path=str(artifacts / "home-mygames-phone-ja.png"))
    _press(page, item.locator("a"))
    page.wait_for_url(f"**/room/{room_id}")


def test_analysis_of_a_finished_game_with_progress_and_chart(
    players: Players, server_url: str, finished_game: str, artifacts: Path
) -> None:
    page = players.page(DESKTOP, "en")
    record = page.request.get(f"{server_url}/api/games/{finished_game}/record").json()
    total = len(shot_numbers(record))  # the shots played (lost turns are not analysed)
    page.goto(f"{server_url}/replay/{finished_game}")
    card = page.locator("#analysis")
    ask = card.locator("button.analysis-ask")
    expect(ask).to_have_text("Analyse the game")
    ask.click()
    expect(card.locator(".analysis-status")).to_contain_text("Analysing shot")
    chart = card.locator("svg.analysis-chart")
    page.wait_for_function(  # shown as it grows: a part of the game's shots (polled each 0.7 s)
        "(total) => { const n = document.querySelectorAll('#analysis svg.analysis-chart g.shot')"
        ".length; return n >= 1 && n < total; }",
        arg=total,
        timeout=120_000,
    )
    page.screenshot(path=str(artifacts / "analysis-progress-desktop-en.png"))
    expect(chart.locator("g.shot")).to_have_count(total, timeout=240_000)
    expect(card.locator("progress")).to_be_hidden()
    ticks = chart.locator("text.tick").all_text_contents()
    assert {"0", "50", "100", "1", str(total)} <= set(ticks)
    expect(card.locator("table.accuracy tbody tr")).to_have_count(2)
    for acc in card.locator(".accuracy-value").all_inner_texts():
        assert acc.endswith("%") and 0 <= int(acc[:-1]) <= 100
    assert "Chance of success per shot" in (chart.get_attribute("aria-label") or "")
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "analysis-replay-desktop-en.png"))
    card.screenshot(path=str(artifacts / "analysis-chart-desktop-en.png"))
    page.click(".lang-switch button[data-lang=ja]")
    expect(card.locator("h3")).to_have_text("分析")
    expect(card.locator("table.accuracy th").nth(1)).to_have_text("正確さ")
    page.click(".lang-switch button[data-lang=en]")

    # in the room, the finished game's analysis is there for everyone (it is stored)
    phone = players.page(PHONE, "ja")
    room_id = finished_game.rsplit("-", 1)[0]
    phone.goto(f"{server_url}/room/{room_id}")
    _ready(phone)
    expect(phone.locator("#endscreen")).to_be_visible()
    room_card = phone.locator("#analysis")
    expect(room_card.locator("svg.analysis-chart g.shot")).to_have_count(total)
    expect(phone.locator("#end-social button.analysis-open")).to_be_hidden()
    room_card.scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "analysis-room-phone-ja.png"))
    # a shot of the chart opens the replay at that shot
    n = int(room_card.locator("g.shot").nth(2).get_attribute("data-n") or 0)
    _press(phone, room_card.locator("g.shot").nth(2))
    phone.wait_for_url(f"**/replay/{finished_game}?shot={n}")
    phone.wait_for_function("(n) => window.__replay && window.__replay.index === n", arg=n)
