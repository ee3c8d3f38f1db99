"""Initial schema: rooms, seats, games, events.

Revision ID: 0001
Revises:
Create Date: 2025-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("ai_level", sa.String(32), nullable=True),
        sa.Column("minutes", sa.Float, nullable=True),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column(
            "room_id",
            sa.String(32),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column(
            "room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("seat_names", sa.JSON, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("shots", sa.Integer, nullable=False),
        sa.Column("outcome", sa.JSON, nullable=True),
        sa.Column("record", sa.JSON, nullable=True),
    )
    op.create_index("ix_games_room_id", "games", ["room_id"])
    op.create_table(
        "events",
        sa.Column(
            "room_id",
            sa.String(32),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
    )
    op.create_index("ix_events_game_id", "events", ["game_id"])


def downgrade() -> None:
    """Drop the four tables."""
    op.drop_index("ix_events_game_id", "events")
    op.drop_table("events")
    op.drop_index("ix_games_room_id", "games")
    op.drop_table("games")
    op.drop_table("seats")
    op.drop_table("rooms")
