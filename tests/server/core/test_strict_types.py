"""Strict request types: no ``true`` for a number, no ``0`` for a yes/no, no text for a number,
and every integer a request carries is bounded."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ValidationError
from tests.server.organiserkit import organiser

from hikone_carrom.server.core.validation import MAX_INT, StrictBody
from hikone_carrom.server.pads import boards as pad_boards
from hikone_carrom.server.pads import routes as pad_routes
from hikone_carrom.server.rooms import schemas as room_schemas
from hikone_carrom.server.tournaments import routes as tournament_routes


def _models() -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = []
    for module in (room_schemas, pad_routes, pad_boards, tournament_routes):
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseModel)
                and value.__module__ == module.__name__
                and value not in found
            ):
                found.append(value)
    return found


MODELS = _models()


def _scalars(annotation: Any) -> Iterator[type]:
    """The scalar types (int, float, bool) an annotation holds, through unions, lists, tuples."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        yield from _scalars(typing.get_args(annotation)[0])
    elif origin is typing.Literal:
        return
    elif origin in (typing.Union, types.UnionType, list, tuple):
        for arg in typing.get_args(annotation):
            yield from _scalars(arg)
    elif annotation in (int, float, bool):
        yield annotation


def _wrong_values(kind: type) -> list[Any]:
    """JSON values a lax parser would take for ``kind`` and a strict one refuses."""
    if kind is bool:
        return [0, 1, "true", "yes"]
    return [True, False, "1", "1.5"]


def _inside(kind: type, annotation: Any, value: Any) -> Any:
    """``value`` where the annotation wants it: in a one-item list or a full tuple if so."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _inside(kind, typing.get_args(annotation)[0], value)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            if kind in set(_scalars(arg)):
                return _inside(kind, arg, value)
    if origin is list:
        return [value]
    if origin is tuple:
        return [value] * len(typing.get_args(annotation))
    return value


def test_every_request_model_is_strict() -> None:
    assert len(MODELS) >= 25
    for model in MODELS:
        assert issubclass(model, StrictBody), model.__name__


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_no_field_takes_a_value_of_another_json_type(model: type[BaseModel]) -> None:
    """Every number or yes/no field of every body and message, given a value of another JSON
    type (as FastAPI hands it over: Python objects from JSON), is refused at that field."""
    checked = 0
    for name, field in model.model_fields.items():
        for kind in set(_scalars(field.annotation)):
            for wrong in _wrong_values(kind):
                value = _inside(kind, field.annotation, wrong)
                with pytest.raises(ValidationError) as refused:
                    model.model_validate({name: value})
                where = [e["loc"] for e in refused.value.errors()]
                assert any(loc[:1] == (name,) for loc in where), (model.__name__, name, wrong)
                checked += 1
    assert checked or not any(set(_scalars(f.annotation)) for f in model.model_fields.values())


def test_a_number_field_still_takes_an_integer() -> None:
    assert room_schemas.CreateRoom.model_validate({"mode": "computer", "minutes": 5}).minutes == 5
    shot = room_schemas.CLIENT_MESSAGE.validate_json(
        '{"type": "shot", "seat": 0, "x": 0, "y": 0, "angle": 1, "speed": 2}'
    )
    assert isinstance(shot, room_schemas.ShotMessage) and shot.speed == 2


def test_a_true_minutes_is_no_one_minute_match(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"mode": "computer", "minutes": True})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert detail["code"] == "bad_request"
    assert [f["field"] for f in detail["fields"]] == ["minutes"]
    assert detail["fields"][0]["en"] == "Minutes must be a number."
    assert client.post("/api/rooms", json={"mode": "computer", "minutes": 1}).status_code == 201


def test_online_zero_is_no_yes_or_no(client: TestClient) -> None:
    key = organiser(client)
    r = client.post("/api/tournaments", json={"name": "Hikone Open", "online": 0}, headers=key)
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert [f["field"] for f in detail["fields"]] == ["online"]
    assert detail["fields"][0]["en"] == "online must be yes or no (true or false)."
    ok = client.post("/api/tournaments", json={"name": "Hikone Open", "online": False}, headers=key)
    assert ok.status_code == 201


@pytest.mark.parametrize("number", [2**31, 2**63, 10**30])
def test_a_huge_pad_match_number_is_refused_not_a_500(client: TestClient, number: int) -> None:
    board = client.post("/api/boards", json={"name": "B"}, headers=organiser(client)).json()
    for tail in ("record", "sheet.csv", "sheet.pdf"):
        r = client.get(f"/api/boards/{board['id']}/matches/{number}/{tail}")
        assert r.status_code == 422, (tail, r.status_code)
        assert r.json()["detail"]["fields"][0]["field"] == "number"
    unknown = client.get(f"/api/boards/{board['id']}/matches/{MAX_INT}/record")
    assert unknown.status_code == 404


def _integers(node: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every integer schema under ``node``, with where it is."""
    if isinstance(node, dict):
        if node.get("type") == "integer":
            yield where, node
        for key, value in node.items():
            yield from _integers(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _integers(value, f"{where}/{i}")


def _bounded(node: dict[str, Any]) -> bool:
    return "enum" in node or (
        ("minimum" in node or "exclusiveMinimum" in node)
        and ("maximum" in node or "exclusiveMaximum" in node)
    )


def test_every_integer_of_every_request_is_bounded(client: TestClient) -> None:
    """Each integer of a path, a query or a request body in the OpenAPI schema has a minimum
    and a maximum (a huge number never reaches the store)."""
    schema = client.get("/openapi.json").json()
    components = schema["components"]["schemas"]
    found = []
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            found += _integers(op.get("parameters", []), f"{method} {path}")
            todo = [
                c["schema"]["$ref"].rsplit("/", 1)[-1]
                for c in op.get("requestBody", {}).get("content", {}).values()
            ]
            seen: set[str] = set()
            while todo:
                name = todo.pop()
                if name not in seen:
                    seen.add(name)
                    found += _integers(components[name], f"{method} {path} {name}")
                    todo += [r.rsplit("/", 1)[-1] for r in _refs(components[name])]
    assert len(found) >= 20
    assert [where for where, node in found if not _bounded(node)] == []


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if "$ref" in node:
            yield node["$ref"]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def test_socket_message_numbers_are_bounded() -> None:
    for message in (
        f'{{"type": "hello", "last_seq": {MAX_INT + 1}}}',
        f'{{"type": "resync", "last_seq": {10**30}}}',
        '{"type": "shot", "seat": true, "x": 0, "y": 0, "angle": 1, "speed": 2}',
        '{"type": "hint", "seat": 1.0}',
    ):
        with pytest.raises(ValidationError):
            room_schemas.CLIENT_MESSAGE.validate_json(message)
