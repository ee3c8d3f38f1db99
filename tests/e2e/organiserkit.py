"""The organiser's key of the end-to-end servers (given through the environment)."""

from __future__ import annotations

import os

from hikone_carrom.server.core.config import ORGANISER_KEY_ENV_VAR

ORGANISER_KEY = "e2e-organiser-key-0123456789abcdef"
KEY_STORE = "hikone-carrom.organiser-key"
"""Where the pages keep the key (localStorage)."""


def organiser_env() -> dict[str, str]:
    """The environment of a server process whose organiser's key is :data:`ORGANISER_KEY`."""
    return {**os.environ, ORGANISER_KEY_ENV_VAR: ORGANISER_KEY}


def organiser_headers() -> dict[str, str]:
    """Headers of a request by the organiser."""
    return {"Authorization": f"Bearer {ORGANISER_KEY}"}
