"""Helpers for the tournament server tests: a small event over REST."""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient
from tests.server.organiserkit import organiser

PLAYERS = [
    ("山田", "やまだ", "彦根"),
    ("佐藤", "さとう", "長浜"),
    ("鈴木", "すずき", "彦根"),
    ("高橋", "たかはし", "米原"),
    ("田中", "たなか", "長浜"),
    ("伊藤", "いとう", "米原"),
    ("渡辺", "わたなべ", "彦根"),
    ("中村", "なかむら", "長浜"),
    ("小林", "こばやし", "米原"),
]
CSV = "部門,氏名,よみがな,所属,都道府県,年齢,学年\n" + "".join(
    f"GS,選手{i:02d} {name},{reading},{club},滋賀県,30,\n"
    for i, (name, reading, club) in enumerate(PLAYERS)
)


def headers(token: str, who: str = "運営 太郎") -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "X-Operator": quote(who)}


def create(client: TestClient, boards: int = 4, name: str = "テスト大会") -> tuple[str, str]:
    r = client.post(
        "/api/tournaments",
        json={"name": name, "date": "2026-07-12", "boards": boards, "start": "09:30"},
        headers=organiser(client),
    )
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["token"]


def ready_event(
    client: TestClient, boards: int = 4, name: str = "テスト大会", csv: str = CSV
) -> tuple[str, str]:
    """An event with 9 general singles entrants (``csv``) drawn into 2 pools and planned."""
    tid, token = create(client, boards, name)
    h = headers(token)
    r = client.post(f"/api/tournaments/{tid}/entries/import", content=csv.encode(), headers=h)
    assert r.status_code == 200 and r.json()["imported"] == 9, r.text
    assert client.post(f"/api/tournaments/{tid}/divisions/GS/draw", json={}, headers=h).is_success
    assert client.post(f"/api/tournaments/{tid}/plan", headers=h).is_success
    return tid, token


def changed(update: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The matches a numbered update changes, by id: those sent whole (``matches``) and, in a
    spectator's update, the fields that changed of those every page holds (``patches``)."""
    out = {m["id"]: m for m in update.get("matches", [])}
    out |= {p["id"]: p for p in update.get("patches", [])}
    return out


def event(client: TestClient, tid: str) -> dict[str, Any]:
    r = client.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200
    data: dict[str, Any] = r.json()["event"]
    return data


def play_pools(client: TestClient, tid: str, token: str, seed: int = 0) -> None:
    rng = random.Random(seed)
    for m in event(client, tid)["matches"]:
        if m["stage"] == "pool" and m["status"] != "finished":
            a, b = rng.randint(0, 12), rng.randint(0, 12)
            r = client.put(
                f"/api/tournaments/{tid}/matches/{m['id']}/result",
                json={"scores": [a, b]},
                headers=headers(token),
            )
            assert r.status_code == 200, r.text


def finish(client: TestClient, tid: str, token: str) -> None:
    """Play the pools, close them and play the knockout to its end."""
    play_pools(client, tid, token)
    h = headers(token)
    for n in (1, 2):
        assert client.post(f"/api/tournaments/{tid}/pools/GS/{n}/close", headers=h).is_success
    while True:
        todo = [m for m in event(client, tid)["matches"]
                if m["stage"] == "knockout" and m["status"] != "finished"
                and all(s and s["id"] for s in m["sides"])]  # fmt: skip
        if not todo:
            return
        for m in todo:
            r = client.put(f"/api/tournaments/{tid}/matches/{m['id']}/result",
                           json={"scores": [112, 7]}, headers=h)  # fmt: skip
            assert r.status_code == 200, r.text
