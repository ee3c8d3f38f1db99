"""Refused REST requests in words: one sentence per field, in English and Japanese.

FastAPI answers a request that does not validate with status 422 and pydantic's list of errors;
this module turns that list into the body every refusal of the API has (``code`` "bad_request",
``en``, ``ja``, ``rule``) plus ``fields``: ``[{"field": "minutes", "type": ..., "en": "...",
"ja": "..."}]``, so that a page can show each sentence next to its field.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["FIELD_NAMES", "MAX_INT", "StrictBody", "field_sentence", "validation_detail"]

MAX_INT = 2**31 - 1
"""Largest integer any request may carry (match and event numbers, seeds): every SQL integer
column holds it."""


class StrictBody(BaseModel):
    """Base of every REST body and WebSocket message: exact JSON types (no ``true`` for 1, no
    ``0`` for false, no ``"1"`` for 1; a number field takes an integer), no unknown fields, no
    NaN or infinities. A fixed-length array field (a tuple) says ``Field(strict=False)`` so that
    FastAPI's JSON list is taken; its items stay strict."""

    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)


FIELD_NAMES: dict[str, tuple[str, str]] = {
    "mode": ("Mode", "モード"),
    "players": ("Players", "人数"),
    "level": ("Computer level", "コンピュータの強さ"),
    "minutes": ("Minutes", "試合時間（分）"),
    "name": ("Your name", "名前"),
    "names": ("Player names", "プレイヤーの名前"),
    "hints": ("Hints", "ヒント"),
    "rooms": ("Rooms", "部屋の一覧"),
    "room_id": ("Room", "部屋"),
    "game_id": ("Game", "試合"),
    "token": ("Seat token", "席の鍵"),
    "seat": ("Seat", "席"),
    "limit": ("Number of games", "試合の数"),
    "offset": ("First game", "最初の試合"),
    "body": ("The request", "リクエスト"),
}
"""How people call each field of the API: (English, Japanese)."""


def _field(loc: Sequence[Any]) -> tuple[str, str, str]:
    """(field path, English name, Japanese name) of an error location such as
    ``("body", "names", 1)``."""
    parts = [p for p in loc if p not in ("body", "query", "path")] or ["body"]
    path = ".".join(str(p) for p in parts)
    head = str(parts[0])
    en, ja = FIELD_NAMES.get(head, (head, head))
    index = next((p for p in parts[1:] if isinstance(p, int)), None)
    if head == "names" and index is not None:
        return path, f"The name of player {index + 1}", f"プレイヤー{index + 1}の名前"
    if head == "rooms" and index is not None:
        return path, f"Room {index + 1} of the list", f"一覧の部屋{index + 1}"
    return path, en, ja


def _bounds(ctx: dict[str, Any]) -> tuple[str, str]:
    """The limit a number broke as words (en, ja): "more than 0", "at most 120"."""
    en: list[str] = []
    ja: list[str] = []
    for key, word_en, word_ja in (
        ("gt", "more than {}", "{}より大きい"),
        ("ge", "at least {}", "{}以上の"),
        ("lt", "less than {}", "{}未満の"),
        ("le", "at most {}", "{}以下の"),
    ):
        if key in ctx:
            value = ctx[key]
            text = f"{value:g}" if isinstance(value, float) else str(value)
            en.append(word_en.format(text))
            ja.append(word_ja.format(text))
    return " and ".join(en), "、".join(ja)


def field_sentence(error: dict[str, Any]) -> dict[str, str]:
    """One pydantic error as ``{"field", "en", "ja"}``."""
    path, en, ja = _field(error.get("loc", ()))
    kind = str(error.get("type", ""))
    ctx: dict[str, Any] = dict(error.get("ctx") or {})
    if kind == "missing":
        return {"field": path, "en": f"{en} is required.", "ja": f"{ja}を入力してください。"}
    if kind in ("string_too_long", "too_long"):
        n = ctx.get("max_length")
        if kind == "too_long":
            return {
                "field": path,
                "en": f"{en} may have at most {n} entries.",
                "ja": f"{ja}は{n}件までです。",
            }
        return {
            "field": path,
            "en": f"{en} may be at most {n} characters long.",
            "ja": f"{ja}は{n}文字までです。",
        }
    if kind in ("string_too_short", "too_short"):
        return {"field": path, "en": f"{en} cannot be empty.", "ja": f"{ja}を入力してください。"}
    if kind == "string_pattern_mismatch":
        return {
            "field": path,
            "en": f"{en} cannot contain <, > or control characters.",
            "ja": f"{ja}に < や > 、制御文字は使えません。",
        }
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        b_en, b_ja = _bounds(ctx)
        return {
            "field": path,
            "en": f"{en} must be a number {b_en}.",
            "ja": f"{ja}は{b_ja}数にしてください。",
        }
    if kind in ("float_parsing", "float_type", "int_parsing", "int_type", "int_from_float"):
        return {
            "field": path,
            "en": f"{en} must be a number.",
            "ja": f"{ja}は数で入力してください。",
        }
    if kind == "finite_number":
        return {
            "field": path,
            "en": f"{en} must be a finite number.",
            "ja": f"{ja}は有限の数にしてください。",
        }
    if kind in ("bool_parsing", "bool_type"):
        return {
            "field": path,
            "en": f"{en} must be yes or no (true or false).",
            "ja": f"{ja}は true か false で指定してください。",
        }
    if kind == "literal_error":
        choices = _choices(str(ctx.get("expected", "")))
        listed = ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else choices[0]
        return {
            "field": path,
            "en": f"{en} must be {listed}.",
            "ja": f"{ja}は{'か'.join(choices)}にしてください。"
            if len(choices) <= 2
            else f"{ja}は{'、'.join(choices)}のどれかにしてください。",
        }
    if kind == "extra_forbidden":
        return {
            "field": path,
            "en": f"{en} is not a field of this request.",
            "ja": f"{ja}という項目はこのリクエストにはありません。",
        }
    if kind == "json_invalid":
        return {
            "field": "body",
            "en": "The request is not valid JSON.",
            "ja": "リクエストが正しい JSON ではありません。",
        }
    if kind in ("model_attributes_type", "dict_type", "model_type"):
        return {
            "field": path,
            "en": f"{en} must be a JSON object.",
            "ja": f"{ja}は JSON のオブジェクトにしてください。",
        }
    if kind in ("string_type", "list_type"):
        what_en, what_ja = ("text", "文字列") if kind == "string_type" else ("a list", "リスト")
        return {
            "field": path,
            "en": f"{en} must be {what_en}.",
            "ja": f"{ja}は{what_ja}にしてください。",
        }
    return {"field": path, "en": f"{en} is not valid.", "ja": f"{ja}の値が正しくありません。"}


def validation_detail(errors: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The ``detail`` of a 422 answer: one sentence per field (the first error of each field),
    joined into ``en``/``ja`` for a page that shows one line, and listed in ``fields`` with
    pydantic's error ``type``. Values are never echoed (NaN and infinities are not JSON)."""
    fields: list[dict[str, str]] = []
    seen: set[str] = set()
    for error in errors:
        sentence = {**field_sentence(error), "type": str(error.get("type", ""))}
        if sentence["field"] in seen:
            continue
        seen.add(sentence["field"])
        fields.append(sentence)
    return {
        "code": "bad_request",
        "en": " ".join(f["en"] for f in fields),
        "ja": "".join(f["ja"] for f in fields),
        "rule": None,
        "fields": fields,
    }


def _choices(expected: str) -> list[str]:
    """The allowed values in pydantic's ``"'a', 'b' or 'c'"``, without quotes."""
    parts = expected.replace(" or ", ", ").split(", ")
    return [p.strip().strip("'\"") for p in parts if p.strip()]
