"""An event's matches (fixtures): those its pools' round robins and its brackets make.

Pool matches change only with the draw; knockout matches learn their entrants as pools close
and results come in. :class:`Fixtures` keeps both for an :class:`~.event.Tournament` until one of
those changes (:meth:`Fixtures.forget`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from hikone_carrom.tournament.knockout import BYE, Bracket
from hikone_carrom.tournament.pools import Pool, round_robin

if TYPE_CHECKING:
    from hikone_carrom.tournament.event import Tournament

__all__ = ["Fixture", "Fixtures", "Stage", "knockout_fixtures", "pool_fixtures", "side_names"]

Stage = Literal["pool", "knockout"]


@dataclass(frozen=True)
class Fixture:
    """A planned match of the championship, as the event knows it now.

    ``sides`` are entry ids, ``BYE`` (nobody will come) or None (not decided yet); ``name_ja`` and
    ``name_en`` say what it is ("Aリーグ 第2試合", "準決勝").
    """

    id: str
    division: str
    stage: Stage
    pool: int | None
    round: int
    sides: tuple[str | None, str | None]
    name_ja: str
    name_en: str
    after: tuple[str, ...] = ()
    final: bool = False

    @property
    def playable(self) -> bool:
        """Both entrants are known and present."""
        return all(s not in (None, BYE) for s in self.sides)


def pool_fixtures(pool: Pool) -> list[Fixture]:
    """A pool's matches in round-robin order (circle method); ids "GS-A-07"."""
    out = []
    n = 0
    for rnd, pairs in enumerate(round_robin(pool.entries), start=1):
        for a, b in pairs:
            n += 1
            out.append(
                Fixture(
                    f"{pool.division}-{pool.label}-{n:02d}",
                    pool.division,
                    "pool",
                    pool.number,
                    rnd,
                    (a, b),
                    f"{pool.label}リーグ 第{n}試合",
                    f"Pool {pool.label} match {n}",
                )
            )
    return out


def knockout_fixtures(
    division: str,
    bracket: Bracket,
    sides: dict[str, tuple[str | None, str | None]],
    pool_games: dict[int, list[Fixture]],
) -> list[Fixture]:
    """A bracket's matches with their entrants ``sides`` (by match id); each comes after the
    matches that feed it (the whole pool for a pool place)."""
    pool_ids = {n: [m.id for m in games] for n, games in pool_games.items()}
    out: list[Fixture] = []
    for km in bracket.matches:
        after: list[str] = []
        for feed in km.feeds:
            if feed.place is not None:
                place = feed.place
                after += [m for n, ids in pool_ids.items() if place.fed_by(n) for m in ids]
            elif feed.match is not None:
                after.append(feed.match)
        out.append(
            Fixture(
                km.id,
                division,
                "knockout",
                None,
                km.round,
                sides[km.id],
                km.name(bracket.rounds, "ja"),
                km.name(bracket.rounds, "en"),
                tuple(dict.fromkeys(after)),
                km.final,
            )
        )
    return out


def side_names(match: Fixture, name: Callable[[str], str], lang: str = "ja") -> tuple[str, str]:
    """Display names of both sides, ``name`` of an entry id ("未定"/"TBD" while unknown,
    "不戦"/"bye" for a bye)."""

    def shown(side: str | None) -> str:
        if side is None:
            return "未定" if lang == "ja" else "TBD"
        if side == BYE:
            return "不戦" if lang == "ja" else "bye"
        return name(side)

    return shown(match.sides[0]), shown(match.sides[1])


class Fixtures:
    """The matches of an event as known now, made on demand and kept until forgotten."""

    def __init__(self, event: Tournament) -> None:
        self._event = event
        self._pools: dict[str, dict[int, list[Fixture]]] = {}
        self._knockout: dict[str, list[Fixture]] = {}
        self._merged: dict[str, Fixture] | None = None

    def forget(self, division: str, *, pools: bool = False) -> None:
        """Forget the matches of ``division`` derived from results (and from its pools)."""
        self._knockout.pop(division, None)
        if pools:
            self._pools.pop(division, None)
        self._merged = None

    def pool_games(self, division: str) -> dict[int, list[Fixture]]:
        """The pool matches of a division by pool number."""
        games = self._pools.get(division)
        if games is None:
            games = {p.number: pool_fixtures(p) for p in self._event.pools.get(division, ())}
            self._pools[division] = games
        return games

    def knockout_games(self, division: str) -> list[Fixture]:
        """The knockout matches of a division with their entrants as known now."""
        cached = self._knockout.get(division)
        if cached is not None:
            return cached
        event = self._event
        bracket = event.brackets.get(division)
        out: list[Fixture] = []
        if bracket is not None:
            sides = bracket.sides(event.qualifiers(division), event.results)
            out = knockout_fixtures(division, bracket, sides, self.pool_games(division))
        self._knockout[division] = out
        return out

    def by_id(self) -> dict[str, Fixture]:
        """Every match by id: per division its pools, then its knockout."""
        if self._merged is None:
            merged: dict[str, Fixture] = {}
            for division in self._event.divisions:
                for games in self.pool_games(division).values():
                    merged.update((m.id, m) for m in games)
                merged.update((m.id, m) for m in self.knockout_games(division))
            self._merged = merged
        return self._merged
