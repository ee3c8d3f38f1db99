"""The evaluation protocol (docs/ai.md), after the IIT Bombay CS747 carrom benchmark and the
computational billiards championships, adapted to Hikone rules.

* Solo clear: one player alone on the R1a opening layout (24 pucks and the jack) shoots from seat 0
  (red); the other seat never shoots (each of its turns is passed, R3d). The
  player must pocket its 12 pucks and then the jack under the rules (R7a). Result: strikes taken
  (shots of seat 0), capped at ``cap`` (200); a game not won by then is "not cleared".
* Duel: two players in singles, seat 0 (red, first) alternating between them game by game. The
  match is timed (R7b) with its time counted in shots: after ``max_shots`` shots time is called
  and the game is decided by the timed-match rules (R7b-R7d, a draw after the capped extra
  rounds).
* Every decision is timed (s, wall clock, ``time.perf_counter``).
* Noise tiers: the players' hands are replaced by the tier's multiple of 1x (2 mm, 1.0 degree,
  3 %); the tier "own" keeps each level's own hand (levels differ by noise and search).

Tasks are plain data so that they run the same in this process, in local worker processes or on a
Ray cluster, and their results are JSON lines (resumable results file).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from hikone_carrom.ai.errors import EvaluationError, NoLegalShotError
from hikone_carrom.ai.levels import make_player
from hikone_carrom.ai.noise import tier_scale
from hikone_carrom.ai.player import Player
from hikone_carrom.board import DEFAULT_BOARD, BoardSpec
from hikone_carrom.match import Match
from hikone_carrom.rules import RuleOptions

__all__ = ["OWN_TIER", "DuelTask", "SoloTask", "Task", "run_task", "task_from_dict"]

OWN_TIER = "own"
"""The tier in which every player keeps its own hand (a level's noise; baselines 1x)."""

_TIME_DIGITS = 5


@dataclass(frozen=True)
class SoloTask:
    """Solo clear of ``player`` at noise ``tier`` on game ``seed`` (strikes capped at ``cap``)."""

    player: str
    tier: str
    seed: int
    cap: int = 200

    @property
    def key(self) -> str:
        """Unique name of the task in a results file."""
        return f"solo/{self.player}/{self.tier}/cap{self.cap}/{self.seed}"


@dataclass(frozen=True)
class DuelTask:
    """Duel ``a`` vs ``b`` at noise ``tier`` on game ``seed``; ``a`` is red (seat 0, first) when
    ``seed`` is even, so seats alternate over consecutive seeds. Time is called after
    ``max_shots`` shots (R7b)."""

    a: str
    b: str
    tier: str
    seed: int
    max_shots: int = 300

    @property
    def key(self) -> str:
        """Unique name of the task in a results file."""
        return f"duel/{self.a}/{self.b}/{self.tier}/max{self.max_shots}/{self.seed}"


Task = SoloTask | DuelTask


def task_from_dict(data: Any) -> Task:
    """Rebuild a task from ``asdict`` output plus ``kind``; raises EvaluationError if malformed."""
    try:
        kind = data["kind"]
        fields = {k: v for k, v in data.items() if k != "kind"}
        if kind == "solo":
            return SoloTask(**fields)
        if kind == "duel":
            return DuelTask(**fields)
    except (KeyError, TypeError) as err:
        raise EvaluationError(f"not a task: {data!r}", f"タスクとして読めません: {data!r}") from err
    raise EvaluationError(f"unknown task kind in {data!r}", f"不明なタスクの種類: {data!r}")


def task_to_dict(task: Task) -> dict[str, Any]:
    """Plain JSON of a task."""
    return {"kind": "solo" if isinstance(task, SoloTask) else "duel", **asdict(task)}


def _player(name: str, seed: int, tier: str, solo: bool = False) -> Player:
    level: str | int = int(name) if name.isdigit() else name
    scale = None if tier == OWN_TIER else tier_scale(tier)
    return make_player(level, seed=seed, noise_scale=scale, solo=solo)


def _shoot(match: Match, player: Player, times: list[float]) -> bool:
    """One decision and shot; False if the player had no legal placement (turn passed, R2b)."""
    start = time.perf_counter()
    try:
        decision = player.decide(match)
    except NoLegalShotError:
        times.append(round(time.perf_counter() - start, _TIME_DIGITS))
        match.pass_turn()
        return False
    times.append(round(time.perf_counter() - start, _TIME_DIGITS))
    match.play(decision.shot, decision.noise)
    return True


def run_solo(task: SoloTask, board: BoardSpec = DEFAULT_BOARD) -> dict[str, Any]:
    """Play a solo clear on ``board``; the result as plain JSON: strikes, cleared, penalties,
    decision times, and for each strike the own pucks still to pocket before it (``togo``: pucks
    on the board plus debt, R5i; 0 = the jack, R6b) and whether it kept the turn or won
    (``kept``, R3a, R7a)."""
    match = Match(players=2, board=board, seed=task.seed)
    player = _player(task.player, task.seed, task.tier, solo=True)
    red = match.color(0)
    times: list[float] = []
    togo: list[int] = []
    kept: list[int] = []
    strikes = penalties = 0
    while not match.is_over and strikes < task.cap:
        if match.shooter != 0:
            match.pass_turn()
            continue
        state = match.referee.state
        togo.append(state.pucks_on_board(red) + state.debt_of(red))
        before = len(match.actions)
        _shoot(match, player, times)
        strikes += 1
        action = match.actions[before]
        ruling = action.play.ruling if action.play is not None else action.ruling
        won = match.outcome is not None and match.outcome.winner is red
        kept.append(int(won or (ruling is not None and ruling.continues)))
        if ruling is not None and ruling.penalty:
            penalties += 1
    cleared = match.outcome is not None and match.outcome.winner is red
    return {
        "strikes": strikes,
        "cleared": cleared,
        "penalties": penalties,
        "times": times,
        "togo": togo,
        "kept": kept,
    }


def run_duel(task: DuelTask, board: BoardSpec = DEFAULT_BOARD) -> dict[str, Any]:
    """Play a duel on ``board``; the result as plain JSON (winner "a" | "b" | "draw", shots,
    scores, times)."""
    # Timed (R7b), the time counted in shots: the clock itself is never read.
    match = Match(players=2, options=RuleOptions.championship(), board=board, seed=task.seed)
    a_seat = task.seed % 2
    players = {
        a_seat: _player(task.a, 2 * task.seed, task.tier),
        1 - a_seat: _player(task.b, 2 * task.seed + 1, task.tier),
    }
    times: dict[int, list[float]] = {0: [], 1: []}
    shots = 0
    while not match.is_over:
        if shots == task.max_shots and not match.referee.time_called:
            match.call_time()
            continue
        seat = match.shooter
        _shoot(match, players[seat], times[seat])
        shots += 1
        if shots > 4 * task.max_shots + 1000:
            raise EvaluationError(
                f"duel {task.key} did not end", f"対戦 {task.key} が終わりませんでした"
            )
    outcome = match.outcome
    assert outcome is not None
    if outcome.winner is None:
        winner = "draw"
    else:
        red_won = outcome.winner.value == "red"
        winner = "a" if red_won == (a_seat == 0) else "b"
    return {
        "winner": winner,
        "a_seat": a_seat,
        "reason": outcome.reason,
        "scores": list(outcome.scores),
        "shots": shots,
        "times_a": times[a_seat],
        "times_b": times[1 - a_seat],
    }


def run_task(task: Task, board: BoardSpec = DEFAULT_BOARD) -> dict[str, Any]:
    """Run one task on ``board`` (the evaluation's is the default board); a JSON-ready line for
    the results file (with the task and its key)."""
    result = run_solo(task, board) if isinstance(task, SoloTask) else run_duel(task, board)
    return {"key": task.key, "task": task_to_dict(task), "result": result}
