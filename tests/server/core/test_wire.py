"""The JSON text of events and messages (orjson): the same JSON values as the standard library
gives, floats read back bit for bit, never ``NaN`` or ``Infinity``; and names beyond ASCII reach
every client of a room, whichever process serves it, as they were written."""

from __future__ import annotations

import json
import math
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.server.roomkit import straight_shot
from tests.server.serverkit import Player

from hikone_carrom.bench.server_load import aim
from hikone_carrom.bench.throwaway import GameServer
from hikone_carrom.board import BoardSpec
from hikone_carrom.match import Match, Shot
from hikone_carrom.server.core import wire
from hikone_carrom.server.rooms.room import game_options
from hikone_carrom.server.rooms.views import shot_view, state_view

NAMES = ["<script>&amp;\"'", "山田 太郎", "彦根カロム🙂", "Zoë\\n\u0000\u2028"]


def _strict(text: str) -> Any:
    """The value of ``text`` as a browser's ``JSON.parse`` reads it (no NaN, no Infinity)."""

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def _same(a: Any, b: Any) -> bool:
    """Equal JSON values with the same types, floats bit for bit (``-0.0`` is not ``0.0``)."""
    if isinstance(a, float) or isinstance(b, float):
        return type(a) is type(b) and a.hex() == b.hex()
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=8) | st.integers(-9, 9), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(values)
def test_the_text_holds_the_standard_library_s_values(value: Any) -> None:
    text = wire.dumps(value)
    assert _same(_strict(text), json.loads(json.dumps(value)))
    assert _same(wire.loads(text), _strict(text))


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_float_reads_back_bit_for_bit(x: float) -> None:
    assert _same(_strict(wire.dumps([x]))[0], x)
    assert _same(wire.loads(wire.dumps({"x": x}))["x"], x)


def test_nan_and_infinity_are_never_written() -> None:
    for bad in (math.nan, math.inf, -math.inf):
        assert _strict(wire.dumps({"x": bad, "name": NAMES[1]})) == {"x": None, "name": NAMES[1]}
    with pytest.raises(ValueError):  # the standard library's fallback refuses them
        wire.dumps({"x": math.nan, "big": 2**70})
    with pytest.raises(ValueError):
        wire.loads('{"x": NaN}')


def test_what_orjson_refuses_is_written_by_the_standard_library() -> None:
    for value in ({"name": "\ud800x"}, {"n": 2**70}, {"n": -(2**64)}):
        text = wire.dumps(value)
        assert _strict(text) == value == wire.loads(text)


def test_names_beyond_ascii_are_written_as_they_are() -> None:
    text = wire.dumps({"names": NAMES})
    assert "山田 太郎" in text and "🙂" in text  # UTF-8, not \\u escapes
    assert _strict(text) == {"names": NAMES}


def test_a_shot_s_event_holds_the_same_values_as_before() -> None:
    board = BoardSpec()
    match = Match(4, game_options(None, 0), board, seed=11)
    names = {"en": dict(enumerate(NAMES)), "ja": dict(enumerate(NAMES))}
    for k in range(25):
        if match.is_over:
            break
        s = aim(state_view(match), k)
        play = match.play(Shot(s["x"], s["y"], s["angle"], s["speed"]), None)
        body = {"kind": "shot", **shot_view(play, board, names), "state": state_view(match)}
        old = json.loads(json.dumps(body, separators=(",", ":")))
        assert _same(_strict(wire.dumps(body)), old)


def test_names_and_chat_beyond_ascii_reach_every_client_through_both_processes(
    two_servers: tuple[GameServer, ...],
) -> None:
    a, b = two_servers
    first, second = '山田 太郎 & "Q"', "彦根カロム🙂 Zoë\\"
    made = httpx.post(f"{a.base}/api/rooms", json={"mode": "online", "name": first}).json()
    rid = made["room_id"]
    seat = httpx.post(f"{b.base}/api/rooms/{rid}/seats/1", json={"name": second})
    assert seat.status_code == 200, seat.text
    here = Player(a, rid, made["token"])  # on the owner
    there = Player(b, rid, seat.json()["token"])  # relayed through Redis
    state = here.state
    shooter = (here, there)[state["shooter"]]
    shooter.send(id="w-1", **straight_shot(state))
    there.send(type="chat", id="w-2", text="<b>パック</b> 🙂 \u2028 ok")
    for p in (here, there):
        p.until_seq(3)
    assert [e["kind"] for e in here.events] == ["shot", "chat"]
    assert all(_same(x, y) for x, y in zip(here.events, there.events, strict=True))
    assert here.events[1]["text"] == "<b>パック</b> 🙂 \u2028 ok"
    assert here.events[1]["name"] == {"en": second, "ja": second}
    names = [s["name"] for s in httpx.get(f"{b.base}/api/rooms/{rid}").json()["room"]["seats"]]
    assert names == [first, second]
    for p in (here, there):
        p.close()
