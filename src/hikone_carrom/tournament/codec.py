"""Plain-dict forms of the tournament's values and of a whole :class:`~.event.Tournament`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hikone_carrom.tournament.boardplan import BoardPlan, Slot
from hikone_carrom.tournament.divisions import Division, MemberRule
from hikone_carrom.tournament.entries import Entry
from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.knockout import Bracket, Feed, KnockoutMatch, PoolPlace
from hikone_carrom.tournament.people import PRESCHOOL, Person
from hikone_carrom.tournament.pools import Pool
from hikone_carrom.tournament.results import Result
from hikone_carrom.tournament.settings import TournamentSettings
from hikone_carrom.tournament.standings import StandingRules

if TYPE_CHECKING:
    from hikone_carrom.tournament.event import Tournament

__all__ = [
    "bracket_from_dict",
    "bracket_to_dict",
    "division_from_dict",
    "division_to_dict",
    "entry_from_dict",
    "entry_to_dict",
    "event_from_dict",
    "event_to_dict",
    "plan_from_dict",
    "plan_to_dict",
    "rules_from_dict",
    "rules_to_dict",
    "settings_from_dict",
    "settings_to_dict",
]


def rules_to_dict(rules: StandingRules) -> dict[str, Any]:
    """Match points, tie-break order and forfeit score."""
    return {
        "win": rules.win,
        "draw": rules.draw,
        "loss": rules.loss,
        "order": list(rules.order),
        "forfeit_score": list(rules.forfeit_score),
    }


def rules_from_dict(data: Any) -> StandingRules:
    """Inverse of :func:`rules_to_dict`."""
    won, lost = (int(v) for v in data["forfeit_score"])
    return StandingRules(
        win=int(data["win"]),
        draw=int(data["draw"]),
        loss=int(data["loss"]),
        order=tuple(data["order"]),
        forfeit_score=(won, lost),
    )


def division_to_dict(d: Division) -> dict[str, Any]:
    """Every field of a division."""
    return {
        "id": d.id,
        "name_ja": d.name_ja,
        "name_en": d.name_en,
        "format": d.format,
        "members": [
            {
                "min_year": r.min_year,
                "max_year": r.max_year,
                "min_age": r.min_age,
                "en": r.en,
                "ja": r.ja,
            }
            for r in d.members
        ],
        "match_time_s": d.match_time_s,
        "pool_size": d.pool_size,
        "advance": d.advance,
        "third_place": d.third_place,
        "final_untimed": d.final_untimed,
        "untimed_estimate_s": d.untimed_estimate_s,
        "knockout": d.knockout,
    }


EVENT_VERSION = 2
"""The stored event's version: 2 has the kindergarten years (年少, 年中, 年長)."""


def _school_year(year: int, version: int) -> int:
    return PRESCHOOL if version == 1 and year == 0 else year


def division_from_dict(data: Any, version: int = EVENT_VERSION) -> Division:
    """Inverse of :func:`division_to_dict` (a division stored before knockout sizes existed
    takes every qualifier)."""
    return Division(
        id=str(data["id"]),
        name_ja=str(data["name_ja"]),
        name_en=str(data["name_en"]),
        format="doubles" if data["format"] == "doubles" else "singles",
        members=tuple(
            MemberRule(
                _school_year(int(r["min_year"]), version),
                _school_year(int(r["max_year"]), version),
                None if r["min_age"] is None else int(r["min_age"]),
                str(r.get("en", "")),
                str(r.get("ja", "")),
            )
            for r in data["members"]
        ),
        match_time_s=None if data["match_time_s"] is None else float(data["match_time_s"]),
        pool_size=int(data["pool_size"]),
        advance=int(data["advance"]),
        third_place=bool(data["third_place"]),
        final_untimed=bool(data["final_untimed"]),
        untimed_estimate_s=float(data["untimed_estimate_s"]),
        knockout=data.get("knockout", "full"),
    )


def entry_to_dict(e: Entry) -> dict[str, Any]:
    """An entry with its members."""
    return {
        "id": e.id,
        "division": e.division,
        "seed": e.seed,
        "status": e.status,
        "members": [
            {
                "name": p.name,
                "reading": p.reading,
                "club": p.club,
                "prefecture": p.prefecture,
                "age": p.age,
                "school_year": p.school_year,
            }
            for p in e.members
        ],
    }


def entry_from_dict(data: Any, version: int = EVENT_VERSION) -> Entry:
    """Inverse of :func:`entry_to_dict`; ``version`` is that of the event it is stored with (in
    version 1, school year 0 was any preschool child, now :data:`PRESCHOOL`)."""
    status = data["status"]
    if status not in ("entered", "checked_in", "withdrawn"):
        raise ValueError(f"entry status {status!r}")
    return Entry(
        id=str(data["id"]),
        division=str(data["division"]),
        members=tuple(
            Person(
                name=str(p["name"]),
                reading=str(p["reading"]),
                club=str(p["club"]),
                prefecture=str(p["prefecture"]),
                age=None if p["age"] is None else int(p["age"]),
                school_year=_school_year(int(p["school_year"]), version),
            )
            for p in data["members"]
        ),
        seed=None if data["seed"] is None else int(data["seed"]),
        status=status,
    )


def _place_to(p: PoolPlace) -> list[int]:
    """[place, pool], or [place, 0, rank] for a place ranked across the pools."""
    return [p.place, p.pool, p.rank] if p.rank else [p.place, p.pool]


def _place_from(data: Any) -> PoolPlace:
    return PoolPlace(int(data[0]), int(data[1]), int(data[2]) if len(data) > 2 else 0)


def _feed_to(f: Feed) -> dict[str, Any]:
    return {
        "kind": f.kind,
        "place": None if f.place is None else _place_to(f.place),
        "match": f.match,
    }


def _feed_from(data: Any) -> Feed:
    place = None if data["place"] is None else _place_from(data["place"])
    kind = data["kind"]
    if kind not in ("place", "winner", "loser", "bye"):
        raise ValueError(f"feed kind {kind!r}")
    return Feed(kind, place=place, match=data["match"])


def bracket_to_dict(b: Bracket) -> dict[str, Any]:
    """A bracket's lines and matches."""
    return {
        "lines": [None if p is None else _place_to(p) for p in b.lines],
        "matches": [
            {
                "id": m.id,
                "round": m.round,
                "slot": m.slot,
                "feeds": [_feed_to(f) for f in m.feeds],
                "final": m.final,
                "third_place": m.third_place,
            }
            for m in b.matches
        ],
    }


def bracket_from_dict(division: str, data: Any) -> Bracket:
    """Inverse of :func:`bracket_to_dict`."""
    return Bracket(
        division,
        tuple(None if p is None else _place_from(p) for p in data["lines"]),
        tuple(
            KnockoutMatch(
                str(m["id"]),
                division,
                int(m["round"]),
                int(m["slot"]),
                (_feed_from(m["feeds"][0]), _feed_from(m["feeds"][1])),
                final=bool(m["final"]),
                third_place=bool(m["third_place"]),
            )
            for m in data["matches"]
        ),
    )


def plan_to_dict(p: BoardPlan) -> dict[str, Any]:
    """A plan's settings, slots ([match, board, start_s, end_s]) and breaks ([start_s, end_s])."""
    return {
        "boards": p.boards,
        "start_s": p.start_s,
        "changeover_s": p.changeover_s,
        "slots": [[s.match, s.board, s.start_s, s.end_s] for s in p.slots],
        "breaks": [list(b) for b in p.breaks],
    }


def plan_from_dict(data: Any) -> BoardPlan:
    """Inverse of :func:`plan_to_dict` (a plan stored without breaks has none)."""
    return BoardPlan(
        int(data["boards"]),
        int(data["start_s"]),
        int(data["changeover_s"]),
        tuple(Slot(int(s[2]), int(s[1]), str(s[0]), int(s[3])) for s in data["slots"]),
        tuple((int(b[0]), int(b[1])) for b in data.get("breaks", ())),
    )


def settings_to_dict(s: TournamentSettings) -> dict[str, Any]:
    """How the event is run, its rules included."""
    return {
        "name": s.name,
        "date": s.date,
        "boards": s.boards,
        "start_s": s.start_s,
        "changeover_s": s.changeover_s,
        "golden_board": s.golden_board,
        "seed": s.seed,
        "rules": rules_to_dict(s.rules),
        "online": s.online,
        "ceremony_start_s": s.ceremony_start_s,
        "ceremony_length_s": s.ceremony_length_s,
        "lunch_start_s": s.lunch_start_s,
        "lunch_length_s": s.lunch_length_s,
        "finals_start_s": s.finals_start_s,
    }


def settings_from_dict(s: Any) -> TournamentSettings:
    """Inverse of :func:`settings_to_dict` (``online`` defaults to False; an event stored
    before the breaks existed gets the default ceremony, lunch and finals' start)."""
    default = TournamentSettings("-")
    finals = s.get("finals_start_s", default.finals_start_s)
    return TournamentSettings(
        name=s["name"],
        date=s["date"],
        boards=int(s["boards"]),
        start_s=int(s["start_s"]),
        changeover_s=int(s["changeover_s"]),
        golden_board=None if s["golden_board"] is None else int(s["golden_board"]),
        seed=int(s["seed"]),
        rules=rules_from_dict(s["rules"]),
        online=bool(s.get("online", False)),
        ceremony_start_s=int(s.get("ceremony_start_s", default.ceremony_start_s)),
        ceremony_length_s=int(s.get("ceremony_length_s", default.ceremony_length_s)),
        lunch_start_s=int(s.get("lunch_start_s", default.lunch_start_s)),
        lunch_length_s=int(s.get("lunch_length_s", default.lunch_length_s)),
        finals_start_s=None if finals is None else int(finals),
    )


def event_to_dict(event: Tournament) -> dict[str, Any]:
    """Plain JSON-ready dict of the whole event (version :data:`EVENT_VERSION`)."""
    return {
        "version": EVENT_VERSION,
        "settings": settings_to_dict(event.settings),
        "divisions": [division_to_dict(d) for d in event.divisions.values()],
        "entries": [entry_to_dict(e) for e in event.entries.values()],
        "pools": {d: [list(p.entries) for p in pools] for d, pools in event.pools.items()},
        "brackets": {d: bracket_to_dict(b) for d, b in event.brackets.items()},
        "results": {m: r.to_dict() for m, r in event.results.items()},
        "closed": sorted([d, n] for d, n in event.closed),
        "plan": None if event.plan is None else plan_to_dict(event.plan),
    }


def event_from_dict(cls: type[Tournament], data: Any) -> Tournament:
    """Inverse of :func:`event_to_dict`; raises :class:`TournamentError` when malformed."""
    try:
        settings = settings_from_dict(data["settings"])
        version = int(data.get("version", 1))
        event = cls(settings, [division_from_dict(d, version) for d in data["divisions"]])
        for e in data["entries"]:
            entry = entry_from_dict(e, version)
            event.entries[entry.id] = entry
        event.pools = {
            d: tuple(Pool(d, i + 1, tuple(p)) for i, p in enumerate(pools))
            for d, pools in data["pools"].items()
        }
        event.brackets = {d: bracket_from_dict(d, b) for d, b in data["brackets"].items()}
        event.results = {m: Result.from_dict(r) for m, r in data["results"].items()}
        event.closed = {(str(d), int(n)) for d, n in data["closed"]}
        event.plan = None if data["plan"] is None else plan_from_dict(data["plan"])
    except (KeyError, TypeError, ValueError) as err:
        if isinstance(err, TournamentError):
            raise
        raise TournamentError(
            "bad_event", f"Not an event: {err!r}", f"大会データとして読めません：{err!r}"
        ) from err
    return event
