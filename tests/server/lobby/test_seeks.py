"""The lobby's REST contract: seeks paired into one room, tokens that prove one seek only,
withdrawal, expiry, bounds and bad input."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.roomkit import hello

from hikone_carrom.server.lobby.book import Lobby


def seek(client: TestClient, **body: Any) -> dict[str, str]:
    r = client.post("/api/seeks", json=body or {"minutes": 5, "players": 2})
    assert r.status_code == 201, r.text
    data: dict[str, str] = r.json()
    assert set(data) == {"id", "token"}
    return data


def poll(client: TestClient, s: dict[str, str]) -> dict[str, Any]:
    r = client.get(f"/api/seeks/{s['id']}", headers={"Authorization": f"Bearer {s['token']}"})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def lobby_of(client: TestClient) -> Lobby:
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    return lobby


def test_two_seeks_are_paired_into_one_room_with_the_seat_tokens(client: TestClient) -> None:
    a = seek(client, minutes=5, players=2, name="花子")
    assert poll(client, a) == {"status": "waiting"}
    b = seek(client, minutes=5, players=2, name="Taro")
    pa, pb = poll(client, a), poll(client, b)  # paired at once on the second POST
    assert pa["status"] == pb["status"] == "paired"
    assert pa["room"] == pb["room"]
    assert {pa["seat"], pb["seat"]} == {0, 1}
    room = client.get(f"/api/rooms/{pa['room']}").json()
    assert room["room"]["mode"] == "online"
    assert room["state"]["clock"]["limit_s"] == 300.0  # the championship's 5 minutes (R7b)
    assert room["state"]["clock"]["shot_time_s"] == 10.0  # the 10-second rule (R8a)
    names = {s["seat"]: s["name"] for s in room["room"]["seats"]}
    assert names[pa["seat"]] == "花子" and names[pb["seat"]] == "Taro"
    for p in (pa, pb):  # the seat token is the room's own: hello seats its holder
        with client.websocket_connect(f"/ws/rooms/{p['room']}") as ws:
            assert hello(ws, p["seat_token"])["you"]["seats"] == [p["seat"]]


def test_nobody_else_can_sit_in_a_paired_room(client: TestClient) -> None:
    s = seek(client, minutes=0, players=4)
    for _ in range(3):
        seek(client, minutes=0, players=4)
    p = poll(client, s)
    room = client.get(f"/api/rooms/{p['room']}").json()
    assert room["room"]["players"] == 4
    assert all(seat["kind"] == "human" for seat in room["room"]["seats"])
    assert room["state"]["clock"] is None  # 0 minutes: untimed
    r = client.post(f"/api/rooms/{p['room']}/seats/0", json={"name": "x"})
    assert r.status_code == 409


def test_incompatible_seeks_wait(client: TestClient) -> None:
    a = seek(client, minutes=5, players=2)
    b = seek(client, minutes=0, players=2)
    c = seek(client, minutes=5, players=4)
    assert [poll(client, s)["status"] for s in (a, b, c)] == ["waiting"] * 3


def test_a_seek_token_cannot_read_or_withdraw_another_seek(client: TestClient) -> None:
    a, b = seek(client, players=4), seek(client, players=4)
    other = {"Authorization": f"Bearer {b['token']}"}
    for method in ("GET", "DELETE"):
        r = client.request(method, f"/api/seeks/{a['id']}", headers=other)
        assert r.status_code == 403 and r.json()["detail"]["code"] == "bad_token"
        r = client.request(method, f"/api/seeks/{a['id']}")
        assert r.status_code == 401 and r.json()["detail"]["ja"]
    assert poll(client, a) == {"status": "waiting"}


def test_a_withdrawn_seek_is_over_and_never_paired(client: TestClient) -> None:
    a = seek(client)
    auth = {"Authorization": f"Bearer {a['token']}"}
    assert client.delete(f"/api/seeks/{a['id']}", headers=auth).status_code == 204
    r = client.get(f"/api/seeks/{a['id']}", headers=auth)
    assert r.status_code == 404 and r.json()["detail"]["code"] == "no_seek"
    b = seek(client)
    assert poll(client, b) == {"status": "waiting"}


def test_a_seek_not_polled_expires(client: TestClient) -> None:
    lobby = lobby_of(client)
    lobby.expire_s = 0.3
    a = seek(client)
    time.sleep(0.5)
    auth = {"Authorization": f"Bearer {a['token']}"}
    assert client.get(f"/api/seeks/{a['id']}", headers=auth).status_code == 404
    b = seek(client)
    for _ in range(3):  # polled often enough, it stays
        time.sleep(0.15)
        assert poll(client, b) == {"status": "waiting"}


def test_a_seek_waiting_is_paired_by_the_background_within_a_second(client: TestClient) -> None:
    lobby = lobby_of(client)
    a = seek(client)
    lobby.seeks[a["id"]].challenge = True  # kept out of the pairing on POST ...
    b = seek(client)
    lobby.seeks[a["id"]].challenge = False  # ... so that only the background pairs them
    deadline = time.monotonic() + 1.0
    while poll(client, b)["status"] == "waiting":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert poll(client, a)["room"] == poll(client, b)["room"]


@pytest.mark.parametrize(
    "body",
    [
        {"minutes": 3},
        {"players": 3},
        {"minutes": "5"},
        {"name": "<b>x</b>"},
        {"name": "x" * 25},
        {"minutes": 5, "colour": "red"},
    ],
)
def test_bad_seeks_are_refused_in_both_languages(client: TestClient, body: Any) -> None:
    r = client.post("/api/seeks", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"]["ja"] and r.json()["detail"]["en"]
    assert lobby_of(client).seeks == {}


def test_bad_seek_ids_are_refused(client: TestClient) -> None:
    r = client.get("/api/seeks/../x", headers={"Authorization": "Bearer x"})
    assert r.status_code == 404
    r = client.get("/api/seeks/" + "a" * 40, headers={"Authorization": "Bearer x"})
    assert r.status_code == 422


def test_seeks_from_one_address_are_rate_limited(client: TestClient) -> None:
    client.app.state.seek_rate.per_minute = 2.0  # type: ignore[attr-defined]
    client.app.state.seek_rate.burst = 2  # type: ignore[attr-defined]
    client.app.state.seek_rate._buckets.clear()  # type: ignore[attr-defined]
    seek(client, players=4)
    seek(client, players=4)
    r = client.post("/api/seeks", json={"players": 4})
    assert r.status_code == 429 and r.headers["retry-after"]
    assert r.json()["detail"]["code"] == "rate_limited" and r.json()["detail"]["ja"]
    assert client.post("/api/challenges", json={}).status_code == 429


def test_the_lobby_holds_a_bounded_number_of_seeks(client: TestClient) -> None:
    lobby_of(client).max_seeks = 3
    for _ in range(3):
        seek(client, players=4)
    r = client.post("/api/seeks", json={"players": 4})
    assert r.status_code == 503 and r.json()["detail"]["code"] == "lobby_full"
    assert r.json()["detail"]["ja"]
    assert len(lobby_of(client).seeks) == 3
