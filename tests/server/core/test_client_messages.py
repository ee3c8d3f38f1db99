"""Every socket kind reads every client message through its strict models
(core/client_messages.py): the types each takes are those of the access table, and a bad
message of any kind is refused with ``bad_message`` in both languages and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from tests.server.padkit import create_board
from tests.server.roomkit import create_room, hello, receive
from tests.server.tournamentkit import create

from hikone_carrom.server.core.access import SOCKET_MESSAGES
from hikone_carrom.server.core.client_messages import SocketMessages
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.pads.messages import BOARD_MESSAGES
from hikone_carrom.server.rooms.ws import ROOM_MESSAGES
from hikone_carrom.server.tournaments.socket_messages import DIRECTOR_HELLO, SPECTATOR_MESSAGES

KINDS: dict[str, SocketMessages[Any]] = {
    "room": ROOM_MESSAGES,
    "board": BOARD_MESSAGES,
    "tournament": SPECTATOR_MESSAGES,
    "director": DIRECTOR_HELLO,
}

BAD_COMMON = [
    "not json",
    "[]",
    "null",
    '"ping"',
    "{}",
    '{"type": 1}',
    '{"type": "add", "entry": {}}',
    '{"type": "ping", "extra": 1}',
    '{"type": "resync", "last_seq": -1}',
]
"""Bad on every socket that takes ``ping`` and ``resync``."""

BAD_BOARD = [*BAD_COMMON, '{"type": "hello", "last_seq": true}', '{"type": "resync", "x": 1}']
BAD_EVENT = [
    *BAD_COMMON,
    '{"type": "hello", "token": "x"}',  # only the director's console says hello
    '{"type": "search", "key": ""}',
    '{"type": "search", "key": "' + "山" * 61 + '"}',
    '{"type": "entry", "key": 7}',
    '{"type": "division"}',
    '{"type": "watch", "key": "some"}',
    '{"type": "watch", "key": "all", "extra": 1}',
]
BAD_ROOM = [*BAD_COMMON, '{"type": "shot", "seat": 0, "x": "0"}', '{"type": "chat", "text": 1}']
BAD_HELLO = ["not json", "{}", '{"type": "ping"}', '{"type": "hello"}', '{"type": "hello",'
             ' "token": 1}', '{"type": "hello", "token": "' + "x" * 129 + '"}']  # fmt: skip

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)
messages = st.one_of(
    json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["hello", "resync", "ping", "search", "watch", "shot", "x"])},
        optional={"key": json_values, "last_seq": json_values, "token": json_values},
    ).map(json.dumps),
    st.text(max_size=40),
)


def _is_refusal(answer: dict[str, Any]) -> bool:
    return (
        answer["type"] == "error"
        and answer["code"] == "bad_message"
        and bool(answer["message"]["en"] and answer["message"]["ja"])
    )


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_takes_exactly_the_types_of_the_access_table(kind: str) -> None:
    assert set(KINDS[kind].types) == set(SOCKET_MESSAGES[kind])


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(sorted(KINDS)), text=messages)
def test_any_text_is_a_message_or_a_bad_message_in_both_languages(kind: str, text: str) -> None:
    try:
        msg = KINDS[kind].read(text)
    except RoomError as err:
        assert err.code == "bad_message" and err.en and err.ja
    else:
        assert msg.type in SOCKET_MESSAGES[kind]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_an_unknown_type_names_what_the_socket_takes(kind: str) -> None:
    with pytest.raises(RoomError) as refused:
        KINDS[kind].read('{"type": "teleport"}')
    for t in KINDS[kind].types:
        assert t in refused.value.en and t in refused.value.ja


def test_a_refusal_never_echoes_the_value() -> None:
    with pytest.raises(RoomError) as refused:
        SPECTATOR_MESSAGES.read('{"type": "watch", "key": "<script>秘密</script>"}')
    assert "秘密" not in refused.value.en + refused.value.ja


@pytest.mark.parametrize("text", BAD_BOARD)
def test_a_board_watcher_s_bad_message_is_refused_and_changes_nothing(
    client: TestClient, text: str
) -> None:
    board = create_board(client)
    with client.websocket_connect(f"/ws/boards/{board['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        seq = ws.receive_json()["seq"]
        ws.send_text(text)
        assert _is_refusal(ws.receive_json())
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json() == {"type": "pong", "seq": seq}  # nothing else was sent
    assert client.get(f"/api/boards/{board['id']}").json()["seq"] == seq


@pytest.mark.parametrize("text", BAD_EVENT)
def test_a_spectator_s_bad_message_is_refused_and_changes_nothing(
    client: TestClient, text: str
) -> None:
    tid, _ = create(client)
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        seq = ws.receive_json()["seq"]
        ws.send_text(text)
        assert _is_refusal(ws.receive_json())
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json() == {"type": "pong", "seq": seq}
    assert client.get(f"/api/tournaments/{tid}").json()["seq"] == seq


@pytest.mark.parametrize("text", BAD_HELLO)
def test_a_bad_hello_of_the_console_is_told_it_needs_the_token(
    client: TestClient, text: str
) -> None:
    tid, _ = create(client)
    with client.websocket_connect(f"/ws/tournaments/{tid}?full=1") as ws:
        ws.send_text(text)
        assert ws.receive_json()["code"] == "not_director"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4003


@pytest.mark.parametrize("text", BAD_ROOM)
def test_a_room_client_s_bad_message_is_refused_and_changes_nothing(
    client: TestClient, text: str
) -> None:
    made = create_room(client)
    rid = made["room_id"]
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        seq = hello(ws, made["token"])["seq"]
        ws.send_text(text)
        assert _is_refusal(receive(ws))
        ws.send_text(json.dumps({"type": "ping"}))
        assert receive(ws) == {"type": "pong", "seq": seq}
    assert client.get(f"/api/rooms/{rid}").json()["seq"] == seq
