"""The services the routes use, as FastAPI dependencies (``Annotated[..., Depends(...)]``).

Each reads the object that :func:`~hikone_carrom.server.core.app.create_app` or its lifespan
keeps on ``app.state``; routes never read ``app.state`` themselves, so a test can replace one
service with ``app.dependency_overrides[dependency] = ...``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

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


def settings(conn: HTTPConnection) -> ServerSettings:
    """The server's settings."""
    value: ServerSettings = conn.app.state.settings
    return value


def board(conn: HTTPConnection) -> BoardSpec:
    """The board every room plays on."""
    value: BoardSpec = conn.app.state.board
    return value


def web_dir(conn: HTTPConnection) -> Path:
    """The browser client's folder (pages, ES modules, CSS)."""
    value: Path = conn.app.state.web_dir
    return value


def room_rate(conn: HTTPConnection) -> AddressRate:
    """Rooms made per address and minute (``rooms_per_minute``)."""
    value: AddressRate = conn.app.state.room_rate
    return value


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


def sign_in(conn: HTTPConnection) -> SignInGuard:
    """The throttle on wrong director secrets (per address, per event)."""
    value: SignInGuard = conn.app.state.sign_in
    return value


def store(conn: HTTPConnection) -> GameStore:
    """The game store (SQL)."""
    value: GameStore = conn.app.state.store
    return value


def runner(conn: HTTPConnection) -> Runner:
    """The threads that run store calls and simulations off the event loop."""
    value: Runner = conn.app.state.runner
    return value


def rooms(conn: HTTPConnection) -> RoomRegistry:
    """The game rooms of this process."""
    value: RoomRegistry = conn.app.state.registry
    return value


def pads(conn: HTTPConnection) -> PadRegistry:
    """The scoring pads' boards of this process."""
    value: PadRegistry = conn.app.state.pads
    return value


def tournaments(conn: HTTPConnection) -> TournamentHub:
    """The tournaments of this process."""
    value: TournamentHub = conn.app.state.tournaments
    return value


def room_bridge(conn: HTTPConnection) -> RoomBridge:
    """Online events' matches in game rooms."""
    value: RoomBridge = conn.app.state.room_bridge
    return value


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
