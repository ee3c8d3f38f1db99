"""What a page may send on an event's socket ``/ws/tournaments/{id}``: the director's console
first says hello with the director's token (``?full=1``); then a page (the console too) asks for
what it shows, says whose live scores it shows, resyncs or pings. Anything else is refused with
``bad_message`` (``core/client_messages.py``); nothing changes."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from hikone_carrom.server.core.client_messages import SocketMessages
from hikone_carrom.server.core.validation import StrictBody
from hikone_carrom.server.rooms.schemas import Ping, Resync
from hikone_carrom.server.tournaments.hub_feed import Watching

__all__ = [
    "DIRECTOR_HELLO",
    "SPECTATOR_MESSAGES",
    "Ask",
    "DirectorHello",
    "SpectatorMessage",
    "WatchScores",
]

MAX_KEY = 60
"""Longest key of an ask, characters (a search box sends at most 40)."""


class DirectorHello(StrictBody):
    """The console's first message (``?full=1``): the director's token."""

    type: Literal["hello"]
    token: str = Field(min_length=1, max_length=128)


class Ask(StrictBody):
    """Ask for a view: ``division`` (``key`` "GS:pools" or "GS:bracket"), ``entry`` (an entry
    id, e.g. "GS-001") or ``search`` (a name or kana reading, e.g. "やまだ")."""

    type: Literal["division", "entry", "search"]
    key: str = Field(min_length=1, max_length=MAX_KEY)


class WatchScores(StrictBody):
    """Whose live scores the page shows: every match's, the entries it asked for, none."""

    type: Literal["watch"]
    key: Watching


class DivisionAsk(Ask):
    type: Literal["division"]


class EntryAsk(Ask):
    type: Literal["entry"]


class SearchAsk(Ask):
    type: Literal["search"]


SpectatorMessage = DivisionAsk | EntryAsk | SearchAsk | WatchScores | Resync | Ping

SPECTATOR_MESSAGES: SocketMessages[SpectatorMessage] = SocketMessages(
    TypeAdapter(Annotated[SpectatorMessage, Field(discriminator="type")])
)
"""A page's messages (``SOCKET_MESSAGES["tournament"]`` in ``core/access.py``)."""

DIRECTOR_HELLO: SocketMessages[DirectorHello] = SocketMessages(TypeAdapter(DirectorHello))
"""The console's first message (``SOCKET_MESSAGES["director"]``)."""
