"""The puzzles' REST: the list, the position without its solution, attempts judged by the
physics and the referee as a game, the solution after a solve or a give-up, the daily puzzle."""

from __future__ import annotations

import datetime as dt

from fastapi.testclient import TestClient

from hikone_carrom.learn import load_shipped
from hikone_carrom.learn.daily import daily_puzzle
from hikone_carrom.server.puzzles.routes import ATTEMPTS_PER_MINUTE

FIRST = load_shipped()[0]


def test_the_list_is_paged_and_names_id_goal_and_difficulty(client: TestClient) -> None:
    page = client.get("/api/puzzles", params={"offset": 1, "limit": 3}).json()
    assert page["total"] == len(load_shipped()) and page["offset"] == 1
    assert [p["id"] for p in page["puzzles"]] == [p.id for p in load_shipped()[1:4]]
    first = client.get("/api/puzzles", params={"limit": 1}).json()["puzzles"][0]
    assert set(first) == {"id", "goal", "goal_text", "difficulty"}
    assert first["goal_text"]["ja"] and first["goal_text"]["en"]
    assert client.get("/api/puzzles", params={"limit": 101}).status_code == 422


def test_a_puzzle_gives_its_position_and_goal_but_never_its_solution(client: TestClient) -> None:
    r = client.get(f"/api/puzzles/{FIRST.id}")
    assert r.status_code == 200
    view = r.json()
    assert view["goal"] == FIRST.goal.value
    assert len(view["state"]["layout"]) == len(FIRST.layout)
    assert view["state"]["placement"] is not None
    for secret in ("solution", "greedy", "robustness"):
        assert secret not in r.text


def test_an_unknown_puzzle_is_refused_in_both_languages(client: TestClient) -> None:
    r = client.get("/api/puzzles/p9999")
    assert r.status_code == 404
    detail = r.json()["detail"]
    assert detail["code"] == "no_such_puzzle" and detail["en"] and detail["ja"]


def test_the_solution_solves_and_then_is_given(client: TestClient) -> None:
    shot = FIRST.solution.to_dict()
    answer = client.post(f"/api/puzzles/{FIRST.id}/attempts", json=shot).json()
    assert answer["reached"] is True
    assert answer["solution"]["shot"] == shot
    assert answer["play"]["tracks"] and answer["play"]["explain"]["ja"]


def test_greedys_shot_fails_and_gives_no_solution(client: TestClient) -> None:
    answer = client.post(f"/api/puzzles/{FIRST.id}/attempts", json=FIRST.greedy.to_dict())
    assert answer.status_code == 200
    assert answer.json()["reached"] is False and "solution" not in answer.json()


def test_an_illegal_placement_is_refused_with_its_reason(client: TestClient) -> None:
    shot = FIRST.solution.to_dict() | {"x": 0.0, "y": 0.0}
    r = client.post(f"/api/puzzles/{FIRST.id}/attempts", json=shot)
    assert r.status_code == 409
    assert r.json()["detail"]["code"] == "illegal_shot" and r.json()["detail"]["ja"]


def test_giving_up_shows_the_solution_played(client: TestClient) -> None:
    answer = client.post(f"/api/puzzles/{FIRST.id}/give-up").json()
    assert answer["solution"]["shot"] == FIRST.solution.to_dict()
    assert answer["solution"]["play"]["tracks"]


def test_the_daily_puzzle_is_the_same_all_day(client: TestClient) -> None:
    answer = client.get("/api/puzzles/daily").json()
    today = dt.date.fromisoformat(answer["date"])
    assert answer["id"] == daily_puzzle(load_shipped(), today).id
    assert "solution" not in answer
    assert client.get("/api/puzzles/daily").json()["id"] == answer["id"]


def test_the_daily_puzzle_changes_with_the_date() -> None:
    puzzles = load_shipped()
    days = {daily_puzzle(puzzles, dt.date(2026, 12, 1) + dt.timedelta(d)).id for d in range(30)}
    assert len(days) >= min(len(puzzles), 30) // 2


def test_attempts_are_limited_per_address(client: TestClient) -> None:
    url = f"/api/puzzles/{FIRST.id}/give-up"
    for _ in range(ATTEMPTS_PER_MINUTE):
        assert client.post(url).status_code == 200
    refused = client.post(url)
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    assert refused.json()["detail"]["code"] == "rate_limited"
    assert refused.json()["detail"]["ja"]


def test_the_puzzles_page_is_served_for_the_list_and_for_one_puzzle(client: TestClient) -> None:
    for path in ("/puzzles", f"/puzzles/{FIRST.id}"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert '/js/puzzles.js"></script>' in r.text
