"""The fencing number of a room's owner: ``rooms.epoch``.

Each server process that takes a room over raises its epoch; every write of the room names the
epoch its process holds and is refused when the room has been taken over since, so that a process
that lost a room can never change it again.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``rooms.epoch`` (BIGINT, not null, default 0)."""
    op.add_column(
        "rooms",
        sa.Column("epoch", sa.BigInteger(), nullable=False, server_default=sa.text("0")),
    )


def downgrade() -> None:
    """Drop ``rooms.epoch`` (on SQLite with its own ALTER TABLE, as in 0003)."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE rooms DROP COLUMN epoch")
    else:
        op.drop_column("rooms", "epoch")
