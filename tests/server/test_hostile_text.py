"""Hostile text in every user-supplied field of the championships and the scoring pads (event
name, entrant names and clubs via the API and the CSV import, pad board names, a pad match's
title): every printout answers 200 and shows the text literally with no image it was not meant
to hold, every CSV neutralises formulas and gives the text back, and names a pad cannot show
(< > and control characters) are refused at the door with a sentence in both languages."""

from __future__ import annotations

import csv
import io
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from tests.hostile_text import HOSTILE, MARKUP, NAME_SAFE, longest, squeeze, uncell
from tests.server.organiserkit import organiser
from tests.server.padkit import Pad, auth, create_board
from tests.server.tournamentkit import create, event, finish, headers, ready_event

from hikone_carrom.scoring.setup import MAX_NAME
from hikone_carrom.server.tournaments.pdf import KINDS

NAME_MAX = 60
"""Longest entrant name the API and the import take (characters)."""


def _image(tmp_path: Path) -> str:
    """A PNG the server can read: a PDF must never embed it from a name's <img>."""
    path = tmp_path / "secret.png"
    Image.new("RGB", (8, 8), "red").save(path)
    return str(path)


def _csv_of(names: list[str], clubs: list[str]) -> str:
    """An entries CSV (9 general singles entrants) written by the csv module (quotes escaped)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["部門", "氏名", "よみがな", "所属", "都道府県", "年齢", "学年"])
    for name, club in zip(names, clubs, strict=True):
        writer.writerow(["GS", name, "せんしゅ", club, "滋賀県", "30", ""])
    return out.getvalue()


def _names() -> list[str]:
    """Nine distinct hostile entrant names, two at the allowed maximum."""
    names = [f"{s} {i}" for i, s in enumerate(NAME_SAFE)][:7]
    names += [longest("=長い名前", NAME_MAX), longest("@長い名前", NAME_MAX)]
    return names


def _pdf_facts(data: bytes, tmp_path: Path, name: str) -> tuple[str, str]:
    """(pdftotext's text, pdfimages' list) of a PDF."""
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(data)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True,
                          capture_output=True).stdout.decode("utf-8")  # fmt: skip
    images = subprocess.run(["pdfimages", "-list", str(pdf)], check=True,
                            capture_output=True).stdout.decode("utf-8")  # fmt: skip
    return text, images


def _no_images(listing: str) -> bool:
    return len(listing.strip().splitlines()) == 2  # the header lines of pdfimages -list only


def _visible(text: str) -> str:
    """The characters of ``text`` a PDF shows (pdftotext drops bidi and zero-width marks)."""
    return squeeze("".join(c for c in text if c not in "\u202e\u200b\u200d"))


def _hostile_event(client: TestClient, tmp_path: Path) -> tuple[str, str, list[str], list[str]]:
    name = f'<img src="{_image(tmp_path)}"> <b>大会</b> & ]]> =HYPERLINK("http://x")'
    names = _names()
    clubs = [HOSTILE[i % len(HOSTILE)] for i in range(9)]
    tid, token = ready_event(client, name=name, csv=_csv_of(names, clubs))
    return tid, token, names, clubs


def test_every_printout_of_a_hostile_event_answers_and_shows_its_text_literally(
    client: TestClient, tmp_path: Path
) -> None:
    tid, token, names, clubs = _hostile_event(client, tmp_path)
    finish(client, tid, token)
    for kind in KINDS:
        r = client.get(f"/api/tournaments/{tid}/print/{kind}.pdf", params={"division": "GS"})
        assert r.status_code == 200, (kind, r.text)
        text, images = _pdf_facts(r.content, tmp_path, kind)
        assert _no_images(images), (kind, images)
        assert squeeze("<b>大会</b> & ]]>") in squeeze(text), kind  # long lines run off A4
    text, _ = _pdf_facts(client.get(f"/api/tournaments/{tid}/print/pools.pdf").content,
                         tmp_path, "pools")  # fmt: skip
    for value in names[:7] + clubs:
        assert _visible(value) in squeeze(text), value


def test_the_results_csv_neutralises_formulas_and_gives_the_names_back(
    client: TestClient, tmp_path: Path
) -> None:
    tid, token, names, _ = _hostile_event(client, tmp_path)
    finish(client, tid, token)
    text = client.get(f"/api/tournaments/{tid}/results.csv").text.lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))
    sides = {cell for row in rows[1:] for cell in row[6:8]}
    for name in names:
        written = next(s for s in sides if uncell(s) == name)
        assert not written.startswith(("=", "+", "-", "@", "\t", "\r")), written
    assert any(s.startswith("'=") for s in sides) and any(s.startswith("'@") for s in sides)


def test_names_a_pad_cannot_show_are_refused_by_the_api_and_the_import(
    client: TestClient,
) -> None:
    tid, token = create(client)
    h = headers(token)
    for bad in (*MARKUP, "tab\there", "bell\x07"):
        member = {"name": bad, "reading": "せんしゅ"}
        r = client.post(f"/api/tournaments/{tid}/entries",
                        json={"division": "GS", "members": [member]}, headers=h)  # fmt: skip
        assert r.status_code == 422, (bad, r.text)
        detail = r.json()["detail"]
        assert detail["code"] == "bad_name" and "<" in detail["en"] and "制御文字" in detail["ja"]
        r = client.post(f"/api/tournaments/{tid}/entries/import",
                        content=_csv_of([bad], ["彦根"]).encode(), headers=h)  # fmt: skip
        assert r.status_code == 200 and r.json()["imported"] == 0, (bad, r.text)
        assert "<" in r.json()["problems"][0]["en"]
    assert event(client, tid)["entries"] == []


def test_hostile_clubs_and_names_through_the_api_are_kept_literally(client: TestClient) -> None:
    tid, token = create(client, name=HOSTILE[0])
    for i, text in enumerate(NAME_SAFE):
        member = {"name": text, "reading": "せんしゅ", "club": HOSTILE[i % len(HOSTILE)]}
        body = {"division": "GS", "members": [member]}
        r = client.post(f"/api/tournaments/{tid}/entries", json=body, headers=headers(token))
        assert r.status_code in (200, 201), r.text
    entries = event(client, tid)["entries"]
    assert [e["name"] for e in entries] == [t.strip() for t in NAME_SAFE]


def _pad_link(client: TestClient, tid: str, token: str) -> dict[str, Any]:
    r = client.post(f"/api/tournaments/{tid}/pads", json={"boards": [1]}, headers=organiser(client))
    assert r.status_code == 200, r.text
    link: dict[str, Any] = r.json()["pads"][0]
    return link


def _device(client: TestClient, link: dict[str, Any]) -> Pad:
    token = link["pad_url"].split("#t=")[1]
    pad = Pad(client, {"id": link["pad_board"], "token": token}, "device-0001")
    r = client.post(f"/api/boards/{link['pad_board']}/claim", json={"device": pad.device},
                    headers=auth(token))  # fmt: skip
    assert r.status_code == 200, r.text
    pad.match = r.json()["board"]["match"]["number"]
    return pad


def _sheet_checks(client: TestClient, url: str, tmp_path: Path, texts: list[str]) -> None:
    for lang in ("ja", "en"):
        r = client.get(f"{url}/sheet.pdf", params={"lang": lang})
        assert r.status_code == 200, r.text
        shown, images = _pdf_facts(r.content, tmp_path, f"sheet-{lang}")
        assert _no_images(images), images
        for text in texts:
            assert _visible(text) in squeeze(shown), (lang, text)
        rows = list(csv.reader(io.StringIO(client.get(f"{url}/sheet.csv").text.lstrip("\ufeff"))))
        cells = [c for row in rows for c in row]
        assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r")) for c in cells), cells


def test_a_long_hostile_name_called_onto_a_pad_scores_for_its_own_side(
    client: TestClient, tmp_path: Path
) -> None:
    tid, token, _, _ = _hostile_event(client, tmp_path)
    link = _pad_link(client, tid, token)
    call = client.post(f"/api/tournaments/{tid}/boards/1/call", headers=headers(token))
    assert call.status_code == 200, call.text
    pad = _device(client, link)
    sides = call.json()["sides"]
    board = client.get(f"/api/boards/{pad.board['id']}").json()["board"]
    names = board["match"]["setup"]["names"]
    assert names == [s[:MAX_NAME] for s in sides]
    pad.send(pad.shot(red=12), pad.shot(jack=True))  # side 1 (red) wins (R7a)
    pad.send(pad.op("confirm"))
    done = next(m for m in event(client, tid)["matches"] if m["id"] == call.json()["match"])
    assert done["result"]["winner"] == 0 and done["result"]["scores"] == [112, 0]
    url = f"/api/boards/{pad.board['id']}/matches/{pad.match}"
    _sheet_checks(client, url, tmp_path, names)


@pytest.mark.parametrize("text", NAME_SAFE)
def test_a_pad_board_and_players_with_hostile_names_print_literally(
    client: TestClient, tmp_path: Path, text: str
) -> None:
    board = create_board(client, longest(text, 40))
    pad = Pad(client, board, "device-0001")
    players = [longest(text, MAX_NAME), "山田"]
    title = f'<b>{text}</b> <img src="{_image(tmp_path)}">'[:80]
    pad.setup(players, title=title)
    pad.send(pad.shot(red=12), pad.shot(jack=True))
    pad.send(pad.op("confirm"))
    url = f"/api/boards/{board['id']}/matches/{pad.match}"
    _sheet_checks(client, url, tmp_path, [*players, f"<b>{text}"])
