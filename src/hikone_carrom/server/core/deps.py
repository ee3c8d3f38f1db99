"""The services the routes use, as FastAPI dependencies (``Annotated[..., Depends(...)]``).

Each reads the object that :func:`~hikone_carrom.server.core.app.create_app` or its lifespan
keeps on ``app.state``; routes never read ``app.state`` themselves, so a test can replace one
service with ``app.dependency_overrides[dependency] = ...``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, TypeVar

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection, Request

from hikone_carrom.board import BoardSpec
from hikone_carrom.server.core.config import ServerSettings
from hikone_carrom.server.core.organiser import (
    SignInGuard,
    is_organiser,
    no_organiser_key,
    too_many_creations,
)
from hikone_carrom.server.core.ratelimit import AddressRate
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.pads.boards import PadRegistry
from hikone_carrom.server.rooms.registry import RoomRegistry
from hikone_carrom.server.storage import GameStore
from hikone_carrom.server.tournaments.hub import TournamentHub
from hikone_carrom.server.tournaments.rooms import RoomBridge

T = TypeVar("T")

__all__ = [
    "BoardSpecDep",
    "PadsDep",
    "RoomBridgeDep",
    "RoomRateDep",
    "RoomsDep",
    "RunnerDep",
    "SettingsDep",
    "SignInDep",
    "StoreDep",
    "TournamentsDep",
    "WebDirDep",
    "board",
    "client_address",
    "organiser",
    "pads",
    "room_bridge",
    "room_rate",
    "rooms",
    "runner",
    "settings",
    "sign_in",
    "store",
    "tournaments",
    "web_dir",
]


def _state(attribute: str, kind: type[T], doc: str) -> Callable[[HTTPConnection], Awaitable[T]]:
    """A dependency giving ``app.state.<attribute>`` (a ``kind``), documented by ``doc``; a
    coroutine, so that FastAPI runs it on the event loop (a plain function goes to a worker
    thread and back on every request: issue 47 measured it as a large part of a pad's
    request)."""

    async def dependency(conn: HTTPConnection) -> T:
        value: T = getattr(conn.app.state, attribute)
        return value

    dependency.__name__ = dependency.__qualname__ = attribute
    dependency.__doc__ = doc
    return dependency


settings = _state("settings", ServerSettings, "The server's settings.")
board = _state("board", BoardSpec, "The board every room plays on.")
web_dir = _state("web_dir", Path, "The browser client's folder (pages, ES modules, CSS).")
room_rate = _state("room_rate", AddressRate, "Rooms made per address and minute.")
store = _state("store", GameStore, "The game store (SQL).")
runner = _state("runner", Runner, "The threads that run store calls and simulations.")
rooms = _state("registry", RoomRegistry, "The game rooms of this process.")
pads = _state("pads", PadRegistry, "The scoring pads' boards of this process.")
tournaments = _state("tournaments", TournamentHub, "The tournaments of this process.")
room_bridge = _state("room_bridge", RoomBridge, "Online events' matches in game rooms.")
sign_in = _state("sign_in", SignInGuard, "The throttle on wrong director secrets.")


def client_address(conn: HTTPConnection) -> str:
    """The client's address, as rate limits and throttles count it."""
    return conn.client.host if conn.client else ""


_ORGANISER_KEY = HTTPBearer(
    auto_error=False,
    scheme_name="organiser_key",
    description="The organiser's key (printed by the server on start): creates events and boards",
)


def organiser(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_ORGANISER_KEY)],
) -> None:
    """Let through only the organiser (``Authorization: Bearer KEY``; else 401), at most
    ``creations_per_minute`` creations per client address (else 429 with ``Retry-After``)."""
    key: str = request.app.state.organiser_key
    if credentials is None or not is_organiser(credentials.credentials, key):
        raise no_organiser_key()
    rate: AddressRate = request.app.state.creation_rate
    if not rate.allow(client_address(request)):
        raise too_many_creations(rate.per_minute)


SettingsDep = Annotated[ServerSettings, Depends(settings)]
BoardSpecDep = Annotated[BoardSpec, Depends(board)]
WebDirDep = Annotated[Path, Depends(web_dir)]
RoomRateDep = Annotated[AddressRate, Depends(room_rate)]
SignInDep = Annotated[SignInGuard, Depends(sign_in)]
StoreDep = Annotated[GameStore, Depends(store)]
RunnerDep = Annotated[Runner, Depends(runner)]
RoomsDep = Annotated[RoomRegistry, Depends(rooms)]
PadsDep = Annotated[PadRegistry, Depends(pads)]
TournamentsDep = Annotated[TournamentHub, Depends(tournaments)]
RoomBridgeDep = Annotated[RoomBridge, Depends(room_bridge)]
