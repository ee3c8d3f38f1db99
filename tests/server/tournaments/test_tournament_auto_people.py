"""One person in two divisions (a player in singles and in pairs) is never called to two boards:
a call by hand is refused while they play, and automatic mode calls their other match the
moment the first one ends."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.tournamentkit import create, event, headers


def _member(name: str, reading: str, club: str) -> dict[str, str]:
    return {"name": name, "reading": reading, "club": club, "prefecture": "滋賀県", "age": "30"}


def _two_divisions(c: TestClient) -> tuple[str, str, dict[str, Any], dict[str, Any]]:
    """An event with 二刀流 in general singles (against 佐藤) and general pairs: (event, token,
    the singles match, the pairs match)."""
    tid, token = create(c, boards=4)
    h = headers(token)
    both = _member("二刀流 一郎", "にとうりゅう いちろう", "彦根")
    entries = [
        ("GS", [both]),
        ("GS", [_member("佐藤 二郎", "さとう じろう", "長浜")]),
        ("GP", [both, _member("鈴木 三郎", "すずき さぶろう", "彦根")]),
        ("GP", [_member("高橋 四郎", "たかはし しろう", "米原"),
                _member("田中 五郎", "たなか ごろう", "米原")]),
    ]  # fmt: skip
    for division, members in entries:
        r = c.post(f"/api/tournaments/{tid}/entries", json={"division": division,
                   "members": members}, headers=h)  # fmt: skip
        assert r.status_code == 201, r.text
    for division in ("GS", "GP"):
        assert c.post(f"/api/tournaments/{tid}/divisions/{division}/draw", json={},
                      headers=h).is_success  # fmt: skip
    assert c.post(f"/api/tournaments/{tid}/plan", headers=h).is_success
    matches = [m for m in event(c, tid)["matches"] if m["stage"] == "pool"]
    singles = next(m for m in matches if m["division"] == "GS")
    pairs = next(m for m in matches if m["division"] == "GP")
    return tid, token, singles, pairs


def test_a_call_by_hand_is_refused_while_someone_of_the_match_plays_elsewhere(
    client: TestClient,
) -> None:
    tid, token, singles, pairs = _two_divisions(client)
    h = headers(token)
    r = client.post(f"/api/tournaments/{tid}/matches/{singles['id']}/call", json={"board": 1},
                    headers=h)  # fmt: skip
    assert r.status_code == 200, r.text
    r = client.post(f"/api/tournaments/{tid}/matches/{pairs['id']}/call", json={"board": 2},
                    headers=h)  # fmt: skip
    assert r.status_code == 409
    detail = r.json()["detail"]
    assert detail["code"] == "entrant_busy"
    assert detail["ja"] == f"二刀流 一郎さんはまだ試合 {singles['id']} 中です"
    assert detail["en"] == f"二刀流 一郎 is still in match {singles['id']}"


def test_automatic_mode_calls_the_other_match_the_moment_the_first_ends(
    client: TestClient,
) -> None:
    tid, token, singles, pairs = _two_divisions(client)
    h = headers(token)
    r = client.put(f"/api/tournaments/{tid}/auto", json={"on": True}, headers=h)
    called = {m["id"] for m in event(client, tid)["matches"] if m["status"] == "called"}
    assert called == {singles["id"]} or called == {pairs["id"]}
    first = called.pop()
    other = pairs if first == singles["id"] else singles
    wait = next(w for w in r.json()["waiting"] if w["match"] == other["id"])
    assert wait["code"] == "entrant" and wait["on"] == first
    assert wait["text"]["ja"] == f"二刀流 一郎さんが試合 {first} 中です"
    r = client.put(f"/api/tournaments/{tid}/matches/{first}/result", json={"scores": [112, 3]},
                   headers=h)  # fmt: skip
    assert r.status_code == 200, r.text
    client.get(f"/api/tournaments/{tid}/auto", headers=h)  # after the automatic pass
    called = {m["id"] for m in event(client, tid)["matches"] if m["status"] == "called"}
    assert called == {other["id"]}
