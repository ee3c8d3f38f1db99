"""The lobby of one server process: waiting seeks and open challenges, kept in memory, paired
into online rooms as soon as they match (on every new seek, and again every ``TICK_S`` as the
rating ranges widen); a seek not polled for ``expire_s`` is dropped.

A seek's token is an HMAC of its id under the server's secret, so a token proves one seek only
and is checked without a lookup.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from hikone_carrom.lobby import Pairing, Seeker, pair
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.lobby.errors import (
    bad_seek_token,
    lobby_full,
    no_challenge,
    no_seek,
    own_challenge,
)
from hikone_carrom.server.lobby.identity import Guests, Identity, time_control
from hikone_carrom.server.rooms.registry import RoomRegistry
from hikone_carrom.server.rooms.schemas import CreateRoom

__all__ = ["EXPIRE_S", "MAX_SEEKS", "TICK_S", "LiveInfo", "Lobby", "Seek"]

log = logging.getLogger(__name__)

EXPIRE_S = 30.0
"""A seek not polled for this long (s) is withdrawn."""

MAX_SEEKS = 2_000
"""Seeks and challenges one process keeps at most (waiting or paired, not yet expired)."""

TICK_S = 0.25
"""How often (s) the waiting seeks are paired again and the expired ones dropped."""

MAX_LIVE = 500
"""Lobby games remembered for the live list."""


@dataclass
class Seek:
    """One player's seek. ``challenge``: listed publicly and paired only with those who accept
    it (``joined``); ``paired``: the room, seat and seat token once paired."""

    seeker: Seeker
    name: str
    address: str
    seen: float
    challenge: bool = False
    joined: list[str] = field(default_factory=list)
    room: str | None = None
    seat: int | None = None
    seat_token: str | None = None

    def status(self) -> dict[str, Any]:
        """The seek as its holder polls it."""
        if self.room is None:
            return {"status": "waiting"}
        return {
            "status": "paired",
            "room": self.room,
            "seat": self.seat,
            "seat_token": self.seat_token,
        }


@dataclass(frozen=True)
class LiveInfo:
    """What the lobby knows of a game it paired: rated, each seat's rating, when it started."""

    rated: bool
    ratings: tuple[float | None, ...]
    started: str


class Lobby:
    """Seeks and challenges of this process, paired into rooms of ``registry``."""

    def __init__(
        self,
        registry: RoomRegistry,
        secret: str,
        identity: Identity | None = None,
        *,
        expire_s: float = EXPIRE_S,
        max_seeks: int = MAX_SEEKS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.registry = registry
        self.identity: Identity = identity or Guests()
        self.expire_s = expire_s
        self.max_seeks = max_seeks
        self.clock = clock
        self._secret = hashlib.sha256(f"lobby:{secret}".encode()).digest()
        self.seeks: dict[str, Seek] = {}
        self.games: dict[str, LiveInfo] = {}
        """The rooms the lobby paired, newest last (for the live list)."""
        self._lock = asyncio.Lock()
        self._ticker: asyncio.Task[None] | None = None

    # -- tokens ----------------------------------------------------------------------------

    def token_of(self, seek_id: str) -> str:
        """The token of seek ``seek_id``."""
        mac = hmac.new(self._secret, seek_id.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def held(self, seek_id: str, token: str) -> Seek:
        """The seek ``token`` proves (else 403 ``bad_token``; 404 ``no_seek`` once it is over)."""
        if not hmac.compare_digest(self.token_of(seek_id).encode(), token.encode()):
            raise bad_seek_token()
        seek = self.seeks.get(seek_id)
        if seek is None:
            raise no_seek()
        seek.seen = self.clock()
        return seek

    # -- seeks -----------------------------------------------------------------------------

    async def seek(
        self,
        minutes: int | None,
        players: int,
        name: str,
        address: str,
        account: tuple[str, str] | None,
        *,
        challenge: bool = False,
    ) -> tuple[Seek, str]:
        """A new seek (paired at once when a match waits); returns it with its token."""
        self.expire()
        if len(self.seeks) >= self.max_seeks:
            raise lobby_full(self.max_seeks)
        now = self.clock()
        account_id = None if account is None else account[0]
        rating = (
            None
            if account_id is None
            else await self.identity.rating_of(account_id, time_control(minutes), players)
        )
        seek_id = secrets.token_urlsafe(9)
        seeker = Seeker(seek_id, minutes, players, now, account_id, rating)
        shown = name if account is None else account[1]
        seek = Seek(seeker, shown, address, now, challenge=challenge)
        self.seeks[seek_id] = seek
        if not challenge:
            await self.pair_waiting()
        return seek, self.token_of(seek_id)

    async def withdraw(self, seek_id: str, token: str) -> None:
        """Withdraw a seek (a challenge: with the seeks that accepted it); a paired seek's room
        stays as it is."""
        seek = self.held(seek_id, token)
        async with self._lock:
            self._drop(seek)

    def _drop(self, seek: Seek) -> None:
        self.seeks.pop(seek.seeker.id, None)
        if seek.room is None:
            for joined in seek.joined:
                self.seeks.pop(joined, None)
            for other in self.seeks.values():
                if seek.seeker.id in other.joined:
                    other.joined.remove(seek.seeker.id)

    def expire(self) -> None:
        """Drop every seek not polled for ``expire_s``."""
        limit = self.clock() - self.expire_s
        for seek in [s for s in self.seeks.values() if s.seen < limit]:
            self._drop(seek)

    # -- challenges ------------------------------------------------------------------------

    def challenges(self) -> list[dict[str, Any]]:
        """The open challenges, oldest first, as anyone may see them (no tokens)."""
        self.expire()
        now = self.clock()
        shown = []
        for seek in self.seeks.values():
            if not seek.challenge or seek.room is not None:
                continue
            s = seek.seeker
            shown.append(
                {
                    "id": s.id,
                    "minutes": s.minutes,
                    "players": s.players,
                    "name": seek.name,
                    "rating": s.rating,
                    "seats_taken": 1 + len(seek.joined),
                    "waiting_s": round(now - s.since, 1),
                }
            )
        return shown

    async def accept(
        self, challenge_id: str, name: str, address: str, account: tuple[str, str] | None
    ) -> tuple[Seek, str]:
        """Accept an open challenge: a seek joined to it, paired with it once every seat is
        taken (at once in singles); returns the seek with its token."""
        self.expire()
        challenge = self.seeks.get(challenge_id)
        if challenge is None or not challenge.challenge or challenge.room is not None:
            raise no_challenge()
        mine = None if account is None else account[0]
        if mine is not None and mine == challenge.seeker.account:
            raise own_challenge()
        s = challenge.seeker
        seek, token = await self.seek(s.minutes, s.players, name, address, account, challenge=True)
        seek.challenge = False
        async with self._lock:
            if challenge.seeker.id not in self.seeks or challenge.room is not None:
                self._drop(seek)
                raise no_challenge()
            challenge.joined.append(seek.seeker.id)
            if 1 + len(challenge.joined) == s.players:
                group = [challenge, *(self.seeks[j] for j in challenge.joined)]
                seats = [g.seeker for g in group]
                secrets.SystemRandom().shuffle(seats)
                rated = all(g.account is not None for g in seats)
                await self._open_room(Pairing(tuple(seats), rated))
        return seek, token

    # -- pairing ---------------------------------------------------------------------------

    async def pair_waiting(self) -> None:
        """Pair every waiting seek that can be paired now, each pairing into a new room."""
        async with self._lock:
            waiting = [
                s.seeker
                for s in self.seeks.values()
                if s.room is None and not s.challenge and not self._joined(s)
            ]
            for pairing in pair(waiting, self.clock(), secrets.SystemRandom()):
                await self._open_room(pairing)

    def _joined(self, seek: Seek) -> bool:
        return any(seek.seeker.id in other.joined for other in self.seeks.values())

    async def _open_room(self, pairing: Pairing) -> None:
        """The online room of ``pairing``: every seat kept for it (nobody else may sit down),
        each seek given its seat's token; 5 minutes play the championship rules (R7b, R8a)."""
        seeks = [self.seeks[s.id] for s in pairing.seats]
        first = seeks[0]
        minutes = first.seeker.minutes
        request = CreateRoom(
            mode="online",
            players=2 if len(seeks) == 2 else 4,
            minutes=minutes,
            name=first.name,
            hints=False,
        )
        held = secrets.token_urlsafe(18)
        try:
            room, token = await self.registry.create(request, held)
            tokens = [token]
            for seat, seek in enumerate(seeks[1:], start=1):
                tokens.append(await room.take_seat(seat, seek.name, held))
        except RoomError as err:  # the store is down: they stay waiting and try again
            log.warning("lobby: cannot open a room: %s", err)
            return
        for seat, (seek, seat_token) in enumerate(zip(seeks, tokens, strict=True)):
            seek.room, seek.seat, seek.seat_token = room.config.id, seat, seat_token
            seek.joined.clear()
            if seek.seeker.account is not None:
                await self.identity.seated(room.config.id, seat, seek.seeker.account)
        self.games[room.config.id] = LiveInfo(
            pairing.rated,
            tuple(s.rating for s in pairing.seats),
            datetime.now(UTC).isoformat(timespec="seconds"),
        )
        while len(self.games) > MAX_LIVE:
            del self.games[next(iter(self.games))]

    # -- life ------------------------------------------------------------------------------

    def start(self) -> None:
        """Pair and expire in the background until :meth:`close`."""
        self._ticker = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            try:
                self.expire()
                await self.pair_waiting()
            except Exception:  # never stop pairing for one failure
                log.exception("lobby: pairing failed")

    async def close(self) -> None:
        """Stop pairing."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
