"""The PettingZoo game: singles or doubles, one agent per seat, turn by turn (AEC).

Agents ``seat_0`` .. ``seat_{players-1}`` in the order of play (R1c: singles 0 south red,
1 north green; doubles 0 S red, 1 W green, 2 N red, 3 E green). ``agent_selection`` is the
seat to shoot: after a successful shot it stays the same (R3a); otherwise it moves on (R3).
Every agent observes from its own seat (:mod:`hikone_carrom.env.observation`) and acts with the
action of :mod:`hikone_carrom.env.actions`.

There is no parallel version: only the shooter acts, and whether it acts again depends on its
shot's outcome, so simultaneous actions have no meaning here (``is_parallelizable`` False).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from hikone_carrom.ai.noise import BASE_NOISE
from hikone_carrom.board import BoardSpec
from hikone_carrom.env.actions import finite_actions, shot_of
from hikone_carrom.env.observation import Observer, slots
from hikone_carrom.env.render import Renderer, scoreline
from hikone_carrom.env.reward import Reward, pocket_distance
from hikone_carrom.env.single import action_space
from hikone_carrom.env.tables import Tables
from hikone_carrom.match import Match, NoPlacementError
from hikone_carrom.rules import Color, RuleOptions
from hikone_carrom.rules.pieces import PUCKS_PER_COLOR

__all__ = ["CarromAEC", "env", "raw_env"]

Obs = dict[str, np.ndarray] | np.ndarray


class CarromAEC(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """Hikone Carrom for 2 or 4 agents (PettingZoo AEC).

    Args:
        players: 2 (singles) or 4 (doubles).
        noise: every hand as a multiple of the AI evaluation's 1x tier (0 = exact).
        reward: weights (default ``Reward(rival=1.0)``: own pucks net of penalties and debt
            minus the other colour's, +-10 for the win or loss).
        shared_reward: doubles partners share their colour's reward on every shot (default);
            False credits each seat with its own shots only: a partner's shot gives it no pucks
            term (the opponents' shots and the end of the game still count for both).
        shot_cap: the game is truncated after this many shots of all seats (default 1000).
        time_shots: time is called after this many shots (R7b; default 300); ``None`` = untimed.
        options: rule options (default :meth:`RuleOptions.championship` when ``time_shots``
            is set, its clock never read; else untimed). fly_off: disks may fly off.
        observation: "dict" or "flat".
        render_mode: "rgb_array" or "human" (matplotlib). board: the board.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "hikone_carrom_v1",
        "render_modes": ["rgb_array", "human"],
        "render_fps": 2,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        noise: float = 1.0,
        reward: Reward | None = None,
        shared_reward: bool = True,
        shot_cap: int = 1000,
        time_shots: int | None = 300,
        options: RuleOptions | None = None,
        fly_off: bool = True,
        observation: str = "dict",
        render_mode: str | None = None,
        board: BoardSpec | None = None,
    ) -> None:
        super().__init__()
        if players not in (2, 4) or isinstance(players, bool):
            raise ValueError(f"players must be 2 or 4, got {players!r}")
        if observation not in ("dict", "flat"):
            raise ValueError(f'observation must be "dict" or "flat", got {observation!r}')
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f'render_mode must be "rgb_array", "human" or None, got {render_mode!r}'
            )
        for name, value in (("shot_cap", shot_cap), ("time_shots", time_shots)):
            if value is None and name == "time_shots":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if isinstance(noise, bool) or not isinstance(noise, int | float) or not noise >= 0.0:
            raise ValueError(f"noise must be a number >= 0, got {noise!r}")
        if options is None:
            options = RuleOptions.championship() if time_shots is not None else RuleOptions()
        elif time_shots is not None and not options.timed:
            raise ValueError(
                "time_shots needs timed rule options (R7b), e.g. RuleOptions.championship()"
            )
        self.tables = Tables(1, players, options, board, fly_off)
        self.observer = Observer(self.tables, observation == "flat")
        self.noise = BASE_NOISE.scaled(float(noise))
        self.reward = reward or Reward(rival=1.0)
        self.shared_reward = shared_reward
        self.shot_cap = shot_cap
        self.time_shots = time_shots
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{k}" for k in range(players)]
        self._seat = {a: k for k, a in enumerate(self.possible_agents)}
        self._color = {a: self.tables.states[0].color(k) for a, k in self._seat.items()}
        self.observation_spaces = {a: self.observer.space for a in self.possible_agents}
        self.action_spaces = {a: action_space() for a in self.possible_agents}
        self._rng, _ = seeding.np_random(None)
        self._renderer = Renderer(render_mode, self.metadata["render_fps"])

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game (R1a); ``seed`` seeds the match and every hand's noise."""
        if seed is not None or not hasattr(self, "agents"):
            self._rng, _ = seeding.np_random(seed)
        self.tables.reset(0, int(self._rng.integers(1 << 62)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.tables.states[0].shooter]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Obs:
        obs = self.observer.observe([0], [self._seat[agent]], *self._budget_left())
        if isinstance(obs, np.ndarray):
            return np.asarray(obs[0])
        return {k: v[0] for k, v in obs.items()}

    def _budget_left(self) -> tuple[list[float], list[float]]:
        """Shares left of the shot cap and of the shots before time is called (R7b)."""
        t = self.tables
        strikes = 1.0 - t.shots[0] / self.shot_cap
        time = 1.0
        if self.time_shots is not None:
            time = 0.0 if t.states[0].time_called else 1.0 - t.shots[0] / self.time_shots
        return [min(1.0, max(0.0, strikes))], [min(1.0, max(0.0, time))]

    def step(self, action: np.ndarray | None) -> None:
        """The selected seat's shot (``None`` for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is playing: give it an action, not None")
        action = finite_actions(action, 1)[0]
        t = self.tables
        before = t.states[0]
        phi_before = self._potentials()
        self._cumulative_rewards[agent] = 0.0
        try:
            placement = t.placement(0)
        except NoPlacementError:  # nowhere to put the striker (R2b reading "pass")
            ruling = t.pass_turn(0)
        else:
            shot = shot_of(placement, action, t.board)
            (ruling,) = t.play([0], [shot], [self.noise.draw(self._rng)], [placement])
        if self.time_shots is not None:
            state = t.states[0]
            if state.outcome is None and not state.time_called and t.shots[0] >= self.time_shots:
                t.call_time(0)
        if t.states[0].awaiting_lot:  # R7d with deadlock="lot": the lot is drawn
            t.decide_lot(0, Color.RED if self._rng.random() < 0.5 else Color.GREEN)
        after = t.states[0]
        over = after.outcome is not None
        phi_after = self._potentials()
        shooter_color = self._color[agent]
        for a in self.agents:
            color = self._color[a]
            partner = a != agent and color is shooter_color
            pucks = (
                0.0
                if partner and not self.shared_reward
                else self.reward.change(before, after, color)
            )
            strike = self.reward.strike if a == agent else 0.0
            shaping = self.reward.shaping(phi_before[color], phi_after[color], np.array(over))
            self.rewards[a] = pucks + strike + self.reward.terminal(after, color) + float(shaping)
        capped = bool(not over and t.shots[0] >= self.shot_cap)
        for a in self.agents:
            self.terminations[a] = over
            self.truncations[a] = capped
        self.infos[agent] = {
            "reasons": ruling.reasons,
            "penalty": ruling.penalty,
            "passed": ruling.skipped,
        }
        if not over and not capped:
            self.agent_selection = self.possible_agents[after.shooter]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _potentials(self) -> dict[Color, np.ndarray]:
        """Each colour's shaping potential now (:meth:`Reward.potential`; 0 without shaping)."""
        t = self.tables
        out = {}
        for color in Color:
            own = slots(t, color)[1 : 1 + PUCKS_PER_COLOR]
            distance = pocket_distance(t.board, t.x[:1, own], t.y[:1, own], t.present[:1, own])
            out[color] = self.reward.potential(distance)[0]
        return out

    def render(self) -> np.ndarray | None:
        """The board now: a picture ("rgb_array") or a window ("human")."""
        if self.render_mode is None:
            return None
        t = self.tables
        title = scoreline(f"shot {int(t.shots[0])}", t.states[0])
        return self._renderer.draw(t.board, t.players, t.layout(0), title)

    def match(self) -> Match:
        """This game as a :class:`Match` (replayed shot for shot): its record, replay, hints."""
        return self.tables.match(0)

    def close(self) -> None:
        """Close the window of ``render_mode="human"``."""
        self._renderer.close()


raw_env = CarromAEC


def env(**kwargs: Any) -> Any:
    """:class:`CarromAEC` wrapped as PettingZoo recommends (actions in order, checked)."""
    return wrappers.OrderEnforcingWrapper(CarromAEC(**kwargs))
