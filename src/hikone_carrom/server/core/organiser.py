"""The organiser's key (who may create events and boards) and the throttles on creating and on
guessing a director's secret.

The organiser's key is the server's: ``--organiser-key``, ``$HIKONE_CARROM_ORGANISER_KEY``, or
the one kept with the store (made by the first server to start). A request carries it as
``Authorization: Bearer KEY``; it is compared in constant time.
"""

from __future__ import annotations

import hmac
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.core.ratelimit import MessageRate

__all__ = [
    "FailureBudget",
    "FailureThrottle",
    "SignInGuard",
    "bearer",
    "is_organiser",
    "no_organiser_key",
    "sign_in_link",
    "too_many_creations",
    "too_many_failures",
]


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, or None."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def is_organiser(token: str | None, key: str) -> bool:
    """Whether ``token`` is the organiser's ``key`` (constant time)."""
    return token is not None and hmac.compare_digest(token.encode(), key.encode())


def sign_in_link(base_url: str, key: str) -> str:
    """The organiser's sign-in link: the start page with the key (``http://HOST:PORT/?key=KEY``)."""
    return f"{base_url.rstrip('/')}/?key={key}"


def no_organiser_key() -> RoomError:
    """The refusal of a creation without the organiser's key (HTTP 401)."""
    return RoomError(
        "not_organiser",
        "Creating events and boards needs the organiser's key: open the sign-in link the server "
        "printed when it started (http://HOST:PORT/?key=...) in this browser",
        "大会と台の作成には主催者キーが必要です。サーバーの起動時に表示されたサインイン用リンク"
        "（http://ホスト:ポート/?key=...）をこのブラウザで開いてください",
        status=401,
    )


def too_many_creations(per_minute: float) -> RoomError:
    """The refusal of a creation over the per-address limit (HTTP 429, ``Retry-After``)."""
    n = f"{per_minute:g}"
    return RoomError(
        "rate_limited",
        f"Too many events or boards created from your address (at most {n} a minute): "
        "wait a moment",
        f"この接続元からの大会・台の作成が多すぎます（1分に {n} 件まで）。少し待ってください",
        status=429,
        retry_after_s=60.0 / per_minute,
    )


def too_many_failures(wait_s: float) -> RoomError:
    """The refusal of a sign-in after too many wrong secrets (HTTP 429, ``Retry-After``)."""
    s = math.ceil(wait_s)
    return RoomError(
        "too_many_failures",
        f"Too many wrong tokens: try again in {s} s",
        f"トークンの誤りが多すぎます。{s} 秒後にもう一度どうぞ",
        status=429,
        retry_after_s=wait_s,
    )


@dataclass
class _Failures:
    count: int
    last_s: float


class FailureThrottle:
    """Failed attempts per key (a client address, an event): the first ``free`` failures cost
    nothing, then each one makes the key wait ``base_s`` doubled per further failure, at most
    ``max_s``, from the last failure. A success forgets the key; so does ``forget_s`` without a
    failure. At most ``keys`` keys are kept (the oldest are forgotten first).
    ``clock`` is a monotonic time source in s (injectable for tests)."""

    def __init__(
        self,
        free: int,
        *,
        base_s: float = 1.0,
        max_s: float = 300.0,
        forget_s: float = 3600.0,
        keys: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.free = free
        self.base_s = base_s
        self.max_s = max_s
        self.forget_s = forget_s
        self.keys = keys
        self._clock = clock
        self._failures: dict[str, _Failures] = {}

    def wait_s(self, key: str) -> float:
        """How long ``key`` must wait before its next attempt is checked, s (0: now)."""
        seen = self._failures.get(key)
        if seen is None:
            return 0.0
        now = self._clock()
        if now - seen.last_s >= self.forget_s:
            del self._failures[key]
            return 0.0
        if seen.count < self.free:
            return 0.0
        delay = min(self.max_s, self.base_s * 2.0 ** (seen.count - self.free))
        return max(0.0, seen.last_s + delay - now)

    def failed(self, key: str) -> None:
        """One more failed attempt of ``key``."""
        seen = self._failures.pop(key, None) or _Failures(0, 0.0)
        seen.count += 1
        seen.last_s = self._clock()
        while len(self._failures) >= self.keys:
            del self._failures[next(iter(self._failures))]
        self._failures[key] = seen  # most recent last

    def succeeded(self, key: str) -> None:
        """A right secret: ``key`` starts afresh."""
        self._failures.pop(key, None)

    def __len__(self) -> int:
        return len(self._failures)


class FailureBudget:
    """Failed attempts per key (an event) from everyone together: ``burst`` at once, then
    ``per_minute`` (a token bucket, :class:`MessageRate`); at most ``keys`` keys are kept."""

    def __init__(
        self,
        burst: int,
        per_minute: float,
        *,
        keys: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.per_minute = per_minute
        self.keys = keys
        self._clock = clock
        self._buckets: dict[str, MessageRate] = {}

    def wait_s(self, key: str) -> float:
        """How long ``key`` must wait before its next attempt is checked, s (0: now)."""
        bucket = self._buckets.get(key)
        return 0.0 if bucket is None or bucket.ready else 60.0 / self.per_minute

    def failed(self, key: str) -> None:
        """One more failed attempt of ``key`` (takes one from its budget)."""
        bucket = self._buckets.pop(key, None)
        if bucket is None:
            bucket = MessageRate(self.burst, self.per_minute / 60.0, clock=self._clock)
            while len(self._buckets) >= self.keys:
                del self._buckets[next(iter(self._buckets))]
        bucket.allow()
        self._buckets[key] = bucket  # most recent last


class SignInGuard:
    """Throttles wrong director secrets per client address (:class:`FailureThrottle`,
    ``per_address`` free failures, then a doubling back-off) and per event from every address
    together (:class:`FailureBudget`, ``event_burst`` at once, then ``event_per_minute``). A
    refused attempt is not checked, so it counts nowhere. One address never spends an event's
    budget (its back-off lets through 24 secrets in an hour, the budget refills 120), so the
    director signs in from another address while one address guesses."""

    def __init__(
        self,
        per_address: int = 5,
        event_burst: int = 20,
        event_per_minute: float = 2.0,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.addresses = FailureThrottle(per_address, clock=clock)
        self.events = FailureBudget(event_burst, event_per_minute, clock=clock)

    def check(self, address: str, event: str) -> None:
        """Raise :func:`too_many_failures` if this attempt must wait."""
        wait = max(self.addresses.wait_s(address), self.events.wait_s(event))
        if wait > 0.0:
            raise too_many_failures(wait)

    def failed(self, address: str, event: str) -> None:
        """A wrong secret from ``address`` for ``event``."""
        self.addresses.failed(address)
        self.events.failed(event)

    def succeeded(self, address: str) -> None:
        """The right secret: ``address`` starts afresh (the event's budget refills by itself)."""
        self.addresses.succeeded(address)
