"""The FastAPI application: REST for rooms, games and records, WebSocket for play, the web client.

Build it with :func:`create_app`; ``hikone-carrom play`` runs it under uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request, Response, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from hikone_carrom import __version__
from hikone_carrom.board import BoardSpec
from hikone_carrom.match import Match
from hikone_carrom.rules import RuleOptions
from hikone_carrom.server.cluster.cluster import Cluster
from hikone_carrom.server.core.config import ServerSettings, memory_store_problem
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.core.hosts import HostCheck
from hikone_carrom.server.core.invite import invite_svg, room_url
from hikone_carrom.server.core.ratelimit import AddressRate, MessageRate, too_many_rooms
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.core.validation import validation_detail
from hikone_carrom.server.pads.routes import add_pad_routes, pads_of
from hikone_carrom.server.rooms.my_rooms import my_rooms
from hikone_carrom.server.rooms.registry import RoomRegistry
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
from hikone_carrom.server.storage.tournament_store import TournamentStore
from hikone_carrom.server.thinking.players import level_names
from hikone_carrom.server.thinking.pool import Backend, ProcessBackend, RayBackend, ThinkingPool
from hikone_carrom.server.tournaments.hub import TournamentHub
from hikone_carrom.server.tournaments.pads import PadBridge
from hikone_carrom.server.tournaments.rooms import RoomBridge
from hikone_carrom.server.tournaments.routes import install_tournaments

__all__ = ["WEB_DIR", "create_app"]

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
"""The browser client: static ES modules, HTML and CSS, served as they are (no build step)."""

MAX_OFFSET = 1_000_000_000
"""Largest ``offset`` of the games list (far beyond any store, well inside every SQL integer)."""

RoomId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
GameId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,40}$")]


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


def create_app(settings: ServerSettings, board: BoardSpec | None = None) -> FastAPI:
    """The game server for ``settings`` (store URL, workers); the schema is migrated on start.

    Raises :class:`~hikone_carrom.server.core.ratelimit.RateLimitError` for an unusable message rate
    and :class:`ValueError` for an in-memory SQLite store (it would lose every game).
    """
    spec = board or BoardSpec()
    MessageRate(settings.message_burst, settings.message_rate)  # refuse bad settings now
    room_rate = AddressRate(settings.rooms_per_minute)
    problem = memory_store_problem(settings.db_url)
    if problem is not None:
        raise ValueError(problem)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = GameStore(settings.db_url, timeout_s=settings.store_timeout_s)
        store.migrate()
        runner = Runner(settings.sim_workers, 1 if settings.db_url.startswith("sqlite") else 4)
        backend: Backend = (
            RayBackend(settings.ray_address, settings.think_workers)
            if settings.ray_address
            else ProcessBackend(settings.think_workers)
        )
        thinker = ThinkingPool(
            backend, queue_limit=settings.think_queue, per_room=settings.think_per_room
        )
        cluster = (
            Cluster(settings.redis_url, lease_s=settings.lease_s) if settings.redis_url else None
        )
        registry = RoomRegistry(store, runner, thinker, settings, spec, cluster)
        if cluster is not None:
            await cluster.start()
        app.state.store = store
        app.state.runner = runner
        app.state.registry = registry
        app.state.tournaments = TournamentHub(TournamentStore(store.engine), runner)
        PadBridge(app.state.tournaments, pads_of(app))  # board calls to pads, pad results back
        app.state.room_bridge = RoomBridge(app.state.tournaments, registry)  # online events
        await app.state.tournaments.resume()  # events in play: watch their pads and rooms again
        sweeper = asyncio.create_task(registry.sweep())
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await app.state.tournaments.close()
            await registry.close()
            if cluster is not None:
                await cluster.close()
            thinker.close()
            runner.close()
            store.close()

    app = FastAPI(
        title="Hikone Carrom",
        version=__version__,
        summary="Rooms, games and records of digital Hikone Carrom (彦根カロム)",
        lifespan=lifespan,
    )

    if settings.allowed_hosts:
        app.add_middleware(HostCheck, allowed=settings.allowed_hosts)

    @app.exception_handler(RoomError)
    async def room_error(_request: Request, err: RoomError) -> JSONResponse:
        return JSONResponse(status_code=err.status, content={"detail": err.detail()})

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"detail": validation_detail(err.errors())})

    def registry_of(request: Request) -> RoomRegistry:
        registry: RoomRegistry = request.app.state.registry
        return registry

    # -- pages ------------------------------------------------------------------------------

    index = WEB_DIR / "index.html"

    @app.get("/", include_in_schema=False)
    @app.get("/games", include_in_schema=False)
    @app.get("/howto", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(index, media_type="text/html")

    @app.get("/room/{room_id}", include_in_schema=False)
    @app.get("/replay/{room_id}", include_in_schema=False)
    async def page_with_id(room_id: str) -> FileResponse:
        return FileResponse(index, media_type="text/html")

    app.state.web_dir = WEB_DIR
    install_tournaments(app)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    add_pad_routes(app, WEB_DIR)  # the table referees' scoring pads (docs/scoring.md)

    # -- REST -------------------------------------------------------------------------------

    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, str]:
        """The server is up."""
        return {"status": "ok", "version": __version__}

    @app.get("/api/levels", tags=["rooms"])
    async def levels() -> Levels:
        """Computer players one may play against, weakest first."""
        return Levels(levels=[LevelInfo(id=n.id, en=n.en, ja=n.ja) for n in level_names()])

    @app.get("/api/board", tags=["rooms"])
    async def board_geometry() -> dict[str, Any]:
        """The board's geometry (m), as the browser draws it."""
        return board_view(spec)

    @app.post("/api/rooms", status_code=201, tags=["rooms"])
    async def create_room(body: CreateRoom, request: Request) -> RoomCreated:
        """Open a room: against the computer, on one device (hot-seat) or online (at most
        ``rooms_per_minute`` from one address)."""
        if not room_rate.allow(request.client.host if request.client else ""):
            raise too_many_rooms(settings.rooms_per_minute)
        room, token = await registry_of(request).create(body)
        return RoomCreated(
            room_id=room.config.id, token=token, seats=sorted(room.seats_of_token(token))
        )

    @app.get("/api/rooms/{room_id}", tags=["rooms"])
    async def get_room(request: Request, room_id: RoomId) -> dict[str, Any]:
        """The room as a spectator sees it now (same as a WebSocket snapshot)."""
        async with registry_of(request).use(room_id) as room:
            return await room.view(frozenset())

    @app.get("/api/rooms/{room_id}/invite.svg", tags=["rooms"], response_class=Response)
    async def invite(request: Request, room_id: RoomId) -> Response:
        """The room's link as a QR code (SVG), for a phone at the same table to scan."""
        async with registry_of(request).use(room_id) as room:
            svg = invite_svg(room_url(str(request.base_url), room.id))
        return Response(svg, media_type="image/svg+xml", headers={"cache-control": "no-cache"})

    @app.post("/api/my-rooms", tags=["rooms"])
    async def mine(body: MyRoomsQuery, request: Request) -> dict[str, Any]:
        """The rooms where these seat tokens hold seats (the start page's "my games"); rooms
        that no longer exist or no longer know the token are listed under ``stale``."""
        registry = registry_of(request)
        pairs = [(r.room_id, r.token) for r in body.rooms]
        return await registry.runner.store(my_rooms, registry.store, pairs)

    @app.post("/api/rooms/{room_id}/seats/{seat}", tags=["rooms"])
    async def take_seat(
        body: TakeSeat, request: Request, seat: int, room_id: RoomId
    ) -> SeatGranted:
        """Take an open seat of an online room; keep the token to get the seat back."""
        async with registry_of(request).use(room_id) as room:
            token = await room.take_seat(seat, body.name)
        return SeatGranted(token=token, seats=[seat])

    @app.get("/api/games", tags=["games"])
    async def list_games(
        request: Request,
        limit: int = Query(50, ge=1, le=500),
        offset: int = Query(0, ge=0, le=MAX_OFFSET),
    ) -> GamesPage:
        """Finished games, newest first."""
        store: GameStore = request.app.state.store
        runner: Runner = request.app.state.runner
        games = await runner.store(store.finished_games, limit, offset)
        total = await runner.store(store.count_finished_games)
        return GamesPage(total=total, games=[_summary(g) for g in games])

    async def _game(request: Request, game_id: str) -> StoredGame:
        store: GameStore = request.app.state.store
        runner: Runner = request.app.state.runner
        try:
            return await runner.store(store.game, game_id)
        except StoreError as err:
            raise HTTPException(
                404, detail={"code": "no_game", "en": "No such game", "ja": "その試合はありません"}
            ) from err

    @app.get("/api/games/{game_id}", tags=["games"])
    async def get_game(request: Request, game_id: GameId) -> GameSummary:
        """One game, finished or not."""
        return _summary(await _game(request, game_id))

    @app.get("/api/games/{game_id}/record", tags=["games"])
    async def get_record(request: Request, game_id: GameId) -> dict[str, Any]:
        """The match record (versioned JSON of ``hikone_carrom.records``) of a finished game."""
        game = await _game(request, game_id)
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

    @app.get("/api/games/{game_id}/replay", tags=["games"])
    async def get_replay(request: Request, game_id: GameId) -> dict[str, Any]:
        """Everything a replay viewer needs: the start, then every shot with its tracks."""
        game = await _game(request, game_id)
        store: GameStore = request.app.state.store
        runner: Runner = request.app.state.runner
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

    @app.get("/api/games/{game_id}/analysis", tags=["games"])
    async def get_analysis(request: Request, game_id: GameId) -> dict[str, Any]:
        """The post-game analysis of a game: status (none, queued, running, stopped, done,
        failed), shots done of all, and the analysis of the shots done."""
        return await registry_of(request).analyses.status(game_id)

    @app.post("/api/games/{game_id}/analysis", status_code=202, tags=["games"])
    async def start_analysis(request: Request, game_id: GameId) -> dict[str, Any]:
        """Start (or resume) the analysis of a finished game in the background; returns its
        status now (poll ``GET`` for progress)."""
        return await registry_of(request).analyses.request(game_id)

    @app.websocket("/ws/rooms/{room_id}")
    async def room_socket(websocket: WebSocket, room_id: str) -> None:
        """Play and watch: JSON messages, every event numbered (see docs/server.md)."""
        registry: RoomRegistry = websocket.app.state.registry
        await serve_room(websocket, room_id, registry)

    return app
