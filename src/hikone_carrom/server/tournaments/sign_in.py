"""The director's sign-in: a token checked, wrong ones throttled (REST and the console's hello)."""

from __future__ import annotations

from hikone_carrom.server.core.organiser import SignInGuard
from hikone_carrom.server.tournaments.hub import LiveTournament

__all__ = ["signed_in"]


def signed_in(guard: SignInGuard, address: str, live: LiveTournament, token: str | None) -> bool:
    """Whether ``token`` is the director's; raises ``too_many_failures`` (429) while ``address``
    or the event must wait after wrong tokens. No token at all is no guess (not counted)."""
    if token is None:
        return False
    guard.check(address, live.id)
    if live.is_director(token):
        guard.succeeded(address)
        return True
    guard.failed(address, live.id)
    return False
