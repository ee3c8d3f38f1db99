"""The plan's settings and the knockout sizes over REST: read, changed by the director (the plan
made again or a re-plan asked for), refusals in both languages, audit entries."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.tournamentkit import create, event, headers, play_pools, ready_event

SCHEDULE = {
    "start": "09:30",
    "changeover_min": 4,
    "ceremony": "09:00",
    "ceremony_min": 30,
    "lunch": "10:00",
    "lunch_min": 60,
    "finals": "14:00",
}


def test_the_schedule_has_real_hall_defaults(client: TestClient) -> None:
    tid, _ = create(client)
    r = client.get(f"/api/tournaments/{tid}/schedule")
    assert r.status_code == 200
    assert r.json() == {
        "start": "09:30",
        "changeover_min": 3,
        "ceremony": "09:00",
        "ceremony_min": 30,
        "lunch": "12:00",
        "lunch_min": 45,
        "finals": None,
    }


def test_a_new_schedule_remakes_a_plan_not_begun(client: TestClient) -> None:
    tid, token = ready_event(client, boards=2)
    r = client.put(f"/api/tournaments/{tid}/schedule", json=SCHEDULE, headers=headers(token))
    assert r.status_code == 200, r.text
    assert r.json()["replan"] is False and r.json()["lunch"] == "10:00"
    assert client.get(f"/api/tournaments/{tid}/schedule").json() == SCHEDULE
    planned = [m for m in event(client, tid)["matches"] if m["planned"]]
    for m in planned:
        start, end = m["planned"]["start_s"], m["planned"]["end_s"]
        assert not (start < 11 * 3600 and end > 10 * 3600)  # nothing across lunch
    final = next(m for m in planned if m["id"] == "GS-F")
    assert final["planned"]["start_s"] >= 14 * 3600
    audit = client.get(f"/api/tournaments/{tid}/director", headers=headers(token)).json()["audit"]
    assert any(a["action"] == "schedule" and a["who"] == "運営 太郎" for a in audit)


def test_once_a_match_is_called_the_director_is_asked_to_replan(client: TestClient) -> None:
    tid, token = ready_event(client, boards=2)
    assert client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token)).is_success
    before = {m["id"]: m["planned"] for m in event(client, tid)["matches"]}
    r = client.put(f"/api/tournaments/{tid}/schedule", json=SCHEDULE, headers=headers(token))
    assert r.status_code == 200 and r.json()["replan"] is True
    assert {m["id"]: m["planned"] for m in event(client, tid)["matches"]} == before
    r = client.post(f"/api/tournaments/{tid}/replan", json={"now": "09:45"}, headers=headers(token))
    assert r.status_code == 200
    for m in event(client, tid)["matches"]:
        if m["status"] == "planned" and m["planned"]:
            start, end = m["planned"]["start_s"], m["planned"]["end_s"]
            assert not (start < 11 * 3600 and end > 10 * 3600)


def test_bad_schedules_are_refused(client: TestClient) -> None:
    tid, token = create(client)
    url = f"/api/tournaments/{tid}/schedule"
    assert client.put(url, json=SCHEDULE).status_code == 401
    for bad in (
        {**SCHEDULE, "lunch": "25:00"},
        {**SCHEDULE, "lunch_min": 300},
        {**SCHEDULE, "changeover_min": "3"},
        {**SCHEDULE, "dinner": "18:00"},
    ):
        assert client.put(url, json=bad, headers=headers(token)).status_code == 422
    late = {**SCHEDULE, "lunch": "23:30", "lunch_min": 60}
    r = client.put(url, json=late, headers=headers(token))
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_break"
    assert "昼休み" in r.json()["detail"]["ja"]
    assert client.get(url).json()["lunch"] == "12:00"


def test_the_knockout_choices_and_their_consequences(client: TestClient) -> None:
    tid, token = ready_event(client)  # 9 entrants: 2 pools x top 3 = 6 qualifiers
    url = f"/api/tournaments/{tid}/divisions/GS/knockout"
    r = client.get(url)
    assert r.status_code == 200
    data = r.json()
    assert data["size"] == "full" and data["drawn"] is True
    sizes = {c["size"]: c for c in data["choices"]}
    assert (sizes["full"]["lines"], sizes["full"]["byes"]) == (8, 2)
    assert (sizes["cut"]["lines"], sizes["cut"]["left_out"]) == (4, 2)
    assert "出場しません" in sizes["cut"]["ja"] and "do not play" in sizes["cut"]["en"]
    r = client.put(url, json={"size": "cut"}, headers=headers(token))
    assert r.status_code == 200 and r.json()["size"] == "cut"
    division = next(d for d in event(client, tid)["divisions"] if d["id"] == "GS")
    assert len(division["bracket"]["lines"]) == 4
    knockout = [m for m in event(client, tid)["matches"] if m["stage"] == "knockout"]
    assert knockout and all(m["planned"] for m in knockout)


def test_knockout_sizes_before_the_draw_and_refusals(client: TestClient) -> None:
    tid, token = create(client)
    url = f"/api/tournaments/{tid}/divisions/GS/knockout"
    assert client.get(url).json()["choices"] == []  # no entries yet
    assert client.put(url, json={"size": "cut"}).status_code == 401
    assert client.put(url, json={"size": "huge"}, headers=headers(token)).status_code == 422
    missing = client.put(
        f"/api/tournaments/{tid}/divisions/XX/knockout", json={"size": "cut"},
        headers=headers(token),
    )  # fmt: skip
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "no_division"
    assert client.put(url, json={"size": "ranked_byes"}, headers=headers(token)).is_success
    assert client.get(url).json()["size"] == "ranked_byes"


def test_the_knockout_size_is_refused_once_the_knockout_is_called(client: TestClient) -> None:
    tid, token = ready_event(client)
    play_pools(client, tid, token)
    for n in (1, 2):
        r = client.post(f"/api/tournaments/{tid}/pools/GS/{n}/close", headers=headers(token))
        assert r.is_success, r.text
    first = next(
        m for m in event(client, tid)["matches"]
        if m["stage"] == "knockout" and all(s and s["id"] for s in m["sides"])
    )  # fmt: skip
    r = client.post(f"/api/tournaments/{tid}/matches/{first['id']}/call", json={},
                    headers=headers(token))  # fmt: skip
    assert r.is_success, r.text
    r = client.put(f"/api/tournaments/{tid}/divisions/GS/knockout", json={"size": "cut"},
                   headers=headers(token))  # fmt: skip
    assert r.status_code == 409 and r.json()["detail"]["code"] == "knockout_begun"
    assert "決勝トーナメント" in r.json()["detail"]["ja"]
