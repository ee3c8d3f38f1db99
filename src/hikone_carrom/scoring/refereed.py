"""A refereed match: what the table referee entered, shot by shot, and what the rules make of it.

Every entry goes through the same referee as the digital game (:mod:`hikone_carrom.rules`): its
pure transitions judge each entry, so a refereed match and a physics match told the same counts
give the same rulings. The match keeps its entries, not states: undo drops the last entries and
a correction replaces one entry and recomputes everything after it; a change that would make a
later entry impossible is refused, naming that entry, and changes nothing.

JavaScript twin: the pad's offline match (``web/js/pad/match.js``, on ``referee.js``) judges the
entries the same way, so the pad rules at once without the server; the server re-judges every
entry here and is the authority. tests/js/pad_referee_parity.test.mjs (random set-ups, entries
and a correction) and tests/e2e/test_pad_parity.py (in Chromium) check both show the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from hikone_carrom.rules import (
    ClockError,
    Color,
    GameOverError,
    Outcome,
    Referee,
    RefereeState,
    RulesError,
    Ruling,
    UntimedMatchError,
    explain,
    explain_outcome,
    transitions,
)
from hikone_carrom.rules.messages import Lang, sentence
from hikone_carrom.scoring.clock import PadClock
from hikone_carrom.scoring.errors import ConfirmedError, CorrectionError, EntryError
from hikone_carrom.scoring.setup import MatchSetup
from hikone_carrom.scoring.tap import Tap

__all__ = ["EntryKind", "JudgedLine", "RefereedMatch", "SheetLine", "replay_entries"]


class EntryKind(StrEnum):
    """What an entry says happened."""

    SHOT = "shot"  # a shot, with what was tapped
    SKIP = "skip"  # R8a: the 10 seconds passed, the shot is lost
    CALL_TIME = "call_time"  # R7b: time is called
    LOT = "lot"  # R7d: the rock-paper-scissors result after a deadlock


@dataclass(frozen=True)
class SheetLine:
    """One line of the referee's sheet.

    Attributes:
        kind: shot, lost shot (R8a), time called (R7b) or rock-paper-scissors result (R7d).
        tap: what was tapped (shots only).
        winner: the colour that won rock-paper-scissors (lot only).
        at: match time used when it was entered, s (``None`` untimed or before the clock).
    """

    kind: EntryKind
    tap: Tap | None = None
    winner: Color | None = None
    at: float | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", EntryKind(self.kind))
        except ValueError as err:
            raise EntryError(
                f"unknown entry kind {self.kind!r}", f"不明な入力の種類 {self.kind!r}"
            ) from err
        if (self.kind is EntryKind.SHOT) != isinstance(self.tap, Tap):
            raise EntryError(
                "a shot entry needs what was tapped, and only a shot has it",
                "ショットの入力にはタップの内容が必要です（ショット以外には不要です）",
            )
        if (self.kind is EntryKind.LOT) != isinstance(self.winner, Color):
            raise EntryError(
                "a rock-paper-scissors entry names the winning colour, and only it does (R7d)",
                "じゃんけんの入力には勝った色が必要です（R7d）",
            )
        at = self.at
        if at is not None and (
            isinstance(at, bool) or not isinstance(at, int | float) or not 0 <= at < 1e6
        ):
            raise EntryError(
                f"the entry's match time must be seconds >= 0, not {at!r}",
                f"入力の試合時間は0秒以上で指定してください（{at!r} は不可）",
            )

    @classmethod
    def shot(cls, tap: Tap | None = None, at: float | None = None) -> SheetLine:
        """A shot; ``Tap()`` (the default) is "no pocket"."""
        return cls(EntryKind.SHOT, tap=Tap() if tap is None else tap, at=at)

    @classmethod
    def skip(cls, at: float | None = None) -> SheetLine:
        """R8a: a lost shot."""
        return cls(EntryKind.SKIP, at=at)

    @classmethod
    def call_time(cls, at: float | None = None) -> SheetLine:
        """R7b: time is called."""
        return cls(EntryKind.CALL_TIME, at=at)

    @classmethod
    def lot(cls, winner: Color, at: float | None = None) -> SheetLine:
        """R7d: ``winner`` won rock-paper-scissors."""
        return cls(EntryKind.LOT, winner=winner, at=at)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict."""
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.tap is not None:
            out["tap"] = self.tap.to_dict()
        if self.winner is not None:
            out["winner"] = self.winner.value
        out["at"] = self.at
        return out

    @classmethod
    def from_dict(cls, data: Any) -> SheetLine:
        """Rebuild from :meth:`to_dict` output; a malformed dict raises :class:`EntryError`."""
        if not isinstance(data, dict) or "kind" not in data:
            raise EntryError("an entry must be an object with a kind", "入力には種類が必要です")
        unknown = sorted(str(k) for k in set(data) - {"kind", "tap", "winner", "at"})
        if unknown:
            raise EntryError(
                f"unknown entry fields: {', '.join(unknown)}",
                f"不明な入力の項目: {', '.join(unknown)}",
            )
        tap = None if data.get("tap") is None else Tap.from_dict(data["tap"])
        winner = None
        if data.get("winner") is not None:
            try:
                winner = Color(data["winner"])
            except ValueError as err:
                raise EntryError(
                    f"the winner must be red or green, not {data['winner']!r}",
                    f"勝った色は赤か緑です（{data['winner']!r} は不可）",
                ) from err
        return cls(data["kind"], tap=tap, winner=winner, at=data.get("at"))


@dataclass(frozen=True)
class JudgedLine:
    """One judged line of the sheet.

    Attributes:
        n: 1-based number of the entry. entry: what was entered.
        seat: the seat that shot or lost its shot; for a time call or lot, the seat on turn.
        ruling: the referee's ruling (shots and lost shots), else ``None``.
        before, after: the referee's state around the entry.
    """

    n: int
    entry: SheetLine
    seat: int
    ruling: Ruling | None
    before: RefereeState
    after: RefereeState

    def explain(self, lang: Lang = "en") -> tuple[str, ...]:
        """The ruling in sentences, each ending with its rule id (rules.messages)."""
        if self.ruling is not None:
            return explain(self.ruling, lang)
        if self.entry.kind is EntryKind.CALL_TIME:
            return (sentence(lang, "time_called", last=self.before.last_seat),)
        assert self.after.outcome is not None
        return (explain_outcome(self.after.outcome, lang),)


def _judge(state: RefereeState, entry: SheetLine, n: int) -> JudgedLine:
    """Judge one entry in ``state`` (pure); raises RulesError and changes nothing."""
    ruling: Ruling | None = None
    seat = state.shooter
    if entry.kind is EntryKind.SHOT:
        assert entry.tap is not None
        after, ruling = transitions.apply(state, entry.tap.report())
        seat = ruling.seat
    elif entry.kind is EntryKind.SKIP:
        _require_timed(state, "R8a")
        _require_final_phase(state, entry.at)
        after, ruling = transitions.skip_turn(state)
    elif entry.kind is EntryKind.CALL_TIME:
        _require_timed(state, "R7b")
        after = transitions.call_time(state)
    else:
        assert entry.winner is not None
        after = transitions.decide_lot(state, entry.winner)
    return JudgedLine(n, entry, seat, ruling, state, after)


def _require_timed(state: RefereeState, rule: str) -> None:
    if state.outcome is not None:
        transitions.call_time(state)  # raises GameOverError with its own message
    if not state.options.timed:
        raise UntimedMatchError(
            f"this match is untimed: no time call and no 10-second rule ({rule})",
            f"この試合は時間制限なしです。試合時間の終了も10秒ルールもありません（{rule}）",
        )


def _require_final_phase(state: RefereeState, at: float | None) -> None:
    """A shot is lost to the 10-second rule only in the last minute (R8a: 「ゲーム終了1分前から」)
    or while the round after time is finished; ``at`` None (no clock ran) is taken as it comes."""
    limit = state.options.match_time_s
    assert limit is not None
    if at is not None and not state.time_called and at < limit - state.options.final_phase_s:
        raise ClockError(
            "the 10-second rule applies only in the last minute (R8a)",
            "10秒ルールは残り1分からです（R8a）",
        )


def replay_entries(setup: MatchSetup, entries: Sequence[SheetLine]) -> list[JudgedLine]:
    """Judge ``entries`` from the start of ``setup``'s match.

    Raises:
        CorrectionError: entry ``err.entry`` is not possible where it stands (its reason in
            English and Japanese).
    """
    state = RefereeState.initial(setup.players, setup.options)
    steps: list[JudgedLine] = []
    for n, entry in enumerate(entries, start=1):
        try:
            step = _judge(state, entry, n)
        except RulesError as err:
            raise CorrectionError(
                f"entry {n} would no longer be possible: {err.en}",
                f"{n}番目の入力が成り立たなくなります：{err.ja}",
                entry=n,
            ) from err
        steps.append(step)
        state = step.after
    return steps


class RefereedMatch:
    """A match on a real board, scored by its table referee.

    Args:
        setup: players, colours and order, match time, the R7d choice.
        now: time source (s, monotonic) of the clock of a timed match.

    Bad entries raise a :class:`~hikone_carrom.rules.RulesError` (English and Japanese) and
    change nothing.
    """

    def __init__(self, setup: MatchSetup, *, now: Callable[[], float] = time.monotonic) -> None:
        if not isinstance(setup, MatchSetup):
            raise EntryError(
                "a refereed match needs a MatchSetup", "試合設定（MatchSetup）が必要です"
            )
        self.setup = setup
        self.clock = PadClock(setup.options, now) if setup.timed else None
        self._steps: list[JudgedLine] = []
        self._start = RefereeState.initial(setup.players, setup.options)
        self.confirmed = False

    # -- what the pad shows -------------------------------------------------------------------

    @property
    def players(self) -> int:
        """2 (singles) or 4 (doubles)."""
        return self.setup.players

    @property
    def steps(self) -> tuple[JudgedLine, ...]:
        """Every judged entry, in order."""
        return tuple(self._steps)

    @property
    def entries(self) -> tuple[SheetLine, ...]:
        """Every entry, in order."""
        return tuple(s.entry for s in self._steps)

    @property
    def state(self) -> RefereeState:
        """The referee's state now (counts, debt, turn, time, outcome)."""
        return self._steps[-1].after if self._steps else self._start

    @property
    def referee(self) -> Referee:
        """A referee at the current state (read it; change the match only through entries)."""
        return Referee.from_state(self.state)

    @property
    def shooter(self) -> int:
        """The seat to shoot now (R1c, R3)."""
        return self.state.shooter

    @property
    def is_over(self) -> bool:
        """True once the match has a result (R7)."""
        return self.state.is_over

    @property
    def outcome(self) -> Outcome | None:
        """How the match ended, ``None`` while it goes on."""
        return self.state.outcome

    def scores(self) -> dict[Color, int]:
        """Score now as R7b counts it: 100 x jack + pucks pocketed - debt."""
        return self.state.scores()

    # -- entries ------------------------------------------------------------------------------

    def add(self, entry: SheetLine) -> JudgedLine:
        """Judge and keep one entry; a timed match stamps it with the match time."""
        self._check_open()
        if not isinstance(entry, SheetLine):
            raise EntryError("add() takes a SheetLine", "add() には SheetLine を渡します")
        if entry.at is None and self.clock is not None and self.clock.started:
            entry = SheetLine(entry.kind, entry.tap, entry.winner, round(self.clock.elapsed(), 3))
        step = _judge(self.state, entry, len(self._steps) + 1)
        self._steps.append(step)
        if self.clock is not None and entry.kind is not EntryKind.CALL_TIME:
            self.clock.stop_countdown()  # a time call leaves the turn, and its 10 s, as they are
        return step

    def shot(self, tap: Tap | None = None) -> Ruling:
        """A shot with what was tapped (default: no pocket); returns the ruling."""
        ruling = self.add(SheetLine.shot(tap)).ruling
        assert ruling is not None
        return ruling

    def skip_turn(self) -> Ruling:
        """R8a: the shooter's 10 seconds passed; the shot is lost and the turn passes."""
        ruling = self.add(SheetLine.skip()).ruling
        assert ruling is not None
        return ruling

    def call_time(self) -> None:
        """R7b: time is up; play goes on until the last seat in the order has had its turn."""
        self.add(SheetLine.call_time())

    def decide_lot(self, winner: Color) -> Outcome:
        """R7d with ``deadlock="lot"``: the colour that won rock-paper-scissors wins."""
        self.add(SheetLine.lot(winner))
        assert self.outcome is not None
        return self.outcome

    def undo(self, count: int = 1) -> tuple[SheetLine, ...]:
        """Drop the last ``count`` entries (a mis-tap); returns them, oldest first."""
        self._check_open()
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise CorrectionError(
                f"undo takes a number of entries >= 1, not {count!r}",
                f"取り消す入力の数は1以上です（{count!r} は不可）",
            )
        if count > len(self._steps):
            raise CorrectionError(
                f"only {len(self._steps)} entries to undo",
                f"取り消せる入力は{len(self._steps)}件だけです",
            )
        dropped = self._steps[-count:]
        del self._steps[-count:]
        return tuple(s.entry for s in dropped)

    def correct(self, n: int, entry: SheetLine) -> tuple[JudgedLine, ...]:
        """Replace entry ``n`` (1-based) and recompute everything after it.

        Raises:
            CorrectionError: ``n`` is not an entry, or an entry from ``n`` on would no longer be
                possible (named in the error); nothing changed.
        """
        self._check_open()
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(self._steps):
            raise CorrectionError(
                f"there is no entry {n!r} to correct (1..{len(self._steps)})",
                f"訂正する{n!r}番目の入力はありません（1〜{len(self._steps)}）",
            )
        if not isinstance(entry, SheetLine):
            raise EntryError("correct() takes a SheetLine", "correct() には SheetLine を渡します")
        if entry.at is None:
            old = self._steps[n - 1].entry
            entry = SheetLine(entry.kind, entry.tap, entry.winner, old.at)
        entries = [*self.entries[: n - 1], entry, *self.entries[n:]]
        self._steps = replay_entries(self.setup, entries)
        return tuple(self._steps[n - 1 :])

    def confirm(self) -> Outcome:
        """Both sides (or the referee) confirm the result: the match can no longer change."""
        if self.outcome is None:
            raise GameOverError(
                "the match is not over: there is no result to confirm yet",
                "試合はまだ終わっていません。確定する結果がありません",
            )
        self.confirmed = True
        return self.outcome

    def tick(self) -> list[JudgedLine]:
        """Apply the clock: call time when it has run out (R7b) and enter a lost shot when the
        10-second countdown has run out (R8a), both if both happened since the last tick, in the
        order they happened, each at the match time it happened. Returns the steps added."""
        if self.clock is None or self.confirmed:
            return []
        done: list[JudgedLine] = []
        for at, kind in self._due():
            if self.is_over or self.state.awaiting_lot:
                break
            done.append(self.add(SheetLine(kind, at=round(at, 3))))
        return done

    def _due(self) -> list[tuple[float, EntryKind]]:
        """What the clock has brought about, by match time (s): the lost shot first on a tie."""
        assert self.clock is not None
        due: list[tuple[float, EntryKind]] = []
        deadline = self.clock.countdown_deadline()
        if deadline is not None and self.clock.countdown_expired:
            due.append((deadline, EntryKind.SKIP))
        if self.clock.time_up and not self.state.time_called:
            due.append((self.clock.limit_s, EntryKind.CALL_TIME))
        return sorted(due, key=lambda d: d[0])

    def _check_open(self) -> None:
        if self.confirmed:
            raise ConfirmedError(
                "the result has been confirmed: the match can no longer change",
                "結果は確定済みです。試合の内容はもう変えられません",
            )

    def copy(self, *, now: Callable[[], float] = time.monotonic) -> RefereedMatch:
        """The same entries and confirmation, to change apart from this match, without judging
        anything again (judged entries are immutable: they are shared). The clock is not
        copied: the copy's is a new one on ``now``, not started (the server's copies, whose
        entries carry their match time)."""
        twin = RefereedMatch(self.setup, now=now)
        twin._steps = list(self._steps)
        twin.confirmed = self.confirmed
        return twin

    # -- serialisation ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Set-up, entries and confirmation as plain JSON (the rulings are recomputed on load)."""
        return {
            "setup": self.setup.to_dict(),
            "entries": [e.to_dict() for e in self.entries],
            "confirmed": self.confirmed,
        }

    @classmethod
    def from_dict(cls, data: Any, *, now: Callable[[], float] = time.monotonic) -> RefereedMatch:
        """Rebuild from :meth:`to_dict` output by judging every entry again."""
        if not isinstance(data, dict):
            raise EntryError("a refereed match must be an object", "試合はオブジェクトが必要です")
        match = cls(MatchSetup.from_dict(data.get("setup")), now=now)
        raw = data.get("entries", [])
        if not isinstance(raw, list):
            raise EntryError("entries must be a list", "入力は並びで指定してください")
        match._steps = replay_entries(match.setup, [SheetLine.from_dict(e) for e in raw])
        if data.get("confirmed"):
            match.confirm()
        return match
