"""Small events for the tournament tests."""

from __future__ import annotations

from hikone_carrom.tournament import (
    Division,
    Entry,
    Person,
    Tournament,
    TournamentSettings,
    championship_divisions,
)


def adult(name: str, club: str = "", reading: str = "せんしゅ") -> Person:
    return Person(name, reading, club, "滋賀県", age=30)


def general_event(entries: int, *, boards: int = 4, clubs: int = 3, seed: int = 1) -> Tournament:
    """General singles only (pools of 6, best 3 advance), ``entries`` adults in ``clubs`` clubs."""
    general: Division = championship_divisions()[2]
    event = Tournament(TournamentSettings("テスト大会", boards=boards, seed=seed), [general])
    for i in range(entries):
        club = f"クラブ{i % clubs}" if clubs else ""
        event.add_entry(Entry(event.next_entry_id("GS"), "GS", (adult(f"選手{i}", club),)))
    return event
