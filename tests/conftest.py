"""Suite-wide ordering: the end-to-end browser tests run last.

Playwright's sync API keeps an asyncio loop marked as running in the main thread for as long as
its session-scoped fixture lives, so any later test that calls ``asyncio.run`` would fail. Running
the browser tests after every other test keeps both kinds independent of collection order.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: "e2e" in item.path.parts)
