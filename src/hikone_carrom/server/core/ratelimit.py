"""Limits (token buckets) so that one client cannot flood the server: WebSocket messages per
connection (every socket kind reads through an :class:`Inbox`), and new rooms per client address.

A refused message is dropped before it is read: nothing changes. The connection is told once per
run of refusals, and a client that keeps sending while refused is disconnected. A message longer
than its socket's limit, or a binary frame, is refused with ``bad_message``. A refused room is not
made (HTTP 429).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from hikone_carrom.server.core.errors import RoomError, error_message

__all__ = [
    "AddressRate",
    "Inbox",
    "MessageRate",
    "RateLimitError",
    "cut_off_message",
    "rate_limited_message",
    "too_many_rooms",
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

    def allow(self) -> bool:
        """Take one message: True if it may be handled, False if it must be dropped."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.per_second)
        self._at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False

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
    """One :class:`MessageRate` per client address, ``per_minute`` at once and per minute; at most
    ``addresses`` buckets are kept (full ones, then the oldest, are forgotten first)."""

    def __init__(
        self,
        per_minute: float,
        *,
        addresses: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        MessageRate(max(1, int(per_minute)), per_minute / 60.0)  # refuse unusable rates now
        self.per_minute = per_minute
        self.addresses = addresses
        self._clock = clock
        self._buckets: dict[str, MessageRate] = {}

    def allow(self, address: str) -> bool:
        """Take one for ``address``: True if it may go ahead."""
        bucket = self._buckets.pop(address, None)
        if bucket is None:
            if len(self._buckets) >= self.addresses:
                self._forget()
            bucket = MessageRate(
                max(1, int(self.per_minute)), self.per_minute / 60.0, clock=self._clock
            )
        self._buckets[address] = bucket  # most recently used last
        return bucket.allow()

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
