"""The games the single-agent environments play on :class:`Tables`: the solo clear and a match
against a built-in player, for one board or many at once.

Solo clear (the AI evaluation's, docs/ai.md): seat 0 (red) alone on the R1a layout; seat 1
passes every turn (R3d), so the green pucks are obstacles only; the game ends when red
pocketed its 12 pucks and then the jack (R7a).

Match: singles against a computer player (``random``, ``aim``, ``greedy`` or a level 1-6, the
players of :mod:`hikone_carrom.ai` with their own hands), the agent at ``seat`` (0 red, first;
1 green); after ``time_shots`` shots time is called and the timed-match rules decide (R7b-R7d),
as in the AI evaluation's duels (championship options, the time counted in shots: no clock is
read).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from hikone_carrom.ai import NoLegalShotError, Player, decision_rng, make_player
from hikone_carrom.ai.noise import BASE_NOISE
from hikone_carrom.ai.player import legal_shot
from hikone_carrom.board import BoardSpec
from hikone_carrom.env.actions import finite_actions, meant_of_many
from hikone_carrom.env.memory import remember
from hikone_carrom.env.observation import Observer, slots
from hikone_carrom.env.reward import Reward, pocket_distance
from hikone_carrom.env.tables import Tables
from hikone_carrom.match import Match, Noise, NoPlacementError, Placement, Shot
from hikone_carrom.rules import Color, RefereeState, RuleOptions, Ruling
from hikone_carrom.rules.pieces import PUCKS_PER_COLOR

__all__ = ["Game", "GameConfig", "Step"]

_SEED_BOUND = 1 << 62


@dataclass(frozen=True)
class GameConfig:
    """What is played and how it is scored.

    Attributes:
        opponent: ``None`` for the solo clear, else a built-in player: "random", "aim",
            "greedy", a level 1-6 (int or "levelN"), "expert".
        seat: the agent's seat in a match (0 red, shoots first; 1 green).
        noise: the agent's hand as a multiple of the AI evaluation's 1x tier (sigma 2 mm on
            placement, 1 degree on angle, 3 % on speed); 0 = exact.
        reward: the reward weights. strike_cap: the episode is truncated after this many of
            the agent's strikes. time_shots: in a match, time is called after this many shots
            (R7b); ``None`` = untimed. options: rule options (default: untimed for the solo
            clear and an untimed match, :meth:`RuleOptions.championship` for a timed one; a
            timed match needs timed options). fly_off: disks may fly off.
    """

    opponent: str | int | None = None
    seat: int = 0
    noise: float = 1.0
    reward: Reward = field(default_factory=Reward)
    strike_cap: int = 200
    time_shots: int | None = 300
    options: RuleOptions | None = None
    fly_off: bool = True

    def __post_init__(self) -> None:
        if self.seat not in (0, 1) or isinstance(self.seat, bool):
            raise ValueError(f"seat must be 0 or 1, got {self.seat!r}")
        if isinstance(self.noise, bool) or not isinstance(self.noise, int | float):
            raise ValueError(f"noise must be a number >= 0, got {self.noise!r}")
        if not self.noise >= 0.0:
            raise ValueError(f"noise must be a number >= 0, got {self.noise!r}")
        for name in ("strike_cap", "time_shots"):
            value = getattr(self, name)
            if value is None and name == "time_shots":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if self.opponent is not None:
            make_player(self.opponent)  # raises UnknownPlayerError for an unknown name
        if self.timed and self.options is not None and not self.options.timed:
            raise ValueError(
                "time_shots needs timed rule options (R7b), e.g. RuleOptions.championship()"
            )

    @classmethod
    def solo_clear(
        cls,
        noise: float = 1.0,
        reward: Reward | None = None,
        strike_cap: int = 200,
        options: RuleOptions | None = None,
        fly_off: bool = True,
    ) -> GameConfig:
        """The solo clear (``HikoneCarrom/SoloClear-v1``); default reward :class:`Reward`."""
        return cls(None, 0, noise, reward or Reward(), strike_cap, None, options, fly_off)

    @classmethod
    def match(
        cls,
        opponent: str | int = "greedy",
        seat: int = 0,
        noise: float = 1.0,
        reward: Reward | None = None,
        strike_cap: int = 200,
        time_shots: int | None = 300,
        options: RuleOptions | None = None,
        fly_off: bool = True,
    ) -> GameConfig:
        """A match against a built-in player (``HikoneCarrom/Match-v1``); default reward
        ``Reward(rival=1.0)``."""
        return cls(
            opponent,
            seat,
            noise,
            reward or Reward(rival=1.0),
            strike_cap,
            time_shots,
            options,
            fly_off,
        )

    @property
    def solo(self) -> bool:
        """True for the solo clear."""
        return self.opponent is None

    @property
    def timed(self) -> bool:
        """True for a match in which time is called after ``time_shots`` shots (R7b)."""
        return not self.solo and self.time_shots is not None

    @property
    def rule_options(self) -> RuleOptions:
        """The rule options played under."""
        if self.options is not None:
            return self.options
        return RuleOptions.championship() if self.timed else RuleOptions()


@dataclass
class Step:
    """What one agent step did on some boards (arrays over those boards)."""

    reward: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    rulings: list[Ruling | None]


class Game:
    """``n`` boards of one game (:class:`GameConfig`), each with its own random generator.

    The agent acts only when it is its turn; everything between its strikes (lost turns of the
    empty seat, the opponent's shots, time calls) happens inside :meth:`act` and :meth:`start`,
    every board's opponent shots of a round in one physics batch.
    """

    def __init__(
        self, n: int, config: GameConfig, board: BoardSpec | None = None, flat: bool = False
    ) -> None:
        self.config = config
        self.tables = Tables(n, 2, config.rule_options, board, config.fly_off)
        self.observer = Observer(self.tables, flat)
        self.noise = BASE_NOISE.scaled(float(config.noise))
        self.color = self.tables.states[0].color(config.seat)
        self.rngs: list[np.random.Generator] = [np.random.default_rng(0) for _ in range(n)]
        self.strikes = np.zeros(n, dtype=np.int64)
        self._before: list[RefereeState] = list(self.tables.states)
        """Each board's state when the agent last acted or started (for the reward)."""
        self._before_sid = list(self.tables.sids)
        self._changes: dict[tuple[int, int], tuple[float | None, float | None]] = {}
        """The reward's terms (:meth:`_change`) by the numbers of the states before and after."""
        self._opponents: list[Player | None] = [None] * n
        self._own = slots(self.tables, self.color)[1 : 1 + PUCKS_PER_COLOR]  # own pucks
        self._phi = np.zeros(n)

    @property
    def n(self) -> int:
        return self.tables.n

    # -- episodes ---------------------------------------------------------------------------

    def start(self, i: int, rng: np.random.Generator, position: Match | None = None) -> None:
        """A new game on board ``i`` drawing from ``rng`` (the match and opponent seeds, then
        the hand's noise), from the R1a opening or from ``position`` (its layout and referee
        state; a singles match); plays until the agent's first turn."""
        self.rngs[i] = rng
        seed = int(rng.integers(_SEED_BOUND))
        if position is None:
            self.tables.reset(i, seed)
        else:
            if position.players != 2 or position.is_over:
                raise ValueError("a start position must be a singles match still being played")
            self.tables.set_position(i, replace_seed(position, seed))
        self.strikes[i] = 0
        if self.config.opponent is not None:
            self._opponents[i] = make_player(self.config.opponent, int(rng.integers(_SEED_BOUND)))
        self._advance([i])
        self._before[i] = self.tables.states[i]
        self._before_sid[i] = self.tables.sids[i]
        self._phi[i] = self._potential([i])[0]

    def act(self, boards: Sequence[int], actions: np.ndarray) -> Step:
        """The agent's strike on each of ``boards`` (``actions[k]`` for board ``boards[k]``),
        then everything up to its next turn or the end. Boards must be playing. NaN or infinite
        actions are refused (:class:`~hikone_carrom.env.actions.ActionError`), nothing changed."""
        actions = finite_actions(actions, len(boards))
        t = self.tables
        rows = np.asarray(boards, dtype=np.int64)
        shooting: list[int] = []
        where: list[int] = []
        placements: list[Placement] = []
        rulings: list[Ruling | None] = [None] * len(boards)
        self.strikes[rows] += 1
        if self.config.timed:
            for i in boards:
                self._call_time(i)
        playing = [(k, i) for k, i in enumerate(boards) if t.states[i].outcome is None]
        found = t.placements([i for _, i in playing])
        for (k, i), placement in zip(playing, found, strict=True):
            if isinstance(placement, NoPlacementError):  # nowhere to go (R2b reading "pass")
                rulings[k] = t.pass_turn(i)
                continue
            shooting.append(i)
            where.append(k)
            placements.append(placement)
        if shooting:
            draws = np.empty((len(shooting), 4))
            rngs = self.rngs
            for i, row in zip(shooting, draws, strict=True):
                rngs[i].standard_normal(out=row)  # as NoiseModel.draw
            hands = self.noise.errors(draws)
            meant = meant_of_many(placements, np.asarray(actions)[where], t.board)
            played = t.play_arrays(shooting, meant, hands, placements, legal=True)
            for k, ruling in zip(where, played, strict=True):
                rulings[k] = ruling
        self._advance(boards)
        n = len(boards)
        reward = np.full(n, self.config.reward.strike)
        terminated = np.zeros(n, dtype=bool)
        r = self.config.reward
        sids, was, changes = t.sids, self._before_sid, self._changes
        for k, i in enumerate(boards):
            if sids[i] == was[i]:
                continue  # counts and outcome as they were: only the strike's own reward
            change = changes.get((was[i], sids[i]))
            if change is None:
                change = self._change(i)
            counts, end = change
            if counts is not None:
                reward[k] += counts
            if end is not None:
                reward[k] += end
                terminated[k] = True
            self._before[i] = t.states[i]
            was[i] = sids[i]
        truncated = ~terminated & (self.strikes[rows] >= self.config.strike_cap)
        if r.approach:
            after = self._potential(boards)
            reward += r.shaping(self._phi[rows], after, terminated)
            self._phi[rows] = after
        return Step(reward, terminated, truncated, rulings)

    def _change(self, i: int) -> tuple[float | None, float | None]:
        """The reward's terms for board ``i``'s move from its state when the agent last acted
        to its state now: the pucks term (``None`` when no count changed) and the end-of-game
        term (``None`` while the game goes on); remembered by the two states' numbers."""
        r, color = self.config.reward, self.color
        before, state = self._before[i], self.tables.states[i]
        counts = None
        if state.pocketed != before.pocketed or state.debt != before.debt:
            counts = r.change(before, state, color)
        end = None if state.outcome is None else r.terminal(state, color)
        return remember(self._changes, (self._before_sid[i], self.tables.sids[i]), (counts, end))

    def _potential(self, boards: Sequence[int]) -> np.ndarray:
        """The shaping potential of ``boards`` now (:meth:`Reward.potential`)."""
        r = self.config.reward
        if not r.approach:
            return np.zeros(len(boards))
        t = self.tables
        rows = np.asarray(boards, dtype=np.int64)[:, None]
        own = self._own[None, :]
        return r.potential(
            pocket_distance(t.board, t.x[rows, own], t.y[rows, own], t.present[rows, own])
        )

    def observe(self, boards: Sequence[int]) -> dict[str, np.ndarray] | np.ndarray:
        """The agent's observation of each of ``boards``."""
        strikes_left, time_left = self.budget_left(boards)
        return self.observer.observe(
            boards, [self.config.seat] * len(boards), strikes_left, time_left
        )

    def budget_left(self, boards: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """Shares left of each board's strike cap and of its shots before time is called
        (R7b: 1 when untimed, 0 once called)."""
        cfg = self.config
        rows = np.asarray(boards, dtype=np.int64)
        strikes = 1.0 - self.strikes[rows] / cfg.strike_cap
        time = np.ones(len(rows))
        if cfg.timed and cfg.time_shots is not None:
            time = 1.0 - self.tables.shots[rows] / cfg.time_shots
            called = [self.tables.states[i].time_called for i in boards]
            time[np.array(called, dtype=bool)] = 0.0
        return np.clip(strikes, 0.0, 1.0), np.clip(time, 0.0, 1.0)

    # -- between the agent's strikes ---------------------------------------------------------

    def _call_time(self, i: int) -> None:
        """R7b after ``time_shots`` shots; R7d by lot when the rules ask for one."""
        t = self.tables
        cfg = self.config
        state = t.states[i]
        if (
            cfg.timed
            and cfg.time_shots is not None
            and state.outcome is None
            and not state.time_called
            and t.shots[i] >= cfg.time_shots
        ):
            t.call_time(i)
        if t.states[i].awaiting_lot:
            t.decide_lot(i, Color.RED if self.rngs[i].random() < 0.5 else Color.GREEN)

    def _advance(self, boards: Sequence[int]) -> None:
        """Play every board until the agent's turn or the end: the empty seat's turns are lost
        (solo clear, R8a); the opponent's shots of all boards go in one batch a round."""
        t = self.tables
        seat, timed, solo = self.config.seat, self.config.timed, self.config.solo
        states = t.states

        def others_turn(boards: list[int]) -> list[int]:
            return [i for i in boards if states[i].outcome is None and states[i].shooter != seat]

        waiting = list(boards)
        while waiting:
            if timed:  # time is called (R7b) and a lot drawn (R7d) only in a timed match
                for i in waiting:
                    self._call_time(i)
            waiting = others_turn(waiting)
            if solo:
                t.pass_turns(waiting)
                waiting = others_turn(waiting)
                continue
            passing: list[int] = []
            shooting: list[int] = []
            shots: list[Shot] = []
            noises: list[Noise] = []
            for i in waiting:
                decided = self._decide(i)
                if decided is None:
                    passing.append(i)
                    continue
                shooting.append(i)
                shots.append(decided[0])
                noises.append(decided[1])
            t.pass_turns(passing)
            if shooting:
                t.play(shooting, shots, noises)
            waiting = others_turn(waiting)

    def _decide(self, i: int) -> tuple[Shot, Noise] | None:
        """The opponent's decision on board ``i``, exactly as :meth:`Player.decide` makes it on
        the same match; ``None`` when it has no legal placement (R2b: the turn passes)."""
        player = self._opponents[i]
        assert player is not None
        t = self.tables
        match = t.position(i)
        index = int(t.actions[i])
        try:
            plan = player.plan(match, decision_rng(player.seed, index, 0))
            shot = legal_shot(match, plan.shot.x, plan.shot.y, plan.shot.angle, plan.shot.speed)
        except NoLegalShotError:
            return None
        return shot, player.noise.draw(decision_rng(player.seed, index, 1))


def replace_seed(match: Match, seed: int) -> Match:
    """``match``'s position as a new match seeded ``seed``."""
    return Match.from_position(
        match.layout, match.referee.state, board=match.board, seed=seed, fly_off=match.fly_off
    )
