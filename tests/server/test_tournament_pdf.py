"""Printouts: each PDF opens (pdftoppm renders it to PNG) and holds the expected Japanese text
(pdftotext)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.tournamentkit import event, headers, play_pools, ready_event

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _tools() -> None:
    for tool in ("pdftoppm", "pdftotext"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} not found: apt-get install -y poppler-utils")


def _finish(client: TestClient, tid: str, token: str) -> None:
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


def _check_pdf(data: bytes, name: str, tmp_path: Path) -> str:
    assert data.startswith(b"%PDF")
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(data)
    ARTIFACTS.mkdir(exist_ok=True)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", str(pdf),
         str(ARTIFACTS / f"tournament-{name}")],
        check=True, capture_output=True,
    )  # fmt: skip
    assert list(ARTIFACTS.glob(f"tournament-{name}*.png"))
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True,
                         capture_output=True)  # fmt: skip
    return out.stdout.decode("utf-8")


def test_every_printout_opens_and_reads_in_japanese(client: TestClient, tmp_path: Path) -> None:
    _tools()
    tid, token = ready_event(client)
    _finish(client, tid, token)
    data = event(client, tid)
    champion_id = data["divisions"][2]["places"]["1"][0]
    champion = next(e["name"] for e in data["entries"] if e["id"] == champion_id)
    expected = {
        "pools": ["予選リーグ表", "Aリーグ", "勝点"],
        "plan": ["台割り表", "09:30"],
        "bracket": ["決勝トーナメント", champion],
        "results": ["成績表", "第1位", champion],
        "certificates": ["賞", "第1位", "第2位", "第3位", champion, "殿"],
    }
    for kind, words in expected.items():
        r = client.get(f"/api/tournaments/{tid}/print/{kind}.pdf", params={"division": "GS"})
        assert r.status_code == 200, r.text
        assert r.headers["content-type"] == "application/pdf"
        text = _check_pdf(r.content, kind, tmp_path)
        for word in words:
            assert word in text.replace(" ", "") or word in text, (kind, word)


def test_certificates_before_the_final_are_refused(client: TestClient) -> None:
    tid, _ = ready_event(client)
    r = client.get(f"/api/tournaments/{tid}/print/certificates.pdf")
    assert r.status_code == 409 and r.json()["detail"]["ja"]
