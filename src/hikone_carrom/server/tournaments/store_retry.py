"""A result that arrives from a pad or an online room while the store is down is not lost: it is
recorded again, with growing pauses, until the store takes it (the pad or room keeps it)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from hikone_carrom.server.core.errors import RoomError

__all__ = ["RETRY_PAUSES_S", "until_stored"]

log = logging.getLogger(__name__)

RETRY_PAUSES_S = (0.5, 1.0, 2.0, 5.0, 10.0) + (30.0,) * 30
"""The pauses between attempts, s: about a quarter of an hour in all."""


async def until_stored(attempt: Callable[[], Awaitable[None]], what: str) -> bool:
    """Run ``attempt`` again after each pause (the caller tried once) until it is not refused
    with ``store_unavailable``; returns whether it got through (any other refusal is raised).
    After the last pause the director enters the result by hand (logged)."""
    for pause in RETRY_PAUSES_S:
        await asyncio.sleep(pause)
        try:
            await attempt()
        except RoomError as err:
            if err.code != "store_unavailable":
                raise
            log.warning("%s: the store is unavailable, trying again", what)
            continue
        return True
    log.error("%s: not stored; the director enters it by hand", what)
    return False
