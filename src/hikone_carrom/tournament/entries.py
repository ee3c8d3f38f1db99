"""Entries: one player (singles) or a pair (doubles) in one division, with check-in and withdrawal.

An entry is checked against its division when it is made (:meth:`Division.check_members`); its
members' :attr:`Person.key` tie together one person's entries in several divisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.people import Person, fold_reading

__all__ = ["Entry", "EntryStatus"]

EntryStatus = Literal["entered", "checked_in", "withdrawn"]


@dataclass(frozen=True)
class Entry:
    """One entry of a division.

    Attributes:
        id: stable id within the event ("GS-017").
        division: the division's id.
        members: one person (singles) or two (doubles).
        seed: seeding rank (1 = strongest) for a seeded draw, or None.
        status: "entered", "checked_in" (受付済み) or "withdrawn" (棄権).
    """

    id: str
    division: str
    members: tuple[Person, ...]
    seed: int | None = None
    status: EntryStatus = "entered"

    def __post_init__(self) -> None:
        if not 1 <= len(self.members) <= 2:
            raise TournamentError(
                "wrong_member_count", "An entry has one or two players", "1組は1人か2人です"
            )
        if self.seed is not None and self.seed < 1:
            raise TournamentError(
                "bad_seed",
                f"Seed must be 1 or more (got {self.seed})",
                f"シードは1以上にしてください（{self.seed}）",
            )

    @property
    def name(self) -> str:
        """Display name: the player, or both partners joined by ・."""
        return "・".join(p.name for p in self.members)

    @property
    def reading(self) -> str:
        """Display reading in kana."""
        return "・".join(p.reading for p in self.members)

    @property
    def club(self) -> str:
        """The club; a pair from two clubs shows both ("A / B"), a pair from one shows it once."""
        clubs = list(dict.fromkeys(p.club for p in self.members if p.club))
        return " / ".join(clubs)

    @property
    def clubs(self) -> frozenset[str]:
        """Every club of the members (the draw keeps clubs apart)."""
        return frozenset(p.club for p in self.members if p.club)

    @property
    def people(self) -> frozenset[str]:
        """The members' person keys (one person is never on two boards at once)."""
        return frozenset(p.key for p in self.members)

    @property
    def active(self) -> bool:
        """Not withdrawn."""
        return self.status != "withdrawn"

    def matches_search(self, query: str) -> bool:
        """Whether ``query`` is in a member's name or reading (kana folded, spaces ignored)."""
        key = fold_reading(query)
        if not key:
            return False
        return any(
            key in fold_reading(p.name) or key in fold_reading(p.reading) for p in self.members
        )
