"""``hikone-carrom play``: start the game server on this machine and open the browser."""

from __future__ import annotations

import argparse
import logging
import threading
import webbrowser

from hikone_carrom.server.config import DB_ENV_VAR, ServerSettings, default_db_url

__all__ = ["build_parser", "main"]


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
        "--workers", type=int, default=2, help="threads for simulations and computer players"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the server until interrupted; returns the exit status."""
    import uvicorn

    from hikone_carrom.server.app import create_app

    args = build_parser().parse_args(argv)
    if not 0 < args.port < 65536:
        build_parser().error("--port must be 1..65535")
    if args.workers < 1:
        build_parser().error("--workers must be at least 1")
    settings = ServerSettings(db_url=args.db or default_db_url(), sim_workers=args.workers)
    problem = _db_problem(settings.db_url)
    if problem is not None:
        build_parser().error(problem)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(settings)
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    url = f"http://{host}:{args.port}/"
    print(f"Hikone Carrom: {url}  (store: {_safe(settings.db_url)}; Ctrl+C to stop)")
    if not args.no_browser:
        threading.Timer(1.0, _open, args=(url,)).start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws="websockets-sansio")
    return 0


def _open(url: str) -> None:
    try:
        webbrowser.open(url)
    except webbrowser.Error:
        print(f"Open {url} in a browser.")


def _db_problem(url: str) -> str | None:
    """Why ``url`` names no database SQLAlchemy can open here, or ``None``."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError) as err:
        return f"--db is not a database URL ({err})"
    try:
        parsed.get_dialect()
    except (NoSuchModuleError, ImportError) as err:
        shown = parsed.render_as_string(hide_password=True)
        return f"--db {shown} names a database this installation cannot use ({err})"
    return None


def _safe(url: str) -> str:
    """The URL with any password hidden."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
