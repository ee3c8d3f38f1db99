"""Wire schemas of the lobby's REST routes."""

from __future__ import annotations

from typing import Literal

from hikone_carrom.server.core.validation import StrictBody
from hikone_carrom.server.rooms.schemas import Name

__all__ = ["AcceptChallenge", "NewSeek", "SeekCreated"]


class NewSeek(StrictBody):
    """POST /api/seeks and /api/challenges: a game wanted now. ``minutes`` 5 plays the
    championship's 5-minute matches (R7b, R8a), 0 or null untimed; ``players`` 4 is doubles;
    ``name`` the guest's name (an account plays under its own)."""

    minutes: Literal[0, 5] | None = 5
    players: Literal[2, 4] = 2
    name: Name = ""

    def time(self) -> int | None:
        """The match's minutes (None: untimed)."""
        return self.minutes or None


class AcceptChallenge(StrictBody):
    """POST /api/challenges/{id}/accept: the guest's name (an account plays under its own)."""

    name: Name = ""


class SeekCreated(StrictBody):
    """A new seek: poll ``GET /api/seeks/{id}`` with ``Authorization: Bearer {token}``."""

    id: str
    token: str
