"""The spectators' socket's compressed frames: a page that says it can inflate them (``?z=1``,
the browser's ``DecompressionStream("deflate-raw")``) is sent each message as one binary frame,
the message's JSON text deflated on its own (raw deflate, no header, no context kept from one
message to the next). Each text is deflated once however many connections take it (the feed
hands every connection the same text object)."""

from __future__ import annotations

import zlib
from functools import lru_cache

__all__ = ["DEFLATE_LEVEL", "deflated"]

DEFLATE_LEVEL = 6
"""zlib's level: the sizes of levels 6-9 are within 1 % on the feed's messages, 9 costs more."""


@lru_cache(maxsize=64)
def deflated(text: str) -> bytes:
    """``text`` as UTF-8, raw-deflated (what ``DecompressionStream("deflate-raw")`` inflates)."""
    packer = zlib.compressobj(DEFLATE_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return packer.compress(text.encode()) + packer.flush()
