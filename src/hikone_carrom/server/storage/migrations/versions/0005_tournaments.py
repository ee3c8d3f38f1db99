"""Tournaments: the event document, each match's live state, the audit trail, and
which scoring pad serves each board of an event.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``tournaments``, ``tournament_live``, ``tournament_audit`` and ``tournament_pads``."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("director_hash", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("doc", sa.Text, nullable=False),
    )
    op.create_table(
        "tournament_live",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("match_id", sa.String(40), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("board", sa.Integer, nullable=True),
        sa.Column("called_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("source", sa.String(32), nullable=True),
        sa.Column("pad_board", sa.String(32), nullable=True),
        sa.Column("pad_match", sa.Integer, nullable=True),
        sa.Column("room", sa.String(32), nullable=True),
        sa.Column("seat_tokens", sa.Text, nullable=True),
    )
    op.create_index(
        "ix_tournament_live_pad", "tournament_live", ["pad_board", "pad_match"], unique=False
    )
    op.create_table(
        "tournament_audit",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("who", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )

    op.create_table(
        "tournament_pads",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("pad_board", sa.String(32), nullable=False),
        sa.Column("pad_url", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop the four tables."""
    op.drop_table("tournament_pads")
    op.drop_index("ix_tournament_live_pad", table_name="tournament_live")
    op.drop_table("tournament_audit")
    op.drop_table("tournament_live")
    op.drop_table("tournaments")
