"""A room option: may its players ask for the expert's hint.

Existing rooms keep hints on, as every casual room had them before the option existed.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``rooms.hints`` (boolean, not null, default true)."""
    op.add_column(
        "rooms",
        sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.true()),
    )


def downgrade() -> None:
    """Drop ``rooms.hints`` (on SQLite with its own ALTER TABLE, 3.35 or newer, so that the parent
    table is not rebuilt through its foreign keys)."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE rooms DROP COLUMN hints")
    else:
        op.drop_column("rooms", "hints")
