"""The organiser's key of a test's app, as request headers (creating events and boards)."""

from __future__ import annotations

from urllib.parse import quote

from fastapi.testclient import TestClient


def organiser_key(client: TestClient) -> str:
    """The key the app uses (made on its first start and kept with its store)."""
    key: str = client.app.state.organiser_key  # type: ignore[attr-defined]
    return key


def organiser(client: TestClient, who: str = "主催 花子") -> dict[str, str]:
    """Headers of a request by the organiser."""
    return {"Authorization": f"Bearer {organiser_key(client)}", "X-Operator": quote(who)}
