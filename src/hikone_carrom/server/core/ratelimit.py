"""Limits (token buckets) so that one client cannot flood the server: WebSocket messages per
connection (every socket kind reads through an :class:`Inbox`), new rooms per client address, and
new WebSockets per client address (:class:`SocketGate`, for every socket kind together).

A refused message is dropped before it is read: nothing changes. The connection is told once per
run of refusals, and a client that keeps sending while refused is disconnected. A message longer
than its socket's limit, or a binary frame, is refused with ``bad_message``. A refused room is not
made (HTTP 429). A refused WebSocket is never accepted (HTTP 429 with ``Retry-After``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, Protocol

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hikone_carrom.server.core.errors import CloseCode, RoomError, error_message

__all__ = [
    "AddressRate",
    "Inbox",
    "MessageRate",
    "RateLimitError",
    "SocketGate",
    "cut_off_message",
    "rate_limited_message",
    "too_many_rooms",
    "too_many_sockets",
]


class RateLimitError(ValueError):
    """A message rate that cannot work (no burst, or a rate that is not positive and finite)."""


class MessageRate:
    """Token bucket: up to ``burst`` messages at once, refilled at ``per_second`` messages/s.

    ``cut_after`` refused messages in a row mean the client ignores the refusals and is cut off.
    ``clock`` is a monotonic time source in s (injectable for tests).
    """

    def __init__(
        self,
        burst: int,
        per_second: float,
        *,
        cut_after: int = 200,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if burst < 1 or cut_after < 1:
            raise RateLimitError(f"burst and cut_after must be >= 1 (got {burst}, {cut_after})")
        if not 0.0 < per_second < float("inf"):
            raise RateLimitError(f"per_second must be positive and finite (got {per_second})")
        self.burst = burst
        self.per_second = per_second
        self.cut_after = cut_after
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()
        self.refused_in_a_row = 0

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.per_second)
        self._at = now

    def allow(self) -> bool:
        """Take one message: True if it may be handled, False if it must be dropped."""
        self._refill()
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False

    def take(self, tokens: float) -> None:
        """Take up to ``tokens`` at once (never below none left)."""
        self._refill()
        self._tokens = max(0.0, self._tokens - tokens)

    @property
    def wait_s(self) -> float:
        """How long (s) until a message would be allowed."""
        now = self._clock()
        return max(0.0, (1.0 - self._tokens - (now - self._at) * self.per_second) / self.per_second)

    @property
    def ready(self) -> bool:
        """A message would be allowed now (nothing is taken: :meth:`allow` takes it)."""
        now = self._clock()
        return self._tokens + (now - self._at) * self.per_second >= 1.0

    @property
    def full(self) -> bool:
        """The bucket has refilled to its burst (nothing to remember about this client)."""
        now = self._clock()
        return self._tokens + (now - self._at) * self.per_second >= self.burst

    @property
    def first_refusal(self) -> bool:
        """The last message was the first refused one of a run (tell the client once)."""
        return self.refused_in_a_row == 1

    @property
    def cut_off(self) -> bool:
        """The client kept sending through ``cut_after`` refusals: close the connection."""
        return self.refused_in_a_row >= self.cut_after


def rate_limited_message(rate: MessageRate) -> dict[str, Any]:
    """The error a client gets when its messages start being dropped."""
    per_s = f"{rate.per_second:g}"
    return error_message(
        "rate_limited",
        f"Too many messages: at most {per_s} per second; this one was ignored, nothing changed",
        f"メッセージが多すぎます（1秒に {per_s} 件まで）。このメッセージは無視されました。"
        "何も変わっていません",
    )


def cut_off_message() -> dict[str, Any]:
    """The last message before a flooding client is disconnected."""
    return error_message(
        "rate_limited",
        "Too many messages: disconnected. Reload the page to get your seat back",
        "メッセージが多すぎるため切断しました。ページを再読み込みすると席に戻れます",
    )


class _Receiver(Protocol):
    async def receive(self) -> Any: ...


class _Replier(Protocol):
    def send_json(self, message: dict[str, Any]) -> None: ...


class Inbox:
    """The messages one WebSocket connection may have handled: each costs a token of ``rate``
    and may be at most ``max_chars`` characters of JSON text; refusals go back through
    ``reply`` (queued, never awaited). :attr:`flooded` tells why :meth:`next` gave up."""

    def __init__(
        self, websocket: _Receiver, reply: _Replier, rate: MessageRate, *, max_chars: int
    ) -> None:
        self.websocket = websocket
        self.reply = reply
        self.rate = rate
        self.max_chars = max_chars
        self.flooded = False
        """The client was cut off for sending through its refusals (close with ``FLOOD``)."""

    async def next(self) -> str | None:
        """The next message to handle; None once the client has gone or has been cut off."""
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return None
            rate = self.rate
            if not rate.allow():
                if rate.cut_off:
                    self.reply.send_json(cut_off_message())
                    self.flooded = True
                    return None
                if rate.first_refusal:
                    self.reply.send_json(rate_limited_message(rate))
                continue
            text = message.get("text")
            if not isinstance(text, str):
                self.reply.send_json(
                    error_message(
                        "bad_message",
                        "Binary frames are not part of the protocol: send JSON text",
                        "バイナリのメッセージは使えません。JSON のテキストを送ってください",
                    )
                )
            elif len(text) > self.max_chars:
                self.reply.send_json(
                    error_message(
                        "bad_message",
                        f"Message too long (at most {self.max_chars} characters)",
                        f"メッセージが長すぎます（{self.max_chars} 文字まで）",
                    )
                )
            else:
                return text


class AddressRate:
    """One :class:`MessageRate` per client address, ``per_minute`` at once (or ``burst``) and
    per minute; at most ``addresses`` buckets are kept (full ones, then the oldest, are forgotten
    first)."""

    def __init__(
        self,
        per_minute: float,
        *,
        burst: int | None = None,
        addresses: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = max(1, int(per_minute)) if burst is None else burst
        MessageRate(self.burst, per_minute / 60.0)  # refuse unusable rates now
        self.per_minute = per_minute
        self.addresses = addresses
        self._clock = clock
        self._buckets: dict[str, MessageRate] = {}

    def allow(self, address: str) -> bool:
        """Take one for ``address``: True if it may go ahead."""
        return self.bucket(address).allow()

    def bucket(self, address: str) -> MessageRate:
        """The bucket of ``address`` (a full one if it had none), now the most recently used."""
        bucket = self._buckets.pop(address, None)
        if bucket is None:
            if len(self._buckets) >= self.addresses:
                self._forget()
            bucket = MessageRate(self.burst, self.per_minute / 60.0, clock=self._clock)
        self._buckets[address] = bucket  # most recently used last
        return bucket

    def _forget(self) -> None:
        for address, bucket in list(self._buckets.items()):
            if bucket.full:
                del self._buckets[address]
        while len(self._buckets) >= self.addresses:
            del self._buckets[next(iter(self._buckets))]

    def __len__(self) -> int:
        return len(self._buckets)


def too_many_rooms(per_minute: float) -> RoomError:
    """The refusal of a new room over the per-address limit (HTTP 429)."""
    n = f"{per_minute:g}"
    return RoomError(
        "rate_limited",
        f"Too many new rooms from your address (at most {n} a minute): wait a moment",
        f"この接続元からの部屋の作成が多すぎます（1分に {n} 部屋まで）。少し待ってください",
        status=429,
    )


SOCKET_BURST_S = 10.0
"""New WebSockets one address may open at once, in seconds of its rate (2/s: 20 at once)."""

CUT_OFF_COST = 0.5
"""What a socket the server cut off (``FLOOD``, ``TOO_SLOW``) costs its address, as a share of
the burst (never below none left): a client cut off again and again is soon down to the steady
rate, while a client cut off once still reconnects at once."""


class SocketGate:
    """ASGI middleware: at most ``per_second`` new WebSockets per client address (all socket
    kinds together), ``per_second`` x :data:`SOCKET_BURST_S` at once; one over is refused before
    it is accepted: HTTP 429 with ``Retry-After`` and a ``rate_limited`` body in both languages
    (a close 1008 where the server cannot answer a handshake with HTTP). A socket the server cut
    off costs its address :data:`CUT_OFF_COST` of the burst more (a back-off). At most
    ``addresses`` addresses are remembered (:class:`AddressRate`)."""

    def __init__(self, app: ASGIApp, per_second: float, *, addresses: int = 10_000) -> None:
        self.app = app
        burst = max(1, math.ceil(per_second * SOCKET_BURST_S))
        self.rate = AddressRate(per_second * 60.0, burst=burst, addresses=addresses)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        bucket = self.rate.bucket(address)
        if not bucket.allow():
            await self._refuse(scope, receive, send, bucket.wait_s)
            return

        async def watch(message: Message) -> None:
            if message["type"] == "websocket.close" and message.get("code") in _CUT_OFF:
                self.rate.bucket(address).take(self.rate.burst * CUT_OFF_COST)
            await send(message)

        await self.app(scope, receive, watch)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, wait_s: float) -> None:
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": int(CloseCode.FLOOD)})
            return
        err = too_many_sockets(self.rate.per_minute / 60.0, wait_s)
        refusal = JSONResponse(
            {"detail": err.detail()},
            status_code=err.status,
            headers={"Retry-After": str(max(1, math.ceil(wait_s)))},
        )
        await refusal(scope, receive, send)


_CUT_OFF = (int(CloseCode.FLOOD), int(CloseCode.TOO_SLOW))


def too_many_sockets(per_second: float, wait_s: float) -> RoomError:
    """The refusal of a new WebSocket over the per-address limit (HTTP 429)."""
    n = f"{per_second:g}"
    return RoomError(
        "rate_limited",
        f"Too many new connections from your address (at most {n} a second): "
        "wait a moment before connecting again",
        f"この接続元からの新しい接続が多すぎます（1秒に {n} 件まで）。"
        "少し待ってから接続してください",
        status=429,
        retry_after_s=wait_s,
    )
