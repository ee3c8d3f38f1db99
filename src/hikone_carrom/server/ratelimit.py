"""A per-connection limit on WebSocket messages (token bucket), so one client cannot flood a room.

A refused message is dropped before it is read: nothing changes. The connection is told once per
run of refusals, and a client that keeps sending while refused is disconnected.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from hikone_carrom.server.errors import error_message

__all__ = ["MessageRate", "RateLimitError", "cut_off_message", "rate_limited_message"]


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
