"""Open challenges (listed, accepted, paired like seeks) and the live games list."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.lobby.test_seeks import lobby_of, poll, seek
from tests.server.roomkit import create_room

from hikone_carrom.server.lobby.book import LiveInfo


def challenge(client: TestClient, **body: Any) -> dict[str, str]:
    r = client.post("/api/challenges", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, str] = r.json()
    return data


def accept(client: TestClient, cid: str, name: str = "") -> dict[str, str]:
    r = client.post(f"/api/challenges/{cid}/accept", json={"name": name})
    assert r.status_code == 201, r.text
    data: dict[str, str] = r.json()
    return data


def test_a_challenge_is_listed_without_tokens_and_not_paired_with_seeks(
    client: TestClient,
) -> None:
    c = challenge(client, minutes=5, players=2, name="花子")
    s = seek(client, minutes=5, players=2)
    assert poll(client, c) == poll(client, s) == {"status": "waiting"}
    [shown] = client.get("/api/challenges").json()["challenges"]
    assert shown["id"] == c["id"] and shown["name"] == "花子"
    assert (shown["minutes"], shown["players"], shown["seats_taken"]) == (5, 2, 1)
    assert c["token"] not in str(shown)


def test_accepting_a_challenge_pairs_both_in_one_room(client: TestClient) -> None:
    c = challenge(client, minutes=0, players=2, name="花子")
    a = accept(client, c["id"], "Taro")
    pc, pa = poll(client, c), poll(client, a)
    assert pc["status"] == pa["status"] == "paired" and pc["room"] == pa["room"]
    assert client.get("/api/challenges").json()["challenges"] == []
    r = client.post(f"/api/challenges/{c['id']}/accept", json={})
    assert r.status_code == 404 and r.json()["detail"]["code"] == "no_challenge"


def test_a_doubles_challenge_is_paired_when_three_have_accepted(client: TestClient) -> None:
    c = challenge(client, players=4)
    joined = [accept(client, c["id"]) for _ in range(2)]
    assert client.get("/api/challenges").json()["challenges"][0]["seats_taken"] == 3
    assert all(poll(client, s) == {"status": "waiting"} for s in (c, *joined))
    joined.append(accept(client, c["id"]))
    rooms = {poll(client, s)["room"] for s in (c, *joined)}
    seats = {poll(client, s)["seat"] for s in (c, *joined)}
    assert len(rooms) == 1 and seats == {0, 1, 2, 3}


def test_a_withdrawn_challenge_is_no_longer_listed_or_accepted(client: TestClient) -> None:
    c = challenge(client)
    auth = {"Authorization": f"Bearer {c['token']}"}
    assert client.delete(f"/api/seeks/{c['id']}", headers=auth).status_code == 204
    assert client.get("/api/challenges").json()["challenges"] == []
    assert client.post(f"/api/challenges/{c['id']}/accept", json={}).status_code == 404
    assert client.post("/api/challenges/nope/accept", json={}).status_code == 404


def test_the_live_list_shows_games_in_play_highest_rated_first(client: TestClient) -> None:
    create_room(client, mode="online")  # still waiting for a player: not live
    create_room(client, mode="computer")  # not online: not listed
    pairs = []
    for _ in range(3):
        a, b = seek(client, minutes=5, name="花子"), seek(client, minutes=5, name="Taro")
        pairs.append((poll(client, a), poll(client, b)))
    rooms = [a["room"] for a, _ in pairs]
    lobby = lobby_of(client)
    lobby.games[rooms[0]] = LiveInfo(True, (1500.0, 1510.0), "2026-12-07T10:00:00+00:00")
    lobby.games[rooms[2]] = LiveInfo(True, (1900.0, 1700.0), "2026-12-07T09:00:00+00:00")
    games = client.get("/api/live").json()["games"]
    assert [g["id"] for g in games] == [rooms[2], rooms[0], rooms[1]]
    assert games[0]["rated"] and games[0]["ratings"] == [1900.0, 1700.0]
    assert not games[2]["rated"] and games[2]["ratings"] == [None, None]
    assert sorted(games[2]["players"]) == ["Taro", "花子"] and games[2]["minutes"] == 5
    assert all("token" not in str(g) for g in games)


def test_a_finished_game_leaves_the_live_list(client: TestClient) -> None:
    a, b = seek(client, minutes=0), seek(client, minutes=0)
    pa = poll(client, a)
    with client.websocket_connect(f"/ws/rooms/{pa['room']}") as ws:
        ws.send_json({"type": "hello", "token": pa["seat_token"], "last_seq": 0})
        ws.receive_json()
        ws.send_json({"type": "resign", "seat": pa["seat"]})
        while ws.receive_json()["type"] != "event":
            pass
    assert poll(client, b)["room"] == pa["room"]
    assert client.get("/api/live").json()["games"] == []
