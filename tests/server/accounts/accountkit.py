"""Accounts in tests: a browser (a client with its own cookies) signed up under a name."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

PASSWORD = "correct horse battery"


def browser(client: TestClient) -> TestClient:
    """Another browser on the same app (its own cookie jar); the app is already started."""
    return TestClient(client.app)


def sign_up(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, str]:
    """Sign ``client`` up as ``name``; returns the CSRF header of its session."""
    r = client.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return {"X-CSRF-Token": body["csrf"]}
