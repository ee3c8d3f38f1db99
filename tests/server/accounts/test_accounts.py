"""Sign-up, sign-in, sign-out (here and everywhere): names, passwords, cookies, CSRF, limits,
and that one account's session cannot act for another."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.accounts.accountkit import PASSWORD, browser, sign_up


def _refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert detail["code"] == code and detail["en"] and detail["ja"], detail


def test_sign_up_signs_the_browser_in_with_a_safe_cookie(client: TestClient) -> None:
    r = client.post("/api/account/signup", json={"name": " 山田 花子 ", "password": PASSWORD})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["account"]["name"] == "山田 花子" and len(body["csrf"]) >= 32
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("hc_session=")
    flags = {part.strip().lower() for part in cookie.split(";")}
    assert {"httponly", "samesite=lax", "path=/"} <= flags
    assert "secure" not in flags  # plain HTTP: a Secure cookie would never come back
    me = client.get("/api/account").json()
    assert me == {"account": body["account"], "csrf": body["csrf"]}


def test_the_cookie_is_secure_over_tls(client: TestClient) -> None:
    tls = TestClient(client.app, base_url="https://testserver")
    r = tls.post("/api/account/signup", json={"name": "Secure Sam", "password": PASSWORD})
    assert r.status_code == 201, r.text
    assert "secure" in {p.strip().lower() for p in r.headers["set-cookie"].split(";")}


def test_the_session_token_is_not_stored_as_it_is(client: TestClient) -> None:
    sign_up(client, "Hidden")
    token = client.cookies["hc_session"]
    rows = client.app.state.store.engine.connect().exec_driver_sql(  # type: ignore[attr-defined]
        "SELECT token_hash FROM account_sessions"
    )
    hashes = [row[0] for row in rows]
    assert len(hashes) == 1 and token not in hashes[0]


def test_a_guest_is_nobody(client: TestClient) -> None:
    assert client.get("/api/account").json() == {"account": None, "csrf": None}
    client.cookies.set("hc_session", "made-up")
    assert client.get("/api/account").json() == {"account": None, "csrf": None}


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("<b>bold</b>", "bad_name"),
        ("a\u200bb", "bad_name"),  # zero-width space: invisible
        ("tab\tname", "bad_name"),
        ("evil\u202ename", "bad_name"),
        ("x", "bad_name"),
        ("y" * 25, "bad_name"),
        ("---", "bad_name"),
    ],
)
def test_names_with_markup_control_or_wrong_length_are_refused(
    client: TestClient, name: str, code: str
) -> None:
    r = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    _refused(r, 422, code)
    assert "hc_session" not in client.cookies


def test_a_short_password_is_refused(client: TestClient) -> None:
    r = client.post("/api/account/signup", json={"name": "Shorty", "password": "1234567"})
    _refused(r, 422, "bad_password")


@pytest.mark.parametrize(
    ("first", "imitation"),
    [
        ("Hanako", "hanako"),
        ("Hanako", "ＨＡＮＡＫＯ"),  # full-width
        ("Hanako", "Hаnako"),  # Cyrillic a
        ("Hanako", "han_ako"),
        ("Ken1", "Kenl"),
        ("Modern", "Modem"),  # rn / m
        ("はなこ", "ハナコ"),  # hiragana / katakana
        ("ハナコ", "ﾊﾅｺ"),  # half-width kana
        ("キャロム", "キヤロム"),  # small kana
        ("カロム", "ｶﾛﾑ"),
        ("José", "Jose"),
    ],
)
def test_a_name_imitating_another_is_refused(
    client: TestClient, first: str, imitation: str
) -> None:
    sign_up(client, first)
    other = browser(client)
    r = other.post("/api/account/signup", json={"name": imitation, "password": PASSWORD})
    _refused(r, 409, "name_taken")


def test_sign_in_with_the_right_password_only(client: TestClient) -> None:
    sign_up(browser(client), "Taro")
    wrong = client.post("/api/account/signin", json={"name": "Taro", "password": "nope nope"})
    unknown = client.post("/api/account/signin", json={"name": "Jiro", "password": PASSWORD})
    for r in (wrong, unknown):
        _refused(r, 401, "wrong_password")
    assert client.get("/api/account").json()["account"] is None
    r = client.post("/api/account/signin", json={"name": "ＴＡＲＯ", "password": PASSWORD})
    assert r.status_code == 200, r.text
    assert client.get("/api/account").json()["account"]["name"] == "Taro"


def test_sign_ups_and_sign_ins_are_rate_limited(client: TestClient) -> None:
    for n in range(5):
        sign_up(browser(client), f"Player {n}")
    r = client.post("/api/account/signup", json={"name": "Player 9", "password": PASSWORD})
    _refused(r, 429, "rate_limited")
    assert int(r.headers["retry-after"]) >= 1
    codes = [
        client.post("/api/account/signin", json={"name": "Player 1", "password": "wrong pass"})
        for _ in range(12)  # 10 at once; the hashing's seconds may let one or two more through
    ]
    assert [r.status_code for r in codes[:10]] == [401] * 10
    _refused(codes[-1], 429, "rate_limited")
    r = client.post("/api/account/signin", json={"name": "Player 1", "password": PASSWORD})
    _refused(r, 429, "rate_limited")  # refused before the password is even looked at


def test_sign_out_needs_the_csrf_token(client: TestClient) -> None:
    csrf = sign_up(client, "Csrf Carol")
    _refused(client.post("/api/account/signout"), 403, "csrf_refused")
    bad = {"X-CSRF-Token": "x" * 32}
    _refused(client.post("/api/account/signout", headers=bad), 403, "csrf_refused")
    assert client.get("/api/account").json()["account"]["name"] == "Csrf Carol"
    token = client.cookies["hc_session"]
    r = client.post("/api/account/signout", headers=csrf)
    assert r.status_code == 204
    assert client.get("/api/account").json()["account"] is None
    client.cookies.set("hc_session", token)  # the old cookie is no use any more
    assert client.get("/api/account").json()["account"] is None
    _refused(client.post("/api/account/signout", headers=csrf), 401, "not_signed_in")


def test_sign_out_everywhere_ends_every_session_of_that_account_only(client: TestClient) -> None:
    csrf = sign_up(client, "Everywhere")
    phone = browser(client)
    r = phone.post("/api/account/signin", json={"name": "Everywhere", "password": PASSWORD})
    assert r.status_code == 200
    someone = browser(client)
    sign_up(someone, "Someone Else")
    _refused(client.post("/api/account/signout-everywhere"), 403, "csrf_refused")
    r = client.post("/api/account/signout-everywhere", headers=csrf)
    assert r.status_code == 200 and r.json() == {"signed_out": 2}
    assert client.get("/api/account").json()["account"] is None
    assert phone.get("/api/account").json()["account"] is None
    assert someone.get("/api/account").json()["account"]["name"] == "Someone Else"


def test_one_accounts_csrf_token_does_not_act_for_another(client: TestClient) -> None:
    mine = sign_up(client, "Mine")
    other = browser(client)
    sign_up(other, "Theirs")
    _refused(other.post("/api/account/signout", headers=mine), 403, "csrf_refused")
    _refused(other.post("/api/account/signout-everywhere", headers=mine), 403, "csrf_refused")
    assert other.get("/api/account").json()["account"]["name"] == "Theirs"
    r = other.post("/api/rooms", json={"mode": "online"}, headers=mine)
    _refused(r, 403, "csrf_refused")


def test_a_signed_in_player_sits_under_the_accounts_name(client: TestClient) -> None:
    csrf = sign_up(client, "Seated Sue")
    _refused(client.post("/api/rooms", json={"mode": "online"}), 403, "csrf_refused")
    made = client.post("/api/rooms", json={"mode": "online", "name": "Fake"}, headers=csrf)
    assert made.status_code == 201, made.text
    room = client.get(f"/api/rooms/{made.json()['room_id']}").json()["room"]
    assert room["seats"][0]["name"] == "Seated Sue"
    guest = browser(client)
    r = guest.post(f"/api/rooms/{made.json()['room_id']}/seats/1", json={"name": "Guest G"})
    assert r.status_code == 200, r.text
    room = client.get(f"/api/rooms/{made.json()['room_id']}").json()["room"]
    assert room["seats"][1]["name"] == "Guest G"


def test_bad_bodies_are_refused(client: TestClient) -> None:
    for body in ({}, {"name": "A" * 65, "password": PASSWORD}, {"name": "Ok", "password": 5}):
        r = client.post("/api/account/signup", json=body)
        assert r.status_code == 422, r.text
        r = client.post("/api/account/signin", json=body)
        assert r.status_code == 422, r.text
