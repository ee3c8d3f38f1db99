"""The messages a client may send on a socket, read the same way on every socket kind.

Each kind (rooms, boards, an event's spectators, the director's console) takes a discriminated
union of strict pydantic models, told apart by their ``type``; its :class:`Inbox` has already
bounded the text's length (``core/ratelimit.py``). A message that is not JSON, has no or an
unknown ``type``, or a field out of its bounds raises ``bad_message`` (English and Japanese,
naming the types the socket takes or the field at fault); nothing changes. Values are never
echoed.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from hikone_carrom.server.core.errors import RoomError

__all__ = ["SocketMessages"]

M = TypeVar("M", bound=BaseModel)

_UNKNOWN = {"union_tag_invalid", "union_tag_not_found"}
"""pydantic's errors of a union for a message without a known ``type``."""

_NOT_AN_OBJECT = {"json_invalid", "json_type", "model_type", "model_attributes_type", "dict_type"}


class SocketMessages(Generic[M]):
    """What one socket kind takes: ``adapter`` validates a whole message (a discriminated union
    by ``type``, or one model); :attr:`types` are the types it takes, sorted. ``unknown``:
    the socket's own refusal of any other type (English, Japanese)."""

    def __init__(self, adapter: TypeAdapter[M], *, unknown: tuple[str, str] | None = None) -> None:
        self.adapter = adapter
        self.types = _types(adapter.json_schema())
        self.unknown = unknown
        """The refusal of an unknown type (English, Japanese), when the socket has its own."""

    def read(self, text: str) -> M:
        """The message ``text`` (JSON) as its model.

        Raises:
            RoomError: ``bad_message`` (not a JSON object, no or an unknown type, a field out
                of bounds); nothing changed.
        """
        try:
            return self.adapter.validate_json(text)
        except ValidationError as err:
            raise self._refusal(err) from None

    def _refusal(self, err: ValidationError) -> RoomError:
        first = err.errors(include_url=False, include_input=False)[0]
        loc = [str(p) for p in first.get("loc", ())]
        kind = first.get("type", "")
        listed = ", ".join(self.types)
        if kind in _UNKNOWN or (loc == ["type"] and kind in ("missing", "literal_error")):
            if self.unknown is not None:
                return RoomError("bad_message", *self.unknown)
            return RoomError(
                "bad_message",
                f"Unknown message type: this socket takes {listed}",
                f"不明な種類のメッセージです（{'、'.join(self.types)} のみ）",
            )
        if kind in _NOT_AN_OBJECT and len(loc) <= 1:
            return RoomError(
                "bad_message",
                f"Malformed message: send a JSON object whose type is one of {listed}",
                f"メッセージの形式が正しくありません。type が {'、'.join(self.types)} の"
                "いずれかの JSON オブジェクトを送ってください",
            )
        if loc and loc[0] in self.types:
            loc = loc[1:]  # the union's tag
        where = ".".join(loc)
        return RoomError(
            "bad_message",
            f"Malformed message ({where}: {first.get('msg', 'invalid')})",
            f"メッセージの形式が正しくありません（{where}）",
        )


def _types(schema: dict[str, Any]) -> tuple[str, ...]:
    """The ``type`` values a JSON schema of one model or of a union by ``type`` takes."""
    mapping = schema.get("discriminator", {}).get("mapping")
    if mapping:
        return tuple(sorted(mapping))
    const = schema.get("properties", {}).get("type", {}).get("const")
    if not isinstance(const, str):
        raise TypeError("a socket's messages are told apart by a literal 'type'")
    return (const,)
