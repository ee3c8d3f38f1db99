"""Errors a client can cause; each carries a code and a message in English and Japanese."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from pydantic import BaseModel

__all__ = [
    "ERROR_STATUSES",
    "CloseCode",
    "DuplicateAction",
    "ErrorBody",
    "ErrorDetail",
    "FieldProblem",
    "RoomError",
    "cluster_unavailable",
    "error_message",
    "errors",
    "file_answer",
    "room_moved",
    "store_unavailable",
]


class CloseCode(IntEnum):
    """Why the server closes a WebSocket; after any of them the client reconnects, says hello
    with its token and last event number, and gets a snapshot (nothing is lost)."""

    FLOOD = 1008
    """The client kept sending while its messages were refused (``rate_limited``)."""
    ROOM_MOVED = 4001
    """Another server process now serves the room."""
    TOO_SLOW = 4002
    """The client fell behind: more than the send buffer was waiting for it."""
    UNAVAILABLE = 1013
    """The room cannot be served just now (the store or the other server processes cannot be
    reached): try again later."""


class RoomError(Exception):
    """A request a room refuses; nothing changed.

    ``code`` is stable for programs (e.g. ``not_your_seat``); ``en``/``ja`` are for people;
    ``rule`` names the rule id when one applies; ``status`` is the HTTP status for REST;
    ``retry_after_s`` the wait before trying again (REST ``Retry-After``).
    """

    def __init__(
        self,
        code: str,
        en: str,
        ja: str,
        *,
        rule: str | None = None,
        status: int = 409,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(f"{code}: {en}")
        self.code = code
        self.en = en
        self.ja = ja
        self.rule = rule
        self.status = status
        self.retry_after_s = retry_after_s

    def to_message(self) -> dict[str, Any]:
        """The WebSocket error message for the client that caused it."""
        return error_message(self.code, self.en, self.ja, rule=self.rule)

    def detail(self) -> dict[str, Any]:
        """The REST error detail."""
        return {"code": self.code, "en": self.en, "ja": self.ja, "rule": self.rule}


def error_message(code: str, en: str, ja: str, *, rule: str | None = None) -> dict[str, Any]:
    """``{"type": "error", ...}`` as sent over the WebSocket."""
    return {"type": "error", "code": code, "message": {"en": en, "ja": ja}, "rule": rule}


class DuplicateAction(Exception):
    """A client action whose id was already played: it is not played again (``seq`` is the
    event it produced)."""

    def __init__(self, action_id: str, seq: int) -> None:
        super().__init__(f"action {action_id} was played as event {seq}")
        self.action_id = action_id
        self.seq = seq

    def to_message(self) -> dict[str, Any]:
        """The notice for the client that sent the action again."""
        return {"type": "duplicate", "id": self.action_id, "seq": self.seq}


def store_unavailable() -> RoomError:
    """The game store cannot be written: the change was not made (HTTP 503)."""
    return RoomError(
        "store_unavailable",
        "The game store is unavailable, so nothing changed; try again in a moment",
        "記録を保存できないため、何も変わっていません。少し待ってからもう一度どうぞ",
        status=503,
    )


def room_moved() -> RoomError:
    """The room is now served from a newer copy (another process took it over; HTTP 409)."""
    return RoomError(
        "room_moved",
        "This room moved to another server process; reconnecting gets it back",
        "この部屋は別のサーバーに移りました。再接続すると続きから遊べます",
        status=409,
    )


def cluster_unavailable() -> RoomError:
    """The server processes cannot reach each other (Redis is down): nothing changed (HTTP 503)."""
    return RoomError(
        "cluster_unavailable",
        "The game servers cannot reach each other just now, so nothing changed; "
        "try again in a moment",
        "ゲームサーバー同士が今は連絡できないため、何も変わっていません。少し待ってからもう一度どうぞ",
        status=503,
    )


# -- the REST error body, as /openapi.json describes it --------------------------------------


class FieldProblem(BaseModel):
    """One refused field of a 422 ``bad_request``: its path (``names.1``), pydantic's error type
    and one sentence in each language."""

    field: str
    type: str
    en: str
    ja: str


class ErrorDetail(BaseModel):
    """Why a request was refused: ``code`` for programs, ``en``/``ja`` for people, the rule id
    when one applies; ``fields`` only in a 422 ``bad_request`` (one sentence per field)."""

    code: str
    en: str
    ja: str
    rule: str | None = None
    fields: list[FieldProblem] | None = None


class ErrorBody(BaseModel):
    """Every REST refusal's body (:meth:`RoomError.detail`, 422s of
    :func:`~hikone_carrom.server.core.validation.validation_detail`)."""

    detail: ErrorDetail


ERROR_STATUSES: dict[int, str] = {
    400: "Bad request (e.g. a host name this server does not serve)",
    401: "A token or key is missing or wrong",
    403: "Not allowed with this token (a seat or board of someone else)",
    404: "No such room, game, board, match or event",
    409: "Refused in the current state (a seat taken, a match not over, ...)",
    413: "The request is too large",
    422: "The request does not validate (``bad_request`` lists each field) or breaks a rule",
    429: "Too many requests from this address: wait a moment",
    503: "The store or the other server processes cannot be reached: nothing changed",
}
"""Error statuses the API answers, with what each means."""


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a route: each of ``statuses`` answers an :class:`ErrorBody`."""
    return {s: {"model": ErrorBody, "description": ERROR_STATUSES[s]} for s in statuses}


def file_answer(media_type: str, status: int = 200) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a route answering a file (``text/csv``, ``application/pdf``, an SVG)."""
    return {status: {"content": {media_type: {}}, "description": "The file"}}
