"""What a name may hold, the same everywhere names come in: an entrant (CSV or form), a pad's
players, a room's player, a pad board; a bidirectional override would reverse the text shown
around the name (U+202E made 「（赤・南）の番」 read 「番の（赤・南）」 on the pad)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from hikone_carrom.name_text import NAME_FORBIDDEN, unsafe_name
from hikone_carrom.scoring import MatchSetup
from hikone_carrom.scoring.errors import SetupError
from hikone_carrom.server.core.app import create_app
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.tournament import TournamentError, read_person

REFUSED = ["\u202e", "\u202a", "\u2066", "\u2069", "<", ">", "\x00", "\x1b", "\x7f"]


@pytest.mark.parametrize("bad", REFUSED)
def test_every_way_in_refuses_the_same_characters(bad: str, tmp_path: object) -> None:
    name = f"山田{bad}太郎"
    assert unsafe_name(name)
    with pytest.raises(TournamentError):
        read_person(name, "やまだ", age="30")
    with pytest.raises(SetupError):
        MatchSetup(names=(name, "佐藤"))
    settings = ServerSettings(db_url=f"sqlite:///{tmp_path}/games.sqlite3", organiser_key="k" * 20)
    with TestClient(create_app(settings)) as client:
        r = client.post("/api/rooms", json={"mode": "online", "players": 2, "name": name})
        assert r.status_code == 422
        r = client.post(
            "/api/boards", json={"name": name}, headers={"Authorization": "Bearer " + "k" * 20}
        )
        assert r.status_code == 422


@given(st.text(max_size=20))
def test_a_name_is_refused_exactly_when_it_holds_a_forbidden_character(text: str) -> None:
    forbidden = {chr(c) for c in (*range(0x20), 0x7F, ord("<"), ord(">"))}
    forbidden |= {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
    assert unsafe_name(text) == any(ch in forbidden for ch in text)
    assert NAME_FORBIDDEN  # the class the browser builds its check from
