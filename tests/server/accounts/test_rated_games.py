"""Rated games: an online game between accounts changes each player's rating by exactly what the
library gives (openskill, for singles and pairs); other games are not rated."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from tests.server.accounts.accountkit import browser, sign_up
from tests.server.roomkit import event, hello, send

from hikone_carrom.server.accounts.names import name_key
from hikone_carrom.server.accounts.ratings import rating_of


def _seated(client: TestClient, names: list[str], minutes: float | None) -> tuple[str, list[str]]:
    """An online room whose seats are taken by signed-in players, in order: id and tokens."""
    host = client
    csrf = sign_up(host, names[0])
    body: dict[str, Any] = {"mode": "online", "players": len(names), "minutes": minutes}
    made = host.post("/api/rooms", json=body, headers=csrf)
    assert made.status_code == 201, made.text
    rid, tokens = made.json()["room_id"], [made.json()["token"]]
    for seat, name in enumerate(names[1:], start=1):
        other = browser(client)
        header = sign_up(other, name)
        r = other.post(f"/api/rooms/{rid}/seats/{seat}", json={"name": ""}, headers=header)
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return rid, tokens


def _resign(client: TestClient, rid: str, tokens: list[str], seat: int) -> None:
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/rooms/{rid}")) for _ in tokens
        ]
        for ws, token in zip(sockets, tokens, strict=True):
            hello(ws, token)
        send(sockets[seat], type="resign", seat=seat)
        for ws in sockets:
            assert event(ws)["event"]["kind"] == "resign"


def _profile(client: TestClient, name: str) -> dict[str, Any]:
    r = client.get(f"/api/players/{name}")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_new_players_profile(client: TestClient) -> None:
    sign_up(client, "Newcomer")
    body = _profile(client, "newcomer")
    fresh = {"rating": 1500, "deviation": 350, "provisional": True, "games": 0}
    assert body["name"] == "Newcomer"
    assert body["ratings"] == {"5min": fresh, "untimed": fresh}
    assert body["pairs"] == {"5min": fresh, "untimed": fresh}


def test_an_unknown_player_is_404_in_both_languages(client: TestClient) -> None:
    r = client.get("/api/players/Nobody")
    assert r.status_code == 404
    detail = r.json()["detail"]
    assert detail["code"] == "no_player" and detail["en"] and detail["ja"]


def test_a_rated_singles_game_moves_both_ratings_as_openskill_gives(client: TestClient) -> None:
    rid, tokens = _seated(client, ["Red Rin", "Green Gen"], minutes=5)
    _resign(client, rid, tokens, 0)  # red resigns: green wins
    model = PlackettLuce(mu=1500, sigma=350, beta=175, tau=3.5)
    [red], [green] = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
    for name, player in (("Red Rin", red), ("Green Gen", green)):
        shown = _profile(client, name)["ratings"]
        assert shown["5min"] == {
            "rating": round(player.mu),
            "deviation": round(player.sigma),
            "provisional": True,
            "games": 1,
        }
        assert shown["untimed"]["games"] == 0
    account = client.app.state.accounts  # type: ignore[attr-defined]
    found = account.with_password(name_key("Green Gen"))
    view = rating_of(found[0].id, "5min")
    assert view.rating == pytest.approx(green.mu, abs=1e-9)
    assert view.deviation == pytest.approx(green.sigma, abs=1e-9)
    assert view.games == 1 and view.provisional


def test_a_rated_doubles_game_moves_the_four_as_openskill_gives(client: TestClient) -> None:
    names = ["Pair A1", "Pair B1", "Pair A2", "Pair B2"]  # seats 0, 2 red; 1, 3 green
    rid, tokens = _seated(client, names, minutes=None)
    _resign(client, rid, tokens, 1)  # green resigns: red wins
    model = PlackettLuce(mu=1500, sigma=350, beta=175, tau=3.5)
    teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    (a1, a2), (b1, b2) = model.rate(teams, ranks=[1, 2])
    for name, want in zip(names, (a1, b1, a2, b2), strict=True):
        got = _profile(client, name)["pairs"]["untimed"]
        assert got["rating"] == round(want.mu) and got["deviation"] == round(want.sigma)
        assert got["games"] == 1
    assert round(a1.mu) > 1500 > round(b1.mu)


def test_a_game_with_a_guest_or_an_unrated_time_is_not_rated(client: TestClient) -> None:
    csrf = sign_up(client, "Only Me")
    made = client.post("/api/rooms", json={"mode": "online", "minutes": 5}, headers=csrf).json()
    rid = made["room_id"]
    guest = browser(client).post(f"/api/rooms/{rid}/seats/1", json={"name": "Guest"}).json()
    _resign(client, rid, [made["token"], guest["token"]], 1)
    assert _profile(client, "Only Me")["ratings"]["5min"]["games"] == 0
    rid, tokens = _seated(client, ["Long One", "Long Two"], minutes=10)
    _resign(client, rid, tokens, 1)
    for name in ("Long One", "Long Two"):
        assert all(v["games"] == 0 for v in _profile(client, name)["ratings"].values())
