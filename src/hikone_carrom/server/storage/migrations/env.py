"""Alembic environment: runs migrations on the connection handed over by ``migrate``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from hikone_carrom.server.storage.models import Base

target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations() -> None:
    """Upgrade on the shared connection, or open one from ``sqlalchemy.url``."""
    shared = context.config.attributes.get("connection")
    if isinstance(shared, Connection):
        _run(shared)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if url is None:
        raise RuntimeError("alembic: no sqlalchemy.url and no connection given")
    engine = create_engine(url)
    with engine.connect() as connection:
        _run(connection)
    engine.dispose()


if context.is_offline_mode():
    raise RuntimeError("alembic: offline (SQL script) mode is not supported")
run_migrations()
