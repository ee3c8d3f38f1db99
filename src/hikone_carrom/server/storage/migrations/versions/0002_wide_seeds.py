"""Seeds as 64-bit integers: a room's game seeds go up to 2**62 (PostgreSQL ``integer`` is 32-bit).

SQLite's INTEGER already holds 64 bits, so nothing changes there (and rebuilding the parent
table would cascade through its foreign keys).

Revision ID: 0002
Revises: 0001
Create Date: 2025-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

_SEED_COLUMNS = (("rooms", "seed"), ("games", "seed"))


def _widens() -> bool:
    return op.get_bind().dialect.name != "sqlite"


def upgrade() -> None:
    """Widen ``rooms.seed`` and ``games.seed`` to BIGINT."""
    if _widens():
        for table, column in _SEED_COLUMNS:
            op.alter_column(table, column, type_=sa.BigInteger, existing_nullable=False)


def downgrade() -> None:
    """Back to INTEGER (fails on PostgreSQL if a stored seed does not fit)."""
    if _widens():
        for table, column in _SEED_COLUMNS:
            op.alter_column(table, column, type_=sa.Integer, existing_nullable=False)
