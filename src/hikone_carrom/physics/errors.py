"""Exceptions of the physics layer: bad input is refused before anything is simulated."""

from __future__ import annotations

__all__ = ["InvalidLayoutError", "InvalidShotError", "PhysicsError"]


class PhysicsError(ValueError):
    """Base class of every error the physics layer raises."""


class InvalidLayoutError(PhysicsError):
    """The disks given cannot stand on the board as given.

    Raised for: a duplicate or empty id, a non-finite number, a radius or mass <= 0, a negative
    layer, a disk beyond the rails, two disks of one layer overlapping, a disk on a layer >= 1 with
    no disk of the layer below under it (R6e), a moving disk on a layer >= 1, an unknown striker id.
    """


class InvalidShotError(PhysicsError):
    """A batch shot is unusable: non-finite, or its striker would not fit where it is placed."""
