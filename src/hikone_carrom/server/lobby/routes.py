"""REST of the lobby: seeks ("play someone now"), open challenges and the live games.

A seek's token goes as ``Authorization: Bearer TOKEN``, as the other tokens of the server do.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from hikone_carrom.server.core.deps import client_address
from hikone_carrom.server.core.errors import errors
from hikone_carrom.server.core.ratelimit import AddressRate
from hikone_carrom.server.lobby.book import Lobby
from hikone_carrom.server.lobby.errors import no_seek_token, too_many_seeks
from hikone_carrom.server.lobby.live import live_games
from hikone_carrom.server.lobby.schemas import AcceptChallenge, NewSeek, SeekCreated
from hikone_carrom.server.rooms.registry import RoomRegistry

__all__ = ["SEEKS_PER_MINUTE", "open_lobby", "router"]

router = APIRouter(tags=["lobby"])

SEEKS_PER_MINUTE = 30.0
"""Seeks, challenges and acceptances one address may make a minute."""

SeekId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$")]

_SEEK_TOKEN = HTTPBearer(
    auto_error=False, scheme_name="seek_token", description="The seek's token (POST /api/seeks)"
)


def open_lobby(
    registry: RoomRegistry, secret: str, state: Any, per_minute: float = SEEKS_PER_MINUTE
) -> Lobby:
    """The lobby of this process on ``state`` (the app's), pairing in the background; it asks
    ``state.identity`` who is who when the accounts service put one there."""
    lobby = Lobby(registry, secret, getattr(state, "identity", None))
    state.lobby = lobby
    state.seek_rate = AddressRate(per_minute)
    lobby.start()
    return lobby


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def _token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_SEEK_TOKEN)],
) -> str:
    if credentials is None:
        raise no_seek_token()
    return credentials.credentials


LobbyDep = Annotated[Lobby, Depends(_lobby)]
TokenDep = Annotated[str, Depends(_token)]


async def _new(request: Request, lobby: Lobby) -> tuple[str, tuple[str, str] | None]:
    """The asker's address (within its seek rate, else 429) and account."""
    address = client_address(request)
    rate: AddressRate = request.app.state.seek_rate
    if not rate.allow(address):
        raise too_many_seeks(rate.per_minute)
    return address, await lobby.identity.account_of(request)


@router.post("/api/seeks", status_code=201, responses=errors(422, 429, 503))
async def new_seek(body: NewSeek, request: Request, lobby: LobbyDep) -> SeekCreated:
    """Seek a game now (paired at once when a compatible seek waits, else within a second of
    one arriving); poll it with its token at least every 30 s or it expires."""
    address, account = await _new(request, lobby)
    seek, token = await lobby.seek(body.time(), body.players, body.name, address, account)
    return SeekCreated(id=seek.seeker.id, token=token)


@router.get("/api/seeks/{seek_id}", responses=errors(401, 403, 404, 422))
async def get_seek(seek_id: SeekId, token: TokenDep, lobby: LobbyDep) -> dict[str, Any]:
    """``{"status": "waiting"}`` until paired, then ``{"status": "paired", "room", "seat",
    "seat_token"}`` (the seat's token, as taking a seat gives it)."""
    return lobby.held(seek_id, token).status()


@router.delete("/api/seeks/{seek_id}", status_code=204, responses=errors(401, 403, 404, 422))
async def withdraw_seek(seek_id: SeekId, token: TokenDep, lobby: LobbyDep) -> None:
    """Withdraw a seek or a challenge (a room already paired stays)."""
    await lobby.withdraw(seek_id, token)


@router.post("/api/challenges", status_code=201, responses=errors(422, 429, 503))
async def new_challenge(body: NewSeek, request: Request, lobby: LobbyDep) -> SeekCreated:
    """An open challenge, listed for anyone to accept; poll it as a seek (``GET
    /api/seeks/{id}``)."""
    address, account = await _new(request, lobby)
    seek, token = await lobby.seek(
        body.time(), body.players, body.name, address, account, challenge=True
    )
    return SeekCreated(id=seek.seeker.id, token=token)


@router.get("/api/challenges")
async def list_challenges(lobby: LobbyDep) -> dict[str, Any]:
    """The open challenges, oldest first (no tokens)."""
    return {"challenges": lobby.challenges()}


@router.post(
    "/api/challenges/{seek_id}/accept", status_code=201, responses=errors(404, 409, 422, 429, 503)
)
async def accept_challenge(
    seek_id: SeekId, body: AcceptChallenge, request: Request, lobby: LobbyDep
) -> SeekCreated:
    """Accept an open challenge: a seek of one's own, paired with the challenge once its seats
    are all taken (at once in singles); poll it as any seek."""
    address, account = await _new(request, lobby)
    seek, token = await lobby.accept(seek_id, body.name, address, account)
    return SeekCreated(id=seek.seeker.id, token=token)


@router.get("/api/live")
async def live(request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """Games in play to watch (``/room/{id}`` as a spectator): the highest-rated first, then
    the newest, at most 50."""
    registry: RoomRegistry = request.app.state.registry
    return {"games": live_games(registry, lobby.games)}
