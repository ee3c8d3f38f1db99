"""The project's maintenance scripts (not shipped): run as ``python -m tools.NAME``."""
