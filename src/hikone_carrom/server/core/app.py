"""The FastAPI application: the services' routers (rooms and games, scoring pads, tournaments),
the web client, and the services they use, started and stopped with the app.

Build it with :func:`create_app`; ``hikone-carrom play`` runs it under uvicorn. The routes reach
the services through :mod:`~hikone_carrom.server.core.deps`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette_compress import CompressMiddleware

from hikone_carrom import __version__
from hikone_carrom.board import BoardSpec
from hikone_carrom.server.accounts import routes as account_routes
from hikone_carrom.server.accounts import service as accounts_service
from hikone_carrom.server.accounts.lobby_identity import AccountIdentity
from hikone_carrom.server.cluster.cluster import Cluster
from hikone_carrom.server.core import assets, health
from hikone_carrom.server.core.assets import AssetFiles, PageAssets
from hikone_carrom.server.core.config import (
    ServerSettings,
    memory_store_problem,
    organiser_key_problem,
)
from hikone_carrom.server.core.errors import RoomError, store_unavailable
from hikone_carrom.server.core.headers import SecurityHeaders
from hikone_carrom.server.core.hosts import HostCheck, OriginCheck, origin_of
from hikone_carrom.server.core.organiser import SignInGuard
from hikone_carrom.server.core.ratelimit import AddressRate, MessageRate, SocketGate
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.core.validation import validation_detail
from hikone_carrom.server.lobby import routes as lobby_routes
from hikone_carrom.server.pads import routes as pad_routes
from hikone_carrom.server.pads.boards import PadRegistry
from hikone_carrom.server.puzzles import routes as puzzle_routes
from hikone_carrom.server.rooms import routes as room_routes
from hikone_carrom.server.rooms.registry import RoomRegistry
from hikone_carrom.server.storage import GameStore, StoreUnavailable
from hikone_carrom.server.storage.organiser_key import organiser_key
from hikone_carrom.server.storage.tournament_store import TournamentStore
from hikone_carrom.server.thinking.pool import Backend, ProcessBackend, RayBackend, ThinkingPool
from hikone_carrom.server.tournaments import routes as tournament_routes
from hikone_carrom.server.tournaments import routes_auto as tournament_auto_routes
from hikone_carrom.server.tournaments import spectators
from hikone_carrom.server.tournaments.hub import TournamentHub
from hikone_carrom.server.tournaments.pads import PadBridge
from hikone_carrom.server.tournaments.rooms import RoomBridge

__all__ = ["GZIP_LEVEL", "GZIP_MIN_BYTES", "WEB_DIR", "create_app"]

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
"""The browser client: static ES modules, HTML and CSS, served as they are (no build step)."""

GZIP_MIN_BYTES, GZIP_LEVEL, BROTLI_QUALITY = 1024, 6, 5
"""HTTP answers of at least this many bytes go compressed to a client that takes it, brotli
first, else gzip (a phone's first load of a tournament page: about a third of the bytes), at these
levels (the highest cost several times the CPU for a few per cent); WebSockets are not touched."""


def _analysis_backend(settings: ServerSettings) -> Backend | None:
    """The post-game analyses' own worker processes (idle CPU priority, started on the first
    analysis), or None: the thinking workers analyse (a Ray cluster, or ``analysis_workers``
    0)."""
    if settings.ray_address or settings.analysis_workers < 1:
        return None
    return ProcessBackend(settings.analysis_workers, idle=True)


def create_app(settings: ServerSettings, board: BoardSpec | None = None) -> FastAPI:
    """The game server for ``settings`` (store URL, workers); the schema is migrated on start.

    Raises :class:`~hikone_carrom.server.core.ratelimit.RateLimitError` for an unusable message
    rate and :class:`ValueError` for an in-memory SQLite store (it would lose every game) or an
    organiser's key too short or an allowed origin that is no origin. Without
    ``settings.organiser_key`` the key kept with the store is used (made on first start).
    """
    spec = board or BoardSpec()
    MessageRate(settings.message_burst, settings.message_rate)  # refuse bad settings now
    MessageRate(1, settings.sockets_per_second)
    origins = [origin_of(url) for url in settings.allowed_origins]
    room_rate = AddressRate(settings.rooms_per_minute)
    problem = memory_store_problem(settings.db_url) or (
        None if settings.organiser_key is None else organiser_key_problem(settings.organiser_key)
    )
    if problem is not None:
        raise ValueError(problem)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = GameStore(settings.db_url, timeout_s=settings.store_timeout_s)
        store.migrate()
        app.state.organiser_key = settings.organiser_key or organiser_key(store.engine)
        app.state.accounts, app.state.account_limits = accounts_service.start(store.engine)
        runner = Runner(settings.sim_workers, 1 if settings.db_url.startswith("sqlite") else 4)
        backend: Backend = (
            RayBackend(settings.ray_address, settings.think_workers, spec)
            if settings.ray_address
            else ProcessBackend(
                settings.think_workers, warm=spec if settings.warm_thinking else None
            )
        )
        thinker = ThinkingPool(
            backend,
            analysis=_analysis_backend(settings),
            queue_limit=settings.think_queue,
            per_room=settings.think_per_room,
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
        app.state.pads = PadRegistry(store, runner)
        app.state.tournaments = TournamentHub(TournamentStore(store.engine), runner)
        PadBridge(app.state.tournaments, app.state.pads)  # board calls to pads, pad results back
        app.state.room_bridge = RoomBridge(app.state.tournaments, registry)  # online events
        if settings.warm_thinking:  # the first computer move as quick as any other
            await thinker.start()
        # The server answers at once after a restart mid-championship: the events in play are
        # loaded again (their pads and rooms watched) behind it; a request for one meanwhile
        # loads it.
        readying = [asyncio.create_task(app.state.tournaments.resume())]
        app.state.readying = readying
        sweeper = asyncio.create_task(registry.sweep())
        app.state.identity = AccountIdentity(app.state.accounts, runner)  # the lobby's accounts
        lobby = lobby_routes.open_lobby(registry, app.state.organiser_key, app.state)
        try:
            yield
        finally:
            await lobby.close()
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            for task in readying:
                task.cancel()
            await asyncio.gather(*readying, return_exceptions=True)
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
    app.state.settings = settings
    app.state.board = spec
    app.state.room_rate = room_rate
    app.state.creation_rate = AddressRate(settings.creations_per_minute)
    app.state.sign_in = SignInGuard()
    app.state.web_dir = WEB_DIR
    build = app.state.build = assets.build_id(WEB_DIR)

    app.add_middleware(SocketGate, per_second=settings.sockets_per_second)
    app.add_middleware(OriginCheck, names=settings.allowed_hosts, origins=origins)
    if settings.allowed_hosts:
        app.add_middleware(HostCheck, allowed=settings.allowed_hosts)
    docs = [url for url in (app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url) if url]
    app.add_middleware(PageAssets, build=build)
    app.add_middleware(
        CompressMiddleware,
        minimum_size=GZIP_MIN_BYTES,
        zstd=False,
        brotli_quality=BROTLI_QUALITY,
        gzip_level=GZIP_LEVEL,
    )
    app.add_middleware(SecurityHeaders, docs_paths=docs)  # outermost: also on the 400s above

    @app.exception_handler(RoomError)
    async def room_error(_request: Request, err: RoomError) -> JSONResponse:
        wait = err.retry_after_s
        headers = None if wait is None else {"Retry-After": str(max(1, math.ceil(wait)))}
        return JSONResponse(
            status_code=err.status, content={"detail": err.detail()}, headers=headers
        )

    @app.exception_handler(StoreUnavailable)
    async def store_down(_request: Request, _err: StoreUnavailable) -> JSONResponse:
        return JSONResponse(status_code=503, content={"detail": store_unavailable().detail()})

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"detail": validation_detail(err.errors())})

    @app.exception_handler(HTTPException)
    async def unreadable_body(request: Request, err: HTTPException) -> Response:
        # a body FastAPI cannot even decode (not UTF-8) is refused as invalid JSON is
        if err.status_code == 400 and isinstance(err.detail, str):
            detail = validation_detail([{"type": "json_invalid", "loc": ("body",)}])
            return JSONResponse(status_code=422, content={"detail": detail})
        return await http_exception_handler(request, err)

    app.include_router(tournament_routes.router)
    app.include_router(tournament_auto_routes.router)  # automatic calls and closes
    app.include_router(spectators.router)  # the live event's socket
    app.mount("/static", AssetFiles(WEB_DIR, build), name="static")
    app.include_router(assets.router)  # the game's service worker, its offline page
    app.include_router(pad_routes.router)  # the table referees' scoring pads (docs/scoring.md)
    app.include_router(health.router)
    app.include_router(puzzle_routes.router)  # puzzles (docs/learn.md)
    app.include_router(room_routes.router)
    app.include_router(account_routes.router)  # accounts, ratings, profiles
    app.include_router(lobby_routes.router)  # seeks, challenges, live games
    return app
