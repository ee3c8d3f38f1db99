"""The drills' REST (練習): the list with positions, one drill, strikes judged by the physics and
the referee as a game's, an unknown drill refused in both languages."""

from __future__ import annotations

import math

from fastapi.testclient import TestClient

from hikone_carrom.learn.drills import DRILLS

BANK = DRILLS[2]


def test_the_drills_are_listed_with_name_tip_goal_and_position(client: TestClient) -> None:
    drills = client.get("/api/drills").json()["drills"]
    assert [d["id"] for d in drills] == [d.id for d in DRILLS]
    first = drills[0]
    assert first["name"]["ja"] and first["tip"]["en"] and first["goal_text"]["ja"]
    assert first["color"] == "red" and first["state"]["placement"]["kind"] == "line"
    one = client.get(f"/api/drills/{BANK.id}").json()
    assert len(one["state"]["layout"]) == len(BANK.layout)


def test_a_strike_is_judged_and_played_for_the_animation(client: TestClient) -> None:
    s = BANK.solution
    body = {"x": s.x, "y": s.y, "angle": s.angle, "speed": s.speed}
    hit = client.post(f"/api/drills/{BANK.id}/attempts", json=body).json()
    assert hit["reached"] is True and hit["play"]["tracks"]
    plain = {"x": 0.0, "y": s.y, "angle": math.pi / 2, "speed": 2.0}
    miss = client.post(f"/api/drills/{BANK.id}/attempts", json=plain).json()
    assert miss["reached"] is False and "solution" not in miss


def test_an_unknown_drill_is_refused_in_both_languages(client: TestClient) -> None:
    r = client.get("/api/drills/nope")
    assert r.status_code == 404
    detail = r.json()["detail"]
    assert detail["code"] == "no_such_drill" and detail["ja"] and detail["en"]
    assert (
        client.post(
            "/api/drills/nope/attempts", json={"x": 0, "y": -0.21, "angle": 1, "speed": 1}
        ).status_code
        == 404
    )


def test_the_drills_page_is_served(client: TestClient) -> None:
    for path in ("/puzzles/drills", f"/puzzles/drills/{BANK.id}"):
        r = client.get(path)
        assert r.status_code == 200 and '/js/puzzles.js"' in r.text
