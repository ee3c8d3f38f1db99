"""JSON text of the play protocol, of the stored events and of the messages between server
processes: encoded by orjson, about ten times faster than the standard library for an event with
its animation tracks (a few hundred floats).

The text holds the same JSON values as ``json.dumps`` gives (only the bytes may differ): every
float in its shortest form that reads back to the same float (as ``repr``), characters beyond
ASCII as they are (UTF-8) rather than ``\\u`` escapes, keys that are not strings written as
strings. It never holds ``NaN`` or ``Infinity``, which are not JSON (a browser refuses the whole
message): orjson writes ``null`` for them, and the standard library's fallback refuses them.
What orjson does not take (a string with a lone surrogate, an integer past 64 bits) is written
and read by the standard library instead.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

__all__ = ["dumps", "loads"]

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY


def dumps(value: Any) -> str:
    """Compact JSON text of ``value``.

    Raises:
        ValueError: a lone surrogate or an integer past 64 bits together with a float that is
            not finite.
        TypeError: a value JSON has no form for.
    """
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)


def loads(text: str | bytes) -> Any:
    """The value of a JSON text, as a browser's ``JSON.parse`` reads it (also a lone
    surrogate's escape, which only the standard library reads; never ``NaN`` or ``Infinity``).

    Raises:
        ValueError: not JSON.
    """
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text, parse_constant=_not_json)


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
