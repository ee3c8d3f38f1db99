"""Passwords, kept as argon2id hashes (argon2-cffi's :class:`PasswordHasher` defaults: RFC 9106's
low-memory profile, 64 MiB, 3 passes)."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = ["PASSWORD_MAX", "PASSWORD_MIN", "hash_password", "needs_rehash", "password_matches"]

PASSWORD_MIN, PASSWORD_MAX = 8, 256
"""A password's length in characters."""

_HASHER = PasswordHasher()

_UNUSED = _HASHER.hash("a password no account has")
"""Verified against when a name is unknown, so that sign-in takes as long either way."""


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (a fresh salt each time)."""
    return _HASHER.hash(password)


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one hashed as ``stored`` (None: no such account; the same
    work is done anyway)."""
    try:
        return _HASHER.verify(stored or _UNUSED, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with weaker parameters than today's."""
    return _HASHER.check_needs_rehash(stored)
