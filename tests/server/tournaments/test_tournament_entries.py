"""The director's one-entry form and the event's ranking rules over REST: a late entry after
the draw, a correction with the same checks as the CSV import, tie-breaks and match points
changed with an audit entry, refused once a pool is closed."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.tournamentkit import create, event, headers, play_pools, ready_event


def _member(name: str, reading: str, **extra: str) -> dict[str, str]:
    return {"name": name, "reading": reading, "club": "彦根", "age": "30", **extra}


def _audit(client: TestClient, tid: str, token: str) -> list[dict[str, Any]]:
    r = client.get(f"/api/tournaments/{tid}/director", headers=headers(token))
    audit: list[dict[str, Any]] = r.json()["audit"]
    return audit


def test_one_entry_is_added_checked_and_corrected_before_the_draw(client: TestClient) -> None:
    tid, token = create(client)
    url = f"/api/tournaments/{tid}/entries"
    child = _member("山田 太郎", "やまだ たろう", age="8", grade="小2")
    r = client.post(url, json={"division": "JA", "members": [child]}, headers=headers(token))
    assert r.status_code == 201, r.text
    entry = r.json()["entry"]
    assert (entry["id"], entry["members"][0]["grade"], r.json()["pool"]) == ("JA-001", "小2", None)

    adult = _member("佐藤 花子", "さとう はなこ")
    r = client.post(url, json={"division": "JA", "members": [adult]}, headers=headers(token))
    assert r.status_code == 409 and r.json()["detail"]["code"] == "not_eligible"
    assert "ジュニアA" in r.json()["detail"]["ja"] and "Junior A" in r.json()["detail"]["en"]
    r = client.post(url, json={"division": "FP", "members": [adult]}, headers=headers(token))
    assert r.json()["detail"]["code"] == "wrong_member_count"  # a pair needs its partner
    r = client.post(url, json={"division": "GS", "members": [_member("鈴木", "Suzuki")]},
                    headers=headers(token))  # fmt: skip
    assert r.status_code == 422 and "かな" in r.json()["detail"]["ja"]
    teen = _member("高橋", "たかはし", age="15")
    r = client.post(url, json={"division": "GS", "members": [teen]}, headers=headers(token))
    assert r.json()["detail"]["code"] == "grade_missing"  # under 18: the school year is needed
    pair = {"division": "FP", "members": [adult, child]}
    assert client.post(url, json=pair, headers=headers(token)).status_code == 201
    assert len(event(client, tid)["entries"]) == 2

    fixed = _member("山田 太朗", "やまだ たろう", age="8", grade="小2")
    r = client.put(f"{url}/JA-001", json={"division": "JA", "members": [fixed], "seed": 2},
                   headers=headers(token))  # fmt: skip
    assert r.status_code == 200 and r.json()["entry"]["seed"] == 2
    assert client.get(f"{url}/JA-001").status_code == 401  # ages are for the director only
    got = client.get(f"{url}/JA-001", headers=headers(token)).json()["entry"]
    assert got["members"][0]["name"] == "山田 太朗" and got["members"][0]["age"] == "8"
    newest = _audit(client, tid, token)[0]
    assert (newest["action"], newest["target"]) == ("entry_edit", "JA-001")
    assert newest["detail"]["before"]["members"][0]["name"] == "山田 太郎"
    assert newest["detail"]["after"]["members"][0]["name"] == "山田 太朗"


def test_a_late_entry_after_the_draw_joins_a_pool_and_the_plan(client: TestClient) -> None:
    tid, token = ready_event(client)  # 9 entrants: pools of 5 and 4
    before = event(client, tid)
    url = f"/api/tournaments/{tid}/entries"
    late = {"division": "GS", "members": [_member("遅刻 次郎", "ちこく じろう")]}
    r = client.post(url, json=late, headers=headers(token))
    assert r.status_code == 201, r.text
    assert r.json()["pool"] == "B"
    after = event(client, tid)
    pool_b = next(p for p in after["divisions"][2]["pools"] if p["label"] == "B")
    assert r.json()["entry"]["id"] in pool_b["entries"] and len(pool_b["entries"]) == 5
    mine = [m for m in after["matches"] if any(s and s["id"] == r.json()["entry"]["id"]
                                               for s in m["sides"])]  # fmt: skip
    assert len(mine) == 4 and all(m["planned"] for m in mine)
    kept = {m["id"]: m["planned"] for m in before["matches"] if m["id"].startswith("GS-A-")}
    assert kept == {m["id"]: m["planned"] for m in after["matches"] if m["id"] in kept}
    audit = _audit(client, tid, token)[0]
    assert (audit["action"], audit["detail"]["pool"]) == ("entry_add", "B")


def test_a_late_entry_is_refused_with_a_sentence_once_every_pool_has_begun(
    client: TestClient,
) -> None:
    tid, token = ready_event(client)
    h = headers(token)
    for pool in ("A", "B"):
        first = next(m for m in event(client, tid)["matches"] if m["id"].startswith(f"GS-{pool}-"))
        client.post(f"/api/tournaments/{tid}/matches/{first['id']}/call", json={}, headers=h)
    late = {"division": "GS", "members": [_member("遅刻 次郎", "ちこく じろう")]}
    r = client.post(f"/api/tournaments/{tid}/entries", json=late, headers=h)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "pools_begun"
    assert r.json()["detail"]["ja"].endswith("追加できません")
    assert len(event(client, tid)["entries"]) == 9


def test_the_ranking_rules_change_with_an_audit_entry_until_a_pool_closes(
    client: TestClient,
) -> None:
    tid, token = ready_event(client)
    play_pools(client, tid, token, seed=3)
    url = f"/api/tournaments/{tid}/rules"
    r = client.put(url, json={"tiebreaks": ["match_points", "pucks"], "points": [2, 2, 0]},
                   headers=headers(token))  # fmt: skip
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_points"
    assert "勝ち点" in r.json()["detail"]["ja"]
    r = client.put(url, json={"tiebreaks": ["pucks", "pucks"]}, headers=headers(token))
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_tiebreaks"
    r = client.put(url, json={"tiebreaks": ["nonsense"]}, headers=headers(token))
    assert r.status_code == 422
    r = client.put(url, json={"tiebreaks": ["match_points", "pucks", "lot"], "points": [3, 1, 0]},
                   headers=headers(token))  # fmt: skip
    assert r.status_code == 200, r.text
    view = event(client, tid)
    assert [t["key"] for t in view["tiebreaks"]] == ["match_points", "pucks", "lot"]
    assert view["tiebreaks"][1]["ja"] == "パック数"
    table = view["divisions"][2]["pools"][0]["standings"]
    assert sum(s["points"] for s in table) == sum(3 * s["won"] + s["drawn"] for s in table)
    audit = _audit(client, tid, token)[0]
    assert audit["action"] == "rules" and audit["detail"]["after"]["win"] == 3
    assert audit["detail"]["before"]["order"][1] == "point_difference"
    assert client.post(f"/api/tournaments/{tid}/pools/GS/1/close", headers=headers(token))
    r = client.put(url, json={"tiebreaks": ["match_points"]}, headers=headers(token))
    assert r.status_code == 409 and r.json()["detail"]["code"] == "pool_closed"
