"""Running a championship: divisions, entries, pools, the board plan, standings and knockout.

Pure Python with no I/O (layer ``tournament``, docs/architecture.md); the server stores and
serves it.
A short tour::

    from hikone_carrom.tournament import Tournament, TournamentSettings, championship_divisions
    event = Tournament(TournamentSettings("第38回カロム日本選手権大会", boards=124),
                       championship_divisions())
    event.add_entry(...)            # Entry(Person(...)), checked against the class (R: eligibility)
    event.draw("GS")                # pools of 6, clubs kept apart, and the bracket of pool places
    event.make_plan()               # who plays where and when, for the whole day
    event.record("GS-A-01", Result.from_scores(112, 7))   # R7a: jack after all pucks
    event.standings("GS", 1)        # match points, point difference (R7b), head-to-head, ...
    event.close_pool("GS", 1)       # its best 3 go into the knockout
"""

from hikone_carrom.tournament.boardplan import (
    BoardPlan,
    Job,
    PlanStats,
    Slot,
    clashes,
    plan_boards,
    replan,
    reslot,
)
from hikone_carrom.tournament.csvimport import ImportReport, RowProblem, parse_entries_csv
from hikone_carrom.tournament.divisions import Division, MemberRule, championship_divisions
from hikone_carrom.tournament.entries import Entry, EntryStatus
from hikone_carrom.tournament.errors import TournamentError
from hikone_carrom.tournament.event import Fixture, Stage, Tournament, TournamentSettings
from hikone_carrom.tournament.knockout import (
    BYE,
    Bracket,
    Feed,
    KnockoutMatch,
    PoolPlace,
    build_bracket,
    meeting_round,
    seeding_order,
)
from hikone_carrom.tournament.people import (
    ADULT,
    PRESCHOOL,
    Person,
    fold_reading,
    parse_school_year,
    read_person,
    school_year_label,
)
from hikone_carrom.tournament.pools import Pool, club_clashes, draw_pools, pool_sizes, round_robin
from hikone_carrom.tournament.results import MAX_SCORE, Result
from hikone_carrom.tournament.standings import (
    DEFAULT_TIEBREAKS,
    Pairing,
    Standing,
    StandingRules,
    TieBreak,
    standings,
)

__all__ = [
    "ADULT",
    "BYE",
    "DEFAULT_TIEBREAKS",
    "MAX_SCORE",
    "PRESCHOOL",
    "BoardPlan",
    "Bracket",
    "Division",
    "Entry",
    "EntryStatus",
    "Feed",
    "Fixture",
    "ImportReport",
    "Job",
    "KnockoutMatch",
    "MemberRule",
    "Pairing",
    "Person",
    "PlanStats",
    "Pool",
    "PoolPlace",
    "Result",
    "RowProblem",
    "Slot",
    "Stage",
    "Standing",
    "StandingRules",
    "TieBreak",
    "Tournament",
    "TournamentError",
    "TournamentSettings",
    "build_bracket",
    "championship_divisions",
    "clashes",
    "club_clashes",
    "draw_pools",
    "fold_reading",
    "meeting_round",
    "parse_entries_csv",
    "parse_school_year",
    "plan_boards",
    "pool_sizes",
    "read_person",
    "replan",
    "reslot",
    "round_robin",
    "school_year_label",
    "seeding_order",
    "standings",
]
