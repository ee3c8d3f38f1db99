"""REST: rooms, seats, levels, games, OpenAPI."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.roomkit import create_room


def test_pages_and_static_client_are_served(client: TestClient) -> None:
    for path in ("/", "/games", "/room/abc", "/replay/abc-1"):
        r = client.get(path)
        assert r.status_code == 200
        assert "<canvas" in r.text or "tpl-room" in r.text
    assert client.get("/static/js/main.js").status_code == 200
    assert client.get("/static/style.css").status_code == 200


def test_openapi_lists_the_rest_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for p in (
        "/api/rooms",
        "/api/rooms/{room_id}",
        "/api/rooms/{room_id}/seats/{seat}",
        "/api/games",
        "/api/games/{game_id}/record",
        "/api/games/{game_id}/replay",
    ):
        assert p in paths


def test_hotseat_room_gives_one_token_for_every_seat(client: TestClient) -> None:
    made = create_room(client, mode="hotseat", players=4)
    assert made["seats"] == [0, 1, 2, 3]
    snap = client.get(f"/api/rooms/{made['room_id']}").json()
    assert snap["seq"] == 0
    assert snap["you"]["seats"] == []
    assert [s["side"] for s in snap["room"]["seats"]] == ["south", "west", "north", "east"]
    assert [s["color"] for s in snap["room"]["seats"]] == ["red", "green", "red", "green"]
    state = snap["state"]
    assert state["shooter"] == 0
    assert state["placement"]["kind"] == "point"  # R2a
    assert len(state["layout"]) == 25
    assert state["pile"] == ["jack"]
    assert state["counts"]["red"] == {"pocketed": 0, "debt": 0, "on_board": 12}


def test_bad_requests_are_refused_and_change_nothing(client: TestClient) -> None:
    assert client.post("/api/rooms", json={"mode": "solo"}).status_code == 422
    assert client.post("/api/rooms", json={"mode": "online", "players": 3}).status_code == 422
    assert client.post("/api/rooms", json={"mode": "online", "minutes": -1}).status_code == 422
    assert client.post("/api/rooms", json={"mode": "online", "extra": 1}).status_code == 422
    assert client.get("/api/rooms/nosuchroom").status_code == 404
    assert client.get("/api/rooms/bad%20id").status_code == 422
    assert client.get("/api/games/none-1").status_code == 404
    assert client.get("/api/games").json() == {"total": 0, "games": []}


def test_online_seats_are_taken_once(client: TestClient) -> None:
    made = create_room(client, mode="online", players=2, name="Aki")
    rid = made["room_id"]
    assert made["seats"] == [0]
    snap = client.get(f"/api/rooms/{rid}").json()
    assert [s["kind"] for s in snap["room"]["seats"]] == ["human", "open"]
    assert snap["state"]["waiting"] is True
    r = client.post(f"/api/rooms/{rid}/seats/1", json={"name": "Ben"})
    assert r.status_code == 200
    token = r.json()["token"]
    assert token != made["token"]
    again = client.post(f"/api/rooms/{rid}/seats/1", json={"name": "Cy"})
    assert again.status_code == 409
    assert again.json()["detail"]["code"] == "seat_taken"
    assert client.post(f"/api/rooms/{rid}/seats/7", json={}).status_code == 404
    snap = client.get(f"/api/rooms/{rid}").json()
    assert snap["seq"] == 1
    assert snap["room"]["seats"][1]["name"] == "Ben"
    assert snap["state"]["waiting"] is False
