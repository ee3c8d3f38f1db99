"""Tournaments: a match's result is stored with its live row, so that recording one rewrites
that row only, not the whole event document.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``tournament_live.result`` (JSON text, nullable)."""
    with op.batch_alter_table("tournament_live") as batch:
        batch.add_column(sa.Column("result", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop ``tournament_live.result``: fold the results into each event's document first, so
    that nothing is lost."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.text(
            "SELECT tournament_id, match_id, result FROM tournament_live WHERE result IS NOT NULL"
        )
    ).fetchall()
    by_event: dict[str, dict[str, object]] = {}
    for tournament_id, match_id, result in rows:
        by_event.setdefault(tournament_id, {})[match_id] = json.loads(result)
    for tournament_id, results in by_event.items():
        doc_text = bind.execute(
            sa.text("SELECT doc FROM tournaments WHERE id = :id"), {"id": tournament_id}
        ).scalar_one()
        doc = json.loads(doc_text)
        doc["results"].update(results)
        bind.execute(
            sa.text("UPDATE tournaments SET doc = :doc WHERE id = :id"),
            {"doc": json.dumps(doc, ensure_ascii=False), "id": tournament_id},
        )
    with op.batch_alter_table("tournament_live") as batch:
        batch.drop_column("result")
