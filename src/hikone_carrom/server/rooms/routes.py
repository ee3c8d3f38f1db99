"""REST for rooms, games and records, the play WebSocket, and the browser game's pages."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request, Response, WebSocket
from fastapi import Path as PathParam
from fastapi.responses import FileResponse

from hikone_carrom.match import Match
from hikone_carrom.rules import RuleOptions
from hikone_carrom.server.accounts.seats import link_seats, seat_holder
from hikone_carrom.server.core.deps import (
    BoardSpecDep,
    RoomRateDep,
    RoomsDep,
    RunnerDep,
    SettingsDep,
    StoreDep,
    WebDirDep,
)
from hikone_carrom.server.core.errors import errors, file_answer
from hikone_carrom.server.core.invite import invite_svg, room_url
from hikone_carrom.server.core.ratelimit import too_many_rooms
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.core.validation import MAX_INT
from hikone_carrom.server.rooms.my_rooms import my_rooms
from hikone_carrom.server.rooms.room import ACTION_KINDS, game_options
from hikone_carrom.server.rooms.schemas import (
    CreateRoom,
    GamesPage,
    GameSummary,
    LevelInfo,
    Levels,
    MyRoomsQuery,
    RoomCreated,
    SeatGranted,
    TakeSeat,
)
from hikone_carrom.server.rooms.views import board_view, state_view
from hikone_carrom.server.rooms.ws import serve_room
from hikone_carrom.server.storage import GameStore, StoredGame, StoreError
from hikone_carrom.server.thinking.players import level_names

__all__ = ["router"]

router = APIRouter()

MAX_OFFSET = 1_000_000_000
"""Largest ``offset`` of the games list (far beyond any store, well inside every SQL integer)."""

RoomId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
GameId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
Seat = Annotated[int, PathParam(ge=0, le=MAX_INT)]
"""A seat number (one the room does not have is 404 ``no_such_seat``)."""


def _summary(game: StoredGame) -> GameSummary:
    return GameSummary(
        id=game.id,
        room_id=game.room_id,
        number=game.number,
        mode=game.mode,
        players=game.players,
        seat_names=list(game.seat_names),
        started_at=game.started_at.isoformat(),
        finished_at=None if game.finished_at is None else game.finished_at.isoformat(),
        shots=game.shots,
        outcome=game.outcome,
    )


# -- pages ------------------------------------------------------------------------------------


@router.get("/", include_in_schema=False)
@router.get("/games", include_in_schema=False)
@router.get("/howto", include_in_schema=False)
async def page(web: WebDirDep) -> FileResponse:
    return FileResponse(web / "index.html", media_type="text/html")


@router.get("/room/{room_id}", include_in_schema=False)
@router.get("/replay/{room_id}", include_in_schema=False)
async def page_with_id(room_id: str, web: WebDirDep) -> FileResponse:
    return FileResponse(web / "index.html", media_type="text/html")


# -- rooms ------------------------------------------------------------------------------------


@router.get("/api/levels", tags=["rooms"])
async def levels() -> Levels:
    """Computer players one may play against, weakest first."""
    return Levels(levels=[LevelInfo(id=n.id, en=n.en, ja=n.ja) for n in level_names()])


@router.get("/api/board", tags=["rooms"])
async def board_geometry(spec: BoardSpecDep) -> dict[str, Any]:
    """The board's geometry (m), as the browser draws it."""
    return board_view(spec)


@router.post("/api/rooms", status_code=201, tags=["rooms"], responses=errors(422, 429, 503))
async def create_room(
    body: CreateRoom,
    request: Request,
    registry: RoomsDep,
    room_rate: RoomRateDep,
    settings: SettingsDep,
) -> RoomCreated:
    """Open a room: against the computer, on one device (hot-seat) or online (at most
    ``rooms_per_minute`` from one address)."""
    if not room_rate.allow(request.client.host if request.client else ""):
        raise too_many_rooms(settings.rooms_per_minute)
    account, name = await seat_holder(request, body.name)
    room, token = await registry.create(body.model_copy(update={"name": name}))
    await link_seats(request, account, room.config.id, room.seats_of_token(token))
    return RoomCreated(
        room_id=room.config.id, token=token, seats=sorted(room.seats_of_token(token))
    )


@router.get("/api/rooms/{room_id}", tags=["rooms"], responses=errors(404, 409, 422, 503))
async def get_room(registry: RoomsDep, room_id: RoomId) -> dict[str, Any]:
    """The room as a spectator sees it now (same as a WebSocket snapshot)."""
    async with registry.use(room_id) as room:
        return await room.view(frozenset())


@router.get(
    "/api/rooms/{room_id}/invite.svg",
    tags=["rooms"],
    response_class=Response,
    responses={**file_answer("image/svg+xml"), **errors(404, 409, 422, 503)},
)
async def invite(request: Request, registry: RoomsDep, room_id: RoomId) -> Response:
    """The room's link as a QR code (SVG), for a phone at the same table to scan."""
    async with registry.use(room_id) as room:
        svg = invite_svg(room_url(str(request.base_url), room.id))
    return Response(svg, media_type="image/svg+xml", headers={"cache-control": "no-cache"})


@router.post("/api/my-rooms", tags=["rooms"], responses=errors(422, 503))
async def mine(body: MyRoomsQuery, registry: RoomsDep) -> dict[str, Any]:
    """The rooms where these seat tokens hold seats (the start page's "my games"); rooms
    that no longer exist or no longer know the token are listed under ``stale``."""
    pairs = [(r.room_id, r.token) for r in body.rooms]
    return await registry.runner.store(my_rooms, registry.store, pairs)


@router.post(
    "/api/rooms/{room_id}/seats/{seat}", tags=["rooms"], responses=errors(403, 404, 409, 422, 503)
)
async def take_seat(
    body: TakeSeat, request: Request, registry: RoomsDep, seat: Seat, room_id: RoomId
) -> SeatGranted:
    """Take an open seat of an online room; keep the token to get the seat back. A signed-in
    player sits under their account's name (the request needs ``X-CSRF-Token``)."""
    account, name = await seat_holder(request, body.name)
    async with registry.use(room_id) as room:
        token = await room.take_seat(seat, name)
    await link_seats(request, account, room_id, [seat])
    return SeatGranted(token=token, seats=[seat])


# -- games ------------------------------------------------------------------------------------


@router.get("/api/games", tags=["games"], responses=errors(422, 503))
async def list_games(
    store: StoreDep,
    runner: RunnerDep,
    limit: int = Query(50, ge=1, le=500),
    offset: int = Query(0, ge=0, le=MAX_OFFSET),
) -> GamesPage:
    """Finished games, newest first."""
    games = await runner.store(store.finished_games, limit, offset)
    total = await runner.store(store.count_finished_games)
    return GamesPage(total=total, games=[_summary(g) for g in games])


async def _game(store: GameStore, runner: Runner, game_id: str) -> StoredGame:
    try:
        return await runner.store(store.game, game_id)
    except StoreError as err:
        raise HTTPException(
            404, detail={"code": "no_game", "en": "No such game", "ja": "その試合はありません"}
        ) from err


@router.get("/api/games/{game_id}", tags=["games"], responses=errors(404, 422, 503))
async def get_game(store: StoreDep, runner: RunnerDep, game_id: GameId) -> GameSummary:
    """One game, finished or not."""
    return _summary(await _game(store, runner, game_id))


@router.get("/api/games/{game_id}/record", tags=["games"], responses=errors(404, 409, 422, 503))
async def get_record(store: StoreDep, runner: RunnerDep, game_id: GameId) -> dict[str, Any]:
    """The match record (versioned JSON of ``hikone_carrom.records``) of a finished game."""
    game = await _game(store, runner, game_id)
    if game.record is None:
        raise HTTPException(
            409,
            detail={
                "code": "not_over",
                "en": "The game is not over",
                "ja": "試合はまだ終わっていません",
            },
        )
    return game.record


@router.get("/api/games/{game_id}/replay", tags=["games"], responses=errors(404, 422, 503))
async def get_replay(
    store: StoreDep, runner: RunnerDep, spec: BoardSpecDep, game_id: GameId
) -> dict[str, Any]:
    """Everything a replay viewer needs: the start, then every shot with its tracks."""
    game = await _game(store, runner, game_id)
    events = await runner.store(store.game_events, game_id)
    if game.record is not None:
        options = RuleOptions.from_dict(game.record["options"])
    else:
        options = game_options(None, game.number)
    start = Match(game.players, options, spec, seed=game.seed)
    return {
        "game": _summary(game).model_dump(),
        "board": board_view(spec),
        "start": state_view(start),
        "events": [e.payload for e in events if e.kind in ACTION_KINDS],
        "hints": [] if game.record is None else game.record.get("hints", []),
    }


@router.get("/api/games/{game_id}/analysis", tags=["games"], responses=errors(404, 422, 503))
async def get_analysis(registry: RoomsDep, game_id: GameId) -> dict[str, Any]:
    """The post-game analysis of a game: status (none, queued, running, stopped, done,
    failed), shots done of all, and the analysis of the shots done."""
    return await registry.analyses.status(game_id)


@router.post(
    "/api/games/{game_id}/analysis",
    status_code=202,
    tags=["games"],
    responses=errors(404, 409, 422, 503),
)
async def start_analysis(registry: RoomsDep, game_id: GameId) -> dict[str, Any]:
    """Start (or resume) the analysis of a finished game in the background; returns its
    status now (poll ``GET`` for progress)."""
    return await registry.analyses.request(game_id)


# -- play -------------------------------------------------------------------------------------


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str, registry: RoomsDep) -> None:
    """Play and watch: JSON messages, every event numbered (see docs/server.md)."""
    await serve_room(websocket, room_id, registry)
