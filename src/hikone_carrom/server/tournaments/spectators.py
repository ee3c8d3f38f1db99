"""The live event's socket, ``/ws/tournaments/{id}``: spectators' pages and the director's
console (the whole event after a hello with the director's token), as one router of the game
server."""

from __future__ import annotations

import asyncio
import json
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Query, WebSocket

from hikone_carrom.server.core.deps import SignInDep, TournamentsDep, client_address
from hikone_carrom.server.core.errors import RoomError, error_message
from hikone_carrom.server.core.organiser import SignInGuard
from hikone_carrom.server.core.ratelimit import Inbox
from hikone_carrom.server.rooms.ws import Connection, WatchLimits, serve_watcher
from hikone_carrom.server.tournaments.feed_wire import deflated
from hikone_carrom.server.tournaments.hub import LiveTournament
from hikone_carrom.server.tournaments.hub_feed import Watching
from hikone_carrom.server.tournaments.sign_in import signed_in
from hikone_carrom.tournament import TournamentError

__all__ = [
    "HELLO_WAIT_S",
    "MAX_ASKED_ENTRIES",
    "NOT_DIRECTOR_CLOSE",
    "SPECTATOR_LIMITS",
    "Spectator",
    "router",
]

router = APIRouter(tags=["tournaments"])


SPECTATOR_LIMITS = WatchLimits(burst=10, per_second=2.0, max_chars=200)
"""A spectator may send 10 messages at once, then 2 a second (a page asks for what it shows as
its tabs change, a resync after a gap, a ping now and then), each at most 200 characters."""

HELLO_WAIT_S = 10.0
"""How long the director's console has to say hello with its token, s."""

MAX_ASKED_ENTRIES = 40
"""Most entries whose live scores one page is sent while it watches those it asked for (the
newest asked)."""

WATCHING: tuple[Watching, ...] = ("all", "find", "none")

NOT_DIRECTOR_CLOSE = 4003
"""Close code of a full view asked for without the director's token (the page signs in again)."""


class Spectator(Connection):
    """A spectator's connection: the bounded send buffer of every connection (four times as
    large for the director's console); one that falls this far behind is closed (its page
    reconnects and takes a fresh snapshot). With ``deflate`` each message goes as a binary
    frame of its deflated JSON text (:mod:`.feed_wire`)."""

    BUFFER_CHARS = 1024 * 1024

    def __init__(
        self,
        websocket: WebSocket,
        *,
        full: bool = False,
        deflate: bool = False,
        watching: Watching = "all",
    ) -> None:
        # the director's console takes the whole event (about 1 MB for 800 entrants) at once
        super().__init__(websocket, buffer_chars=self.BUFFER_CHARS * (4 if full else 1))
        self.full = full
        self.deflate = deflate
        self.division: str | None = None  # the division whose pool tables it is sent
        self.watching: Watching = watching  # whose live scores it is sent
        self.entries: set[str] = set()  # the entries it asked for, by id
        self.trimmed = False  # its snapshot has no board's matches

    async def write(self) -> None:
        """Send queued messages for as long as the connection lives (deflated if asked)."""
        if not self.deflate:
            await super().write()
            return
        while True:
            await self._ready.wait()
            while self.pending:
                text = self.pending[0]
                await self.websocket.send_bytes(deflated(text))
                self.pending.popleft()
                self.pending_chars -= len(text)
            self._ready.clear()


@router.websocket("/ws/tournaments/{tournament_id}")
async def watch(
    websocket: WebSocket,
    hub: TournamentsDep,
    guard: SignInDep,
    tournament_id: str,
    full: bool = False,
    z: bool = False,
    watching: Annotated[str, Query(alias="watch")] = "all",
) -> None:
    """Spectators: a snapshot, then every numbered update and, about once a second, the live
    scores and clocks. ``?full=1`` (the director's console) takes the whole event once its
    first message, ``{"type": "hello", "token": "..."}``, carries the director's token; a page
    takes the compact one and asks for what it shows: ``{"type": "division", "key":
    "GS:pools"}`` (or ``"GS:bracket"``), ``{"type": "entry", "key": "GS-001"}``,
    ``{"type": "search", "key": "やまだ"}``; the answer comes in order with the updates. From
    its pools answer on, a page's updates carry that division's pool tables (and no other's).
    ``{"type": "watch", "key": "all" | "find" | "none"}`` says whose live scores it shows
    (every match's, the default; those of the entries it asked for by ``entry`` or
    ``search``; none). ``{"type": "resync"}`` asks for a new snapshot. Each connection may send
    :data:`SPECTATOR_LIMITS`. Wrong tokens in the hello are throttled as the REST sign-in's are.
    ``?watch=find`` or ``?watch=none`` says from the start whose live scores a page shows: its
    snapshots then carry neither live scores nor the boards' matches (``"trimmed": true``; only
    those of the calls), until it watches ``all`` and asks for a resync. ``?z=1``: every message
    comes as a binary frame, its JSON text raw-deflated on its own (:mod:`.feed_wire`)."""
    start_watching = WATCHING[WATCHING.index(watching)] if watching in WATCHING else "all"
    conn = Spectator(websocket, full=full, deflate=z, watching=start_watching)
    lookup = hub.get(tournament_id)
    start = partial(_start, conn, guard, client_address(websocket))
    await serve_watcher(conn, lookup, SPECTATOR_LIMITS, partial(_answer, conn), start)


async def _start(
    conn: Spectator, guard: SignInGuard, address: str, inbox: Inbox, live: LiveTournament
) -> bool:
    """The snapshot and the updates from now on; the full view only after the director's
    hello (otherwise False: the socket is closed with :data:`NOT_DIRECTOR_CLOSE`)."""
    if conn.full and not await _director_hello(inbox, live, guard, address):
        conn.send_json(
            error_message(
                "not_director",
                "The director's token is needed for the whole event: say hello with it first",
                "大会全体の表示には大会運営のトークンが必要です。最初に hello で送ってください",
            )
        )
        conn.close_code = NOT_DIRECTOR_CLOSE
        return False
    conn.send(await _snapshot(conn, live))
    live.subscribers.add(conn)
    return True


async def _snapshot(conn: Spectator, live: LiveTournament) -> str:
    """The snapshot ``conn`` is sent: trimmed for a page that shows no board's live scores."""
    conn.trimmed = not conn.full and conn.watching != "all"
    return await live.feed.snapshot_text(full=conn.full, trimmed=conn.trimmed)


async def _director_hello(
    inbox: Inbox, live: LiveTournament, guard: SignInGuard, address: str
) -> bool:
    """Whether the connection's first message, within :data:`HELLO_WAIT_S`, is a hello with the
    director's token (while ``address`` or the event must wait, the client is told why)."""
    try:
        text = await asyncio.wait_for(inbox.next(), timeout=HELLO_WAIT_S)
    except TimeoutError:
        return False
    try:
        msg = json.loads(text) if text is not None else None
    except ValueError:
        return False
    if not isinstance(msg, dict) or msg.get("type") != "hello":
        return False
    token = msg.get("token")
    if not isinstance(token, str):
        return False
    try:
        return signed_in(guard, address, live, token)
    except RoomError as err:
        inbox.reply.send_json(err.to_message())
        return False


async def _answer(conn: Spectator, live: LiveTournament, text: str) -> None:
    """Answer one message of a spectator (see :func:`watch`)."""
    try:
        msg = json.loads(text)
    except ValueError:
        msg = None
    kind = msg.get("type") if isinstance(msg, dict) else None
    key = msg.get("key") if isinstance(msg, dict) else None
    if kind in ("division", "entry", "search") and isinstance(key, str) and key:
        try:
            division, _, part = key.partition(":")
            if kind == "division" and part not in ("pools", "bracket"):
                raise TournamentError("bad_view", "No such view", "その表示はありません")
            key = key[:60]
            conn.send(await live.request_text(kind, key))
            if kind == "division" and part == "pools":
                conn.division = division  # its pool tables come with the updates
            elif kind != "division":
                found = [key] if kind == "entry" else [e.id for e in live.event.search(key)]
                conn.entries = {*conn.entries, *found}
                if len(conn.entries) > MAX_ASKED_ENTRIES:
                    conn.entries = set(found[:MAX_ASKED_ENTRIES])
        except TournamentError as err:
            conn.send_json(error_message(err.code, err.en, err.ja))
    elif kind == "watch" and key in WATCHING:
        conn.watching = WATCHING[WATCHING.index(key)]
    elif kind == "resync":
        conn.send(await _snapshot(conn, live))
    elif kind == "ping":
        conn.send_json({"type": "pong", "seq": live.seq})
    else:
        conn.send_json(error_message("bad_message", "Unknown message", "不明なメッセージです"))
