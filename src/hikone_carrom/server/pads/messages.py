"""What a board's watcher may send on ``/ws/boards/{id}`` (read-only): a hello or a resync
(each answered with the board's shared snapshot) and a ping. Anything else is refused with
``bad_message`` (``core/client_messages.py``); nothing changes."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from hikone_carrom.server.core.client_messages import SocketMessages
from hikone_carrom.server.core.validation import MAX_INT, StrictBody
from hikone_carrom.server.rooms.schemas import Ping, Resync

__all__ = ["BOARD_MESSAGES", "BoardHello", "BoardMessage"]


class BoardHello(StrictBody):
    """A watcher's first message: the last event number its page holds (it gets a snapshot)."""

    type: Literal["hello"]
    last_seq: int = Field(default=0, ge=0, le=MAX_INT)


BoardMessage = BoardHello | Resync | Ping

BOARD_MESSAGES: SocketMessages[BoardMessage] = SocketMessages(
    TypeAdapter(Annotated[BoardMessage, Field(discriminator="type")]),
    unknown=(
        "A board is watched read-only: hello, resync or ping",
        "ボードは見るだけです（hello、resync、ping のみ）",
    ),
)
"""The board socket's messages (``SOCKET_MESSAGES["board"]`` in ``core/access.py``)."""
