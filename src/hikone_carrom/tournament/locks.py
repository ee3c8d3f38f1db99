"""What a director may still change in an event: the checks behind each change of an
:class:`~.event.Tournament`, each raising :class:`TournamentError` (the event unchanged) when
refused.

Entries: nobody is entered twice in one division; a late entry joins a pool not begun; an entry
changes division only before both draws; withdrawing, or coming back, stops when its pool closes.
Results: a pool's results can be changed until the pool is closed; a closed pool reopens while no
knockout match it feeds has a result; a knockout result can be corrected until the next match of
its entrants has a result; a knockout match always has a winner (R7c, R7d).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from hikone_carrom.tournament.entries import Entry
from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.fixtures import Fixture
from hikone_carrom.tournament.pools import Pool, pool_label
from hikone_carrom.tournament.results import Result

if TYPE_CHECKING:
    from hikone_carrom.tournament.event import Tournament

__all__ = [
    "check_clear",
    "check_close",
    "check_division_move",
    "check_draw",
    "check_knockout_size",
    "check_new",
    "check_once",
    "check_record",
    "check_reopen",
    "check_rules_change",
    "check_status",
    "late_pool",
    "played_on",
]


def check_new(event: Tournament, entry: Entry) -> None:
    """``entry`` meets its division's member rules, has a fresh id and nobody in it is entered
    in its division already."""
    division = event.division(entry.division)
    division.check_members(entry.members)
    if entry.id in event.entries:
        raise TournamentError(
            "duplicate_entry",
            f"Entry id {entry.id} is taken",
            f"ID {entry.id} は使われています",
        )
    check_once(event, entry)


def check_once(event: Tournament, entry: Entry) -> None:
    """Nobody is entered twice in one division."""
    division = event.division(entry.division)
    for other in event.entries.values():
        if (
            other.id != entry.id
            and other.division == entry.division
            and other.people & entry.people
        ):
            who = next(p.name for p in entry.members if p.key in other.people)
            raise TournamentError(
                "entered_twice",
                f"{who} is already entered in {division.name_en} ({other.id})",
                f"{who}さんはすでに{division.name_ja}にエントリーしています（{other.id}）",
            )


def late_pool(event: Tournament, division_id: str, started: Collection[str]) -> Pool:
    """The pool a late entry of a drawn division joins (see :meth:`Tournament.late_pool`)."""
    division = event.division(division_id)
    begun = set(event.results) | set(started)
    out = event.withdrawn()
    pool_games = event.fixtures.pool_games(division_id)
    open_pools = [
        p
        for p in event.pools[division_id]
        if (division_id, p.number) not in event.closed
        and not any(m.id in begun for m in pool_games.get(p.number, []))
    ]
    if not open_pools:
        raise TournamentError(
            "pools_begun",
            f"Every pool of {division.name_en} has begun; a late entry cannot join one",
            f"{division.name_ja}はすべてのリーグが始まっているため、追加できません",
        )
    pool = min(open_pools, key=lambda p: (sum(e not in out for e in p.entries), p.number))
    if sum(e not in out for e in pool.entries) >= division.pool_size + 1:
        raise TournamentError(
            "pools_full",
            f"Every pool of {division.name_en} that has not begun has "
            f"{division.pool_size + 1} entries; a late entry cannot join one",
            f"{division.name_ja}のまだ始まっていないリーグはどれも{division.pool_size + 1}"
            "組のため、追加できません",
        )
    grows = len(pool.entries) < division.advance
    knockout = {m.id for m in event.fixtures.knockout_games(division_id)}
    if grows and knockout & begun:
        raise TournamentError(
            "knockout_begun",
            f"The knockout of {division.name_en} has begun; its bracket cannot change",
            f"{division.name_ja}は決勝トーナメントが始まっているため、追加できません",
        )
    return pool


def check_division_move(event: Tournament, old: Entry, target: str) -> None:
    """An entry changes division only while neither division is drawn."""
    if target != old.division and (old.division in event.pools or target in event.pools):
        raise TournamentError(
            "drawn",
            "An entry changes division only before both draws: withdraw it and enter it anew",
            "組み合わせ後は部門を変えられません。棄権にして新しくエントリーしてください",
        )


def check_status(event: Tournament, entry: Entry, status: str) -> None:
    """Withdrawing an entry, or taking a withdrawal back, stops when its pool closes."""
    if entry.status == "withdrawn" or status == "withdrawn":
        pool = event.pool_of(entry.id)
        if pool is not None and (entry.division, pool.number) in event.closed:
            raise TournamentError(
                "pool_closed",
                f"Pool {pool.label} is closed; its entries cannot change",
                f"{pool.label}リーグは確定済みのため変更できません",
            )


def check_draw(event: Tournament, division_id: str) -> None:
    """A division is drawn again only while it has no result."""
    division = event.division(division_id)
    if any(
        m.division == division_id for m in event.fixtures.by_id().values() if m.id in event.results
    ):
        raise TournamentError(
            "results_exist",
            f"{division.name_en} has results; the draw cannot change",
            f"{division.name_ja}は結果が入っているため組み直せません",
        )


def check_knockout_size(event: Tournament, division_id: str, started: Collection[str]) -> None:
    """A division's knockout size changes only while none of its knockout matches is called
    (in ``started``) or played."""
    division = event.division(division_id)
    begun = set(started) | set(event.results)
    if any(m.id in begun for m in event.fixtures.knockout_games(division_id)):
        raise TournamentError(
            "knockout_begun",
            f"{division.name_en}'s knockout has begun; its size cannot change",
            f"{division.name_ja}の決勝トーナメントは始まっているため、大きさを変えられません",
        )


def check_rules_change(event: Tournament) -> None:
    """The ranking rules change only while no pool is closed."""
    if event.closed:
        division, number = min(event.closed)
        label = f"{event.division(division).name_en} {pool_label(number)}"
        label_ja = f"{event.division(division).name_ja} {pool_label(number)}"
        raise TournamentError(
            "pool_closed",
            f"Pool {label} is closed; reopen every closed pool to change the ranking rules",
            f"{label_ja}リーグが確定済みです。順位の決め方を変えるには確定を取り消してください",
        )


def check_record(event: Tournament, match: Fixture, result: Result) -> None:
    """``result`` may be recorded for ``match`` (see :meth:`Tournament.record`)."""
    if not match.playable:
        raise TournamentError(
            "not_ready",
            f"Match {match.id} has no two entrants yet",
            f"試合 {match.id} はまだ対戦相手が決まっていません",
        )
    if event.forfeited(match):
        raise TournamentError(
            "forfeited",
            f"Match {match.id} is a forfeit: an entrant withdrew",
            f"試合 {match.id} は棄権による不戦です",
        )
    if match.stage == "pool":
        assert match.pool is not None
        if (match.division, match.pool) in event.closed:
            label = pool_label(match.pool)
            raise TournamentError(
                "pool_closed",
                f"Pool {label} is closed; reopen it before correcting a result",
                f"{label}リーグは確定済みです。結果を直すには確定を取り消してください",
            )
        return
    if result.winner is None:
        raise TournamentError(
            "knockout_draw",
            "A knockout match needs a winner (extra rounds R7c or the lot R7d)",
            "決勝トーナメントは引き分けにできません（延長 R7c または抽選 R7d）",
        )
    old = event.results.get(match.id)
    if old is not None and old.winner != result.winner and played_on(event, match.id):
        raise _played_on_error(match.id)


def check_clear(event: Tournament, match: Fixture) -> None:
    """The result of ``match`` may be removed (the locks of :func:`check_record`)."""
    if match.stage == "pool" and (match.division, match.pool) in event.closed:
        raise TournamentError("pool_closed", "The pool is closed", "このリーグは確定済みです")
    if match.stage == "knockout" and played_on(event, match.id):
        raise _played_on_error(match.id)


def played_on(event: Tournament, match_id: str) -> bool:
    """A knockout match that ``match_id`` feeds has a result."""
    bracket = event.brackets[event.match(match_id).division]
    return any(
        m.id in event.results for m in bracket.matches if any(f.match == match_id for f in m.feeds)
    )


def _played_on_error(match_id: str) -> TournamentError:
    return TournamentError(
        "played_on",
        f"The winner of {match_id} has already played the next match",
        f"{match_id} の勝者はすでに次の試合を終えています",
    )


def check_close(event: Tournament, pool: Pool) -> None:
    """A pool closes once every match has a result (or a forfeit)."""
    if not event.pool_complete(pool.division, pool.number):
        raise TournamentError(
            "pool_open",
            f"Pool {pool.label} still has matches without a result",
            f"{pool.label}リーグにまだ結果のない試合があります",
        )


def check_reopen(event: Tournament, pool: Pool) -> None:
    """A closed pool reopens while no knockout match it feeds has a result."""
    bracket = event.brackets[pool.division]
    fed = {
        m.id
        for m in bracket.matches
        if any(f.place is not None and f.place.fed_by(pool.number) for f in m.feeds)
    }
    if fed & set(event.results):
        raise TournamentError(
            "knockout_started",
            f"Pool {pool.label}'s qualifiers have played in the knockout; it stays closed",
            f"{pool.label}リーグの勝ち上がりが決勝トーナメントを戦ったため、確定を取り消せません",
        )
