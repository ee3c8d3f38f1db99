"""Alembic migrations of the game store (schema history)."""
