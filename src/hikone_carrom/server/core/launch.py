"""``hikone-carrom play`` / ``serve``: start the game server and (for play) open the browser.

Every problem with the options or the store is one sentence on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
import threading
import webbrowser
from dataclasses import replace

from hikone_carrom.board_file import add_board_argument, board_from_args
from hikone_carrom.server.core.config import (
    DB_ENV_VAR,
    ORGANISER_KEY_ENV_VAR,
    ORIGINS_ENV_VAR,
    WS_DEFLATE,
    ServerSettings,
    default_db_url,
    default_think_workers,
    memory_store_problem,
    organiser_key_problem,
)
from hikone_carrom.server.core.hosts import LOOPBACK_NAMES, is_loopback, origin_of
from hikone_carrom.server.core.organiser import sign_in_link

__all__ = ["build_parser", "lan_address", "main", "redis_problem", "store_problem"]


def build_parser() -> argparse.ArgumentParser:
    """The command-line options of ``hikone-carrom play``."""
    parser = argparse.ArgumentParser(
        prog="hikone-carrom play",
        description="Play Hikone Carrom in the browser (彦根カロムをブラウザで遊ぶ).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8765, help="port to listen on")
    parser.add_argument(
        "--db",
        default=None,
        help=f"SQLAlchemy URL of the game store (default: ${DB_ENV_VAR}, "
        "else SQLite in the user's data folder)",
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument(
        "--workers", type=int, default=2, help="threads that simulate people's shots"
    )
    parser.add_argument(
        "--think-workers",
        type=int,
        default=None,
        help="processes for computer players and hints (default: one per core but one, at most 32)",
    )
    parser.add_argument(
        "--analysis-workers",
        type=int,
        default=1,
        help="processes for post-game analyses, at the idle CPU priority (0: the thinking"
        " processes analyse, after every computer move and hint)",
    )
    parser.add_argument(
        "--room-idle",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="a room nobody used for this long leaves memory (rebuilt from the store on use)",
    )
    parser.add_argument(
        "--rooms-per-minute",
        type=float,
        default=30.0,
        help="new rooms one client address may make per minute",
    )
    parser.add_argument(
        "--sockets-per-second",
        type=float,
        default=2.0,
        help="new WebSockets one client address may open per second (ten seconds' worth at once)",
    )
    parser.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="run as one of several server processes sharing the store (redis://host:6379/0)",
    )
    parser.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="think (computer players, hints) on this Ray cluster instead of local processes",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="on a loopback address, also answer requests for this host name (a reverse proxy)",
    )
    parser.add_argument(
        "--organiser-key",
        default=None,
        metavar="KEY",
        help=f"the key that creating events and boards needs (default: ${ORGANISER_KEY_ENV_VAR}, "
        "else one made on first start and kept with the store)",
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="URL",
        help="also let pages of this site (https://host[:port]) open the server's WebSockets "
        f"(default: ${ORIGINS_ENV_VAR}, comma-separated)",
    )
    add_board_argument(parser)
    return parser


def lan_address() -> str | None:
    """This machine's address on its local network (IPv4), or None if it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routes, sends nothing
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def store_problem(url: str, timeout_s: float = 5.0) -> str | None:
    """Why the store at ``url`` cannot be used, in one sentence, or None (it is opened and its
    schema brought up to date)."""
    from alembic.util import CommandError
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    from hikone_carrom.server.storage import GameStore, StoreError, StoreUnavailable

    memory = memory_store_problem(url)
    if memory is not None:
        return memory
    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return (
            f"--db {url!r} is not a database URL "
            "(e.g. sqlite:///games.sqlite3 or postgresql+psycopg://user@host/db)"
        )
    try:
        store = GameStore(url, timeout_s=timeout_s)
    except NoSuchModuleError:
        return f"--db {shown}: no database driver for it; use sqlite:/// or postgresql+psycopg://"
    except (OSError, ArgumentError) as err:
        return f"--db {shown}: cannot open the game store ({_first_line(err)})"
    try:
        store.migrate()
    except (StoreUnavailable, StoreError, OSError) as err:
        return f"--db {shown}: cannot open the game store ({_first_line(err)})"
    except CommandError as err:
        return f"--db {shown}: its schema is not one this version knows ({_first_line(err)})"
    finally:
        store.close()
    return None


def redis_problem(url: str) -> str | None:
    """Why the Redis server at ``url`` cannot be used, in one sentence, or None."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    except ValueError as err:
        return f"--redis {url!r} is not a Redis URL ({_first_line(err)})"
    try:
        client.ping()
    except redis.RedisError as err:
        return f"--redis {url}: cannot reach Redis ({_first_line(err)})"
    finally:
        client.close()
    return None


def _first_line(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    return lines[0] if lines else type(err).__name__


def main(argv: list[str] | None = None) -> int:
    """Run the server until interrupted; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    board = board_from_args(parser, args)
    if not 0 < args.port < 65536:
        parser.error("--port must be 1..65535")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.think_workers is not None and args.think_workers < 1:
        parser.error("--think-workers must be at least 1")
    if args.analysis_workers < 0:
        parser.error("--analysis-workers must be at least 0")
    if not 0 < args.room_idle < float("inf"):
        parser.error("--room-idle must be a positive number of seconds")
    if not 0 < args.rooms_per_minute < float("inf"):
        parser.error("--rooms-per-minute must be a positive number")
    if not 0 < args.sockets_per_second < float("inf"):
        parser.error("--sockets-per-second must be a positive number")
    given_key = args.organiser_key or os.environ.get(ORGANISER_KEY_ENV_VAR) or None
    if given_key is not None and (key_problem := organiser_key_problem(given_key)):
        parser.error(key_problem)
    try:
        origins = tuple(
            origin_of(url)
            for url in args.allowed_origin
            or os.environ.get(ORIGINS_ENV_VAR, "").replace(",", " ").split()
        )
    except ValueError as err:
        parser.error(f"--allowed-origin: {err}")
    loopback = is_loopback(args.host)
    settings = ServerSettings(
        db_url=args.db or default_db_url(),
        sim_workers=args.workers,
        think_workers=args.think_workers or default_think_workers(),
        analysis_workers=args.analysis_workers,
        room_idle_s=args.room_idle,
        rooms_per_minute=args.rooms_per_minute,
        sockets_per_second=args.sockets_per_second,
        allowed_hosts=(*LOOPBACK_NAMES, args.host, *args.allowed_host) if loopback else (),
        allowed_origins=origins,
        redis_url=args.redis,
        ray_address=args.ray,
        warm_thinking=True,
    )
    problem = (
        store_problem(settings.db_url, settings.store_timeout_s)
        or (redis_problem(args.redis) if args.redis else None)
        or _port_problem(args.host, args.port)
    )
    key = None if problem else given_key or _kept_key(settings)
    if key is None:
        problem = problem or "the store was reachable but its organiser's key could not be read"
        print(f"hikone-carrom: {problem}", file=sys.stderr)
        return 2
    settings = replace(settings, organiser_key=key)

    import uvicorn

    from hikone_carrom.server.core.app import create_app
    from hikone_carrom.server.core.warmup import warm_up

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    app = create_app(settings, board)
    warm_up(board)
    local = f"http://{_url_host(args.host)}:{args.port}/"
    if args.host in ("0.0.0.0", "::", ""):
        local = f"http://127.0.0.1:{args.port}/"
        lan = lan_address()
        where = f"http://{lan}:{args.port}/ on your network, " if lan else ""
        print(f"Hikone Carrom: {where}{local} on this computer")
    else:
        print(f"Hikone Carrom: {local}")
    print(f"  organiser's sign-in link (creates events and boards): {sign_in_link(local, key)}")
    print(f"  store: {_safe(settings.db_url)}; Ctrl+C to stop", flush=True)
    if not args.no_browser:
        threading.Timer(1.0, _open, args=(sign_in_link(local, key),)).start()
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws="websockets-sansio",
        ws_per_message_deflate=WS_DEFLATE,
    )
    return 0


def _kept_key(settings: ServerSettings) -> str | None:
    """The organiser's key kept with the store (made now on a new store), or None if the store
    cannot be reached."""
    from hikone_carrom.server.storage import GameStore, StoreUnavailable
    from hikone_carrom.server.storage.organiser_key import organiser_key

    store = GameStore(settings.db_url, timeout_s=settings.store_timeout_s)
    try:
        return organiser_key(store.engine)
    except StoreUnavailable:
        return None
    finally:
        store.close()


def _port_problem(host: str, port: int) -> str | None:
    """Why the server cannot listen on ``host:port``, in one sentence, or None."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
    except OSError as err:
        return f"--host {host!r} is not an address of this machine ({err.strerror or err})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            return f"cannot listen on {host}:{port} ({err.strerror or err})"
    return None


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _open(url: str) -> None:
    try:
        webbrowser.open(url)
    except webbrowser.Error:
        print(f"Open {url} in a browser.")


def _safe(url: str) -> str:
    """The URL with any password hidden."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
