"""Printouts: each PDF opens (pdftoppm renders it to PNG) and holds the expected Japanese text
(pdftotext)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.tournamentkit import event, finish, ready_event

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def _tools() -> None:
    for tool in ("pdftoppm", "pdftotext"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} not found: apt-get install -y poppler-utils")


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
    finish(client, tid, token)
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


@pytest.mark.parametrize(("pools", "advance", "pages"), [(32, 2, 3), (25, 3, 5)])
def test_a_large_bracket_prints_every_qualifier_readably(
    pools: int, advance: int, pages: int, tmp_path: Path
) -> None:
    """64 qualifiers (2 blocks of 32 lines and the final page) and 75 (128 lines: 4 blocks)."""
    from dataclasses import replace

    from hikone_carrom.server.tournaments.pdf import bracket_pdf
    from hikone_carrom.tournament import (
        Entry,
        Person,
        Result,
        Tournament,
        TournamentSettings,
        championship_divisions,
    )

    _tools()
    general = replace(championship_divisions()[2], pool_size=4, advance=advance)
    event = Tournament(TournamentSettings("大きな大会"), [general])
    for i in range(pools * 4):
        person = Person(f"選手{i:03d}", "せんしゅ", f"クラブ{i % 9}", age=30)
        event.add_entry(Entry(event.next_entry_id("GS"), "GS", (person,)))
    event.draw("GS")
    for m in event.matches("GS"):
        if m.stage == "pool":
            event.record(m.id, Result.from_scores(112, int(m.id[-1])))
    for pool in event.pools["GS"]:
        event.close_pool("GS", pool.number)
    qualifiers = [event.entry(e).name for e in event.qualifiers("GS").values() if e]
    assert len(qualifiers) == pools * advance
    data = bracket_pdf(event, "GS")
    pdf = tmp_path / "bracket.pdf"
    pdf.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True).stdout.decode()
    assert f"Pages:           {pages}" in info
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf),
                    str(ARTIFACTS / f"tournament-bracket-{len(qualifiers)}")],
                   check=True, capture_output=True)  # fmt: skip
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", "-layout", str(pdf), "-"], check=True,
                          capture_output=True).stdout.decode()  # fmt: skip
    missing = [name for name in qualifiers if name not in text]
    assert not missing  # every qualifier's name is printed, none cut off
    assert f"1 / {pages}" in text and "ブロック1" in text and "決勝 Final" in text
