"""One error model in /openapi.json: every error status a route answers is
documented with :class:`ErrorBody`, and the bodies the server sends are that model."""

from __future__ import annotations

from fastapi.testclient import TestClient

from hikone_carrom.server.core.errors import ErrorBody

ERROR_REF = "#/components/schemas/ErrorBody"


def test_every_operation_documents_its_errors_with_one_model(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert set(schema["components"]["schemas"]["ErrorDetail"]["required"]) == {"code", "en", "ja"}
    operations = 0
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            operations += 1
            errors = {s: r for s, r in op["responses"].items() if s[0] in "45"}
            takes_input = bool(op.get("parameters") or op.get("requestBody"))
            if takes_input:
                assert "422" in errors, (method, path)
            for status, answer in errors.items():
                ref = answer["content"]["application/json"]["schema"]["$ref"]
                assert ref == ERROR_REF, (method, path, status)
    assert operations >= 45
    assert "HTTPValidationError" not in schema["components"]["schemas"]


def test_files_are_documented_as_files(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    answer = paths["/api/tournaments/{tournament_id}/results.csv"]["get"]["responses"]["200"]
    assert list(answer["content"]) == ["text/csv"]
    pdf = paths["/api/boards/{board_id}/matches/{number}/sheet.pdf"]["get"]["responses"]["200"]
    assert list(pdf["content"]) == ["application/pdf"]


def test_the_bodies_sent_are_the_documented_model(client: TestClient) -> None:
    missing = client.get("/api/tournaments/nosuchevent")
    assert missing.status_code == 404
    ErrorBody.model_validate(missing.json())
    bad = client.post("/api/rooms", json={"mode": "chess"})
    assert bad.status_code == 422
    body = ErrorBody.model_validate(bad.json())
    assert body.detail.fields is not None and body.detail.fields[0].field == "mode"
    no_game = client.get("/api/games/nosuchgame")
    assert no_game.status_code == 404
    ErrorBody.model_validate(no_game.json())


def test_a_body_that_is_not_utf8_is_refused_in_words(client: TestClient) -> None:
    """Found by schemathesis: FastAPI answered ``400 {"detail": "There was an error parsing the
    body"}``, a status and a body no route documented."""
    r = client.post(
        "/api/my-rooms", content=b"\xff\xfe", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422
    detail = ErrorBody.model_validate(r.json()).detail
    assert detail.code == "bad_request"
    assert detail.en == "The request is not valid JSON."
    assert detail.ja
