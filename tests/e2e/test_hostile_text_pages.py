"""Hostile text in every user-supplied field a page shows, in real headless Chromium at 1366x900
and 390x844: the event's name, entrant names, clubs, pad board names, pad match titles, room
player names and room chat, on the public event page, the director's console, the pad and its
watch page, a room with chat, the /games list and the replay. Each page shows the text
literally (``textContent``), injects no element (no ``img[src=x]``, no ``svg[onload]``, no
script run: ``window.__pwned`` stays undefined), throws no error and breaks no
Content-Security-Policy (the conftest checks that); names that refuse < > say so."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect
from tests.e2e.organiserkit import organiser_headers
from tests.e2e.tourneykit import VIEWPORTS
from tests.hostile_text import longest
from tests.server.roomkit import create_room, hello, send

from hikone_carrom.scoring.setup import MAX_NAME
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

INJECT = (
    "<img src=x onerror=window.__pwned=1>",
    "<script>window.__pwned=1</script>",
    '"><svg onload=window.__pwned=1>',
)
"""Markup that would add an element or run a script if a page parsed it as HTML."""

SAFE = ("{{7*7}}", '=HYPERLINK("x")', "A & B &amp; 'q' \"dq\"", "zero\u200bw\u200d", "髙﨑 彦根")
"""Hostile text a name may hold (no < >, no bidirectional override: hikone_carrom.name_text):
templates, formulas, entities, zero-width characters, rare kanji."""

PWNED = """() => ({
  pwned: window.__pwned,
  img: document.querySelectorAll('img[src=x], img[onerror]').length,
  svg: document.querySelectorAll('svg[onload], [onload], [onerror]').length,
  scripts: [...document.scripts].filter(s => s.textContent.includes('__pwned')).length,
})"""

MISSING = """([texts, until]) => {
  const shown = document.body.textContent;
  const missing = texts.filter(t => !shown.includes(t));
  return missing.length === 0 || Date.now() > until ? missing : null;
}"""
"""The texts the page does not show yet; waits up to ``until`` (ms since the epoch) for them."""


def _literal(page: Page, texts: list[str], where: str) -> None:
    """Every text is shown as written and nothing it holds became an element or ran."""
    until = page.evaluate("() => Date.now()") + 10_000
    missing = page.wait_for_function(MISSING, arg=[texts, until]).json_value()
    assert missing == [], (where, missing)
    assert page.evaluate(PWNED) == {"pwned": None, "img": 0, "svg": 0, "scripts": 0}, where


def _open(browser: Browser, kind: str, errors: list[str], init: str = "", lang: str = "ja") -> Page:
    """A page in a new context of ``kind`` (closed by the conftest); its errors go to ``errors``."""
    ctx = browser.new_context(locale="ja-JP" if lang == "ja" else "en-US", **VIEWPORTS[kind])
    ctx.add_init_script(f"localStorage.setItem('hikone-carrom.lang', '{lang}');{init}")
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(f"{kind} {page.url}: {e}"))
    return page


def _shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"hostile-{name}.png"), full_page=True)


# --- a championship ---------------------------------------------------------------------------


EVENT_NAME = " ".join(INJECT) + ' {{7*7}} =HYPERLINK("x") \u202e大会'
NAMES = [f"{s} {i}" for i, s in enumerate(SAFE)] + [longest("=長い名前", 60)]
CLUBS = [*INJECT, *SAFE[1:3], longest("所属", 60)]


def _director(server_url: str, tid: str, token: str) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}", "X-Operator": quote("{{7*7}} 運営")}
    return httpx.Client(base_url=f"{server_url}/api/tournaments/{tid}", headers=headers,
                        timeout=10)  # fmt: skip


def _championship(server_url: str) -> tuple[str, str, list[str]]:
    """An event with the hostile name, six entrants with hostile names (one at the longest, 60
    characters) and clubs, drawn and planned, board 1 called; (id, director token, the names of
    board 1's sides)."""
    r = httpx.post(f"{server_url}/api/tournaments", json={"name": EVENT_NAME, "boards": 2},
                   headers=organiser_headers(), timeout=10)  # fmt: skip
    r.raise_for_status()
    tid, token = r.json()["id"], r.json()["token"]
    with _director(server_url, tid, token) as c:
        for name, club in zip(NAMES, CLUBS, strict=True):
            member = {"name": name, "reading": "せんしゅ", "club": club}
            c.post("/entries", json={"division": "GS", "members": [member]}).raise_for_status()
        c.post("/divisions/GS/draw", json={}).raise_for_status()
        c.post("/plan").raise_for_status()
        call = c.post("/boards/1/call")
        call.raise_for_status()
    return tid, token, call.json()["sides"]


@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_an_event_with_hostile_names_shows_them_literally_on_its_public_and_director_pages(
    browser: Browser, server_url: str, artifacts: Path, kind: str
) -> None:
    tid, token, called = _championship(server_url)
    texts = [EVENT_NAME.strip(), *NAMES]
    on_boards = [EVENT_NAME.strip(), *called]
    errors: list[str] = []
    page = _open(browser, kind, errors)
    for tab in ("pools", "boards"):
        page.goto(f"{server_url}/t/{tid}?tab={tab}")
        _literal(page, texts if tab == "pools" else on_boards, f"public {tab}")
        _shot(page, artifacts, f"public-{tab}-{kind}")
    page.goto(f"{server_url}/t/{tid}?tab=find")
    page.locator("#find").fill(NAMES[0][:5])
    _literal(page, [NAMES[0]], "public find")

    init = f"localStorage.setItem('hikone-carrom.director.{tid}', '{token}');"
    page = _open(browser, kind, errors, init)
    page.goto(f"{server_url}/t/{tid}/director")
    _literal(page, [*texts, *CLUBS], "director entries")
    _shot(page, artifacts, f"director-entries-{kind}")
    for tab in ("boards", "results", "pools"):
        page.click(f"button[data-tab={tab}]")
        _literal(page, {"boards": on_boards, "results": texts}.get(tab, texts[:1]), tab)
        _shot(page, artifacts, f"director-{tab}-{kind}")
    page.click("button[data-tab=entries]")
    for bad in INJECT:  # a name a pad could not show is refused, the sentence shows it literally
        page.fill("#entry-name-0", bad)
        page.fill("#entry-reading-0", "せんしゅ")
        page.click("#entry-save")
        expect(page.locator("#entry-error")).to_contain_text(bad)
        expect(page.locator("#entry-error")).to_contain_text("制御文字")
        _literal(page, [bad], "director refusal")
    _shot(page, artifacts, f"director-refusal-{kind}")
    expect(page.locator("#entries tr")).to_have_count(len(NAMES))
    assert errors == []


# --- a scoring pad ----------------------------------------------------------------------------


BOARD_NAME = longest("{{7*7}} 第1台 &amp;\u200b", 40)
PLAYERS = [longest(f"{s} 選手", 40) for s in SAFE[:4]]
TITLE = ("<script>window.__pwned=1</script><img src=x onerror=window.__pwned=1>"
         '"><svg onload=1> {{7*7}}')[:80]  # fmt: skip


def test_a_pad_and_its_watch_page_show_hostile_board_players_and_title_literally(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    made = httpx.post(f"{server_url}/api/boards", json={"name": BOARD_NAME},
                      headers=organiser_headers(), timeout=10).json()  # fmt: skip
    errors: list[str] = []
    page = _open(browser, "phone", errors)
    page.goto(f"{server_url}/pad/{made['id']}#t={made['token']}")
    expect(page.locator("#setup")).to_be_visible()
    page.tap("#setup .segmented button:nth-child(2)")  # doubles: four names
    for seat, name in enumerate(PLAYERS):
        page.fill(f"input[name=name{seat}]", name)
    page.check("input[name=untimed]")  # re-draws the form: the title is typed after it
    page.fill("input[name=title]", TITLE)
    page.tap("#setup button[type=submit]")
    expect(page.locator("#turn")).to_be_visible()
    texts = [BOARD_NAME, TITLE, *PLAYERS]
    _shot(page, artifacts, "pad-phone")
    _literal(page, texts, "pad")
    page.set_viewport_size(VIEWPORTS["desktop"]["viewport"])
    _literal(page, texts, "pad desktop")
    _shot(page, artifacts, "pad-desktop")
    page.wait_for_function("() => window.__pad.pending() === 0")
    for kind in ("desktop", "phone"):
        watcher = _open(browser, kind, errors)
        watcher.goto(made["watch_url"])
        _literal(watcher, texts, f"watch {kind}")
        _shot(watcher, artifacts, f"watch-{kind}")
    assert errors == []


def test_a_championship_match_called_onto_a_pad_shows_the_hostile_names(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    tid, token, _ = _championship(server_url)
    r = httpx.post(f"{server_url}/api/tournaments/{tid}/pads", json={"boards": [2]},
                   headers=organiser_headers(), timeout=10)  # fmt: skip
    r.raise_for_status()
    link = r.json()["pads"][0]
    with _director(server_url, tid, token) as c:
        call = c.post("/boards/2/call")
    call.raise_for_status()
    errors: list[str] = []
    page = _open(browser, "phone", errors)
    page.goto(link["pad_url"])
    expect(page.locator("#turn")).to_be_visible()
    _literal(page, [s[:MAX_NAME] for s in call.json()["sides"]], "event pad")
    _shot(page, artifacts, "event-pad-phone")
    assert errors == []


# --- a room with chat, the games list, the replay -----------------------------------------------


SEAT_NAMES = [s[:24] for s in SAFE[:2]]
CHAT = [*INJECT, '{{7*7}} =HYPERLINK("x") &amp; 髙﨑', longest("長い", 200)]
BIDI_LINE = "\u202eRTL 髙﨑"
"""A chat line the room refuses (a bidi override could make it read as someone else's)."""


def _finished_game(db_url: str, names: list[str]) -> str:
    """A hot-seat game with ``names`` on the store at ``db_url``, ended by a resignation."""
    with TestClient(create_app(ServerSettings(db_url=db_url, ai_delay_s=0.0))) as client:
        made = create_room(client, mode="hotseat", players=2, names=names)
        with client.websocket_connect(f"/ws/rooms/{made['room_id']}") as ws:
            hello(ws, made["token"])
            send(ws, type="resign", seat=0)
            while not ws.receive_json().get("event", {}).get("state", {}).get("over"):
                pass
        return f"{made['room_id']}-1"


def _online_room(server_url: str) -> tuple[str, list[str]]:
    """An online room whose two seats are taken by players with hostile names; (id, tokens)."""
    r = httpx.post(f"{server_url}/api/rooms", json={"mode": "online", "name": SEAT_NAMES[0]},
                   timeout=10)  # fmt: skip
    r.raise_for_status()
    rid, token = r.json()["room_id"], r.json()["token"]
    joined = httpx.post(f"{server_url}/api/rooms/{rid}/seats/1", json={"name": SEAT_NAMES[1]},
                        timeout=10)  # fmt: skip
    joined.raise_for_status()
    return rid, [token, joined.json()["token"]]


def _room_page(
    browser: Browser, kind: str, errors: list[str], url: str, token: str | None = None
) -> Page:
    """The room at ``url`` in a new English context, seated with ``token`` (else a spectator)."""
    room = url.rsplit("/", 1)[1]
    init = (
        ""
        if token is None
        else f"localStorage.setItem('hikone-carrom.token.{room}', {json.dumps(token)});"
    )
    page = _open(browser, kind, errors, init, lang="en")
    page.goto(url)
    page.wait_for_function("() => window.__game && window.__game.state")
    return page


def _say(page: Page, line: str) -> None:
    box = page.locator("#chat input[name=text]")
    box.fill(line)
    page.locator("#chat form button[type=submit]").click()
    expect(box).to_have_value("")
    expect(page.locator("#chat .chat-lines li").last.locator(".what")).to_have_text(line)


def test_a_room_chat_the_games_list_and_the_replay_show_hostile_text_literally(
    browser: Browser, server_url: str, e2e_db_url: str, artifacts: Path
) -> None:
    rid, tokens = _online_room(server_url)
    url = f"{server_url}/room/{rid}"
    errors: list[str] = []
    texts = [*SEAT_NAMES, *CHAT]
    for kind, token, lines in (("desktop", tokens[0], CHAT[:3]), ("phone", tokens[1], CHAT[3:])):
        page = _room_page(browser, kind, errors, url, token)
        for line in lines:  # the chat takes 4 lines at once from one connection
            _say(page, line)
    page.locator("#chat input[name=text]").fill(BIDI_LINE)
    page.locator("#chat form button[type=submit]").click()
    expect(page.locator("#chat .chat-error")).to_have_text(
        "A message cannot contain control characters"
    )
    expect(page.locator("#chat .chat-lines li")).to_have_count(len(CHAT))
    # a spectator who comes later sees the names and the recent chat, on both sizes
    for kind in ("desktop", "phone"):
        page = _room_page(browser, kind, errors, url)
        _literal(page, texts, f"room {kind}")
        page.locator("#chat").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"hostile-room-{kind}.png"))

    names = [SAFE[0][:24], SAFE[3][:24]]
    game = _finished_game(e2e_db_url, names)
    for kind in ("desktop", "phone"):
        page = _open(browser, kind, errors, lang="en")
        page.goto(f"{server_url}/games")
        row = page.locator("#games-body tr", has=page.locator(f"a[href='/replay/{game}']"))
        expect(row).to_contain_text(" · ".join(names))
        _literal(page, names, f"games {kind}")
        _shot(page, artifacts, f"games-{kind}")
        page.goto(f"{server_url}/replay/{game}")
        page.wait_for_function("() => window.__replay")
        _literal(page, names, f"replay {kind}")
        _shot(page, artifacts, f"replay-{kind}")
    assert errors == []
