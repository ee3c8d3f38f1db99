"""The lobby and the accounts: a signed-in player's seek carries their account (name, rating,
CSRF), the game it is paired into is rated; a guest's stays anonymous and casual."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.accounts.accountkit import browser, sign_up
from tests.server.accounts.test_rated_games import _profile, _resign
from tests.server.lobby.test_seeks import poll, seek


def _seek(client: TestClient, csrf: dict[str, str], **body: Any) -> dict[str, str]:
    r = client.post("/api/seeks", json=body or {"minutes": 5, "players": 2}, headers=csrf)
    assert r.status_code == 201, r.text
    data: dict[str, str] = r.json()
    return data


def test_two_accounts_paired_by_the_lobby_play_a_rated_game(client: TestClient) -> None:
    other = browser(client)
    a = _seek(client, sign_up(client, "Lobby Rin"), name="ignored")
    b = _seek(other, sign_up(other, "Lobby Gen"))
    pa, pb = poll(client, a), poll(other, b)
    assert pa["status"] == pb["status"] == "paired" and pa["room"] == pb["room"]
    room = client.get(f"/api/rooms/{pa['room']}").json()["room"]
    names = {s["seat"]: s["name"] for s in room["seats"]}
    assert names[pa["seat"]] == "Lobby Rin" and names[pb["seat"]] == "Lobby Gen"
    live = client.get("/api/live").json()["games"]
    assert next(g for g in live if g["id"] == pa["room"])["rated"] is True
    tokens = [p["seat_token"] for p in sorted((pa, pb), key=lambda p: p["seat"])]
    loser = "Lobby Rin" if pa["seat"] == 0 else "Lobby Gen"
    _resign(client, pa["room"], tokens, 0)
    for name in ("Lobby Rin", "Lobby Gen"):
        shown = _profile(client, name)["ratings"]["5min"]
        assert shown["games"] == 1
        assert (shown["rating"] < 1500) is (name == loser)


def test_a_signed_in_seek_needs_the_csrf_token(client: TestClient) -> None:
    sign_up(client, "No Token")
    r = client.post("/api/seeks", json={"minutes": 5, "players": 2})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "csrf_refused"


def test_an_accounts_challenge_shows_its_name_and_rating(client: TestClient) -> None:
    csrf = sign_up(client, "Challenger")
    r = client.post("/api/challenges", json={"minutes": 0, "players": 2, "name": "x"}, headers=csrf)
    assert r.status_code == 201, r.text
    shown = client.get("/api/challenges").json()["challenges"]
    assert [(c["name"], c["rating"]) for c in shown] == [("Challenger", 1500.0)]


def test_a_guest_and_an_account_play_a_casual_game(client: TestClient) -> None:
    guest = browser(client)
    a = _seek(client, sign_up(client, "Half Rated"))
    b = seek(guest, minutes=5, players=2, name="Guest")
    pa, pb = poll(client, a), poll(guest, b)
    live = client.get("/api/live").json()["games"]
    assert next(g for g in live if g["id"] == pa["room"])["rated"] is False
    tokens = [p["seat_token"] for p in sorted((pa, pb), key=lambda p: p["seat"])]
    _resign(client, pa["room"], tokens, 0)
    assert _profile(client, "Half Rated")["ratings"]["5min"]["games"] == 0
