"""Gymnasium single-agent environments: the solo clear and a match against a built-in player."""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from hikone_carrom.board import BoardSpec
from hikone_carrom.env.actions import finite_actions
from hikone_carrom.env.game import Game, GameConfig
from hikone_carrom.env.render import Renderer, scoreline
from hikone_carrom.env.reward import Reward
from hikone_carrom.match import Match
from hikone_carrom.rules import RuleOptions

__all__ = ["CarromEnv", "MatchEnv", "SoloClearEnv", "action_space"]

Obs = dict[str, np.ndarray] | np.ndarray


def action_space() -> spaces.Box:
    """(place, aim, power) in [-1, 1] (:mod:`hikone_carrom.env.actions`)."""
    return spaces.Box(-1.0, 1.0, (3,), dtype=np.float32)


def _observation_kind(observation: str) -> bool:
    if observation not in ("dict", "flat"):
        raise ValueError(f'observation must be "dict" or "flat", got {observation!r}')
    return observation == "flat"


class CarromEnv(gym.Env[Obs, np.ndarray]):
    """One board of Hikone Carrom for one agent (see :class:`GameConfig` for the arguments).

    Args:
        observation: "dict" (the ``Dict`` of :mod:`hikone_carrom.env.observation`) or "flat"
            (its concatenation as one ``Box``).
        render_mode: "rgb_array" (a 480 x 480 picture of the board) or "human" (a matplotlib
            window); both need the ``draw`` extra.
        board: the board (default :class:`BoardSpec`).

    Each step is one strike of the agent; the lost turns of the empty seat (solo clear) and the
    opponent's shots until the agent's next turn happen inside it. ``info`` holds ``strikes``
    (the agent's so far), ``reasons`` (rule ids of the strike's ruling), ``penalty`` (pucks its
    penalties cost, R5) and ``passed`` (the striker had nowhere to go, R2b reading "pass": the
    turn passed without a shot, R3d).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (an instance attribute in Gymnasium)
        "render_modes": ["rgb_array", "human"],
        "render_fps": 2,
    }

    def __init__(
        self,
        config: GameConfig,
        observation: str = "dict",
        render_mode: str | None = None,
        board: BoardSpec | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f'render_mode must be "rgb_array", "human" or None, got {render_mode!r}'
            )
        self.game = Game(1, config, board, _observation_kind(observation))
        self.render_mode = render_mode
        self.observation_space = self.game.observer.space
        self.action_space = action_space()
        self._renderer = Renderer(render_mode, self.metadata["render_fps"])
        self._started = False

    @property
    def config(self) -> GameConfig:
        """The game played."""
        return self.game.config

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """A new game (R1a); ``seed`` seeds the match, the opponent and the hand's noise.

        ``options={"position": match}`` starts from a :class:`Match`'s position instead (its
        layout and referee state, e.g. ``Match.from_position(...)``): set problems, curricula.
        """
        super().reset(seed=seed)
        position = (options or {}).get("position")
        if position is not None and not isinstance(position, Match):
            raise ValueError('options["position"] must be a hikone_carrom.match.Match')
        self.game.start(0, self.np_random, position)
        self._started = True
        if self.render_mode == "human":
            self.render()
        return self._obs(), {"strikes": 0}

    def step(self, action: np.ndarray) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """One strike of the agent (then everything up to its next turn)."""
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        t = self.game.tables
        if t.is_over(0) or self.game.strikes[0] >= self.config.strike_cap:
            raise gym.error.ResetNeeded("the episode is over: call reset()")
        a = finite_actions(action, 1)
        result = self.game.act([0], a)
        ruling = result.rulings[0]
        info = {
            "strikes": int(self.game.strikes[0]),
            "reasons": ruling.reasons if ruling is not None else (),
            "penalty": ruling.penalty if ruling is not None else 0,
            "passed": ruling is None or ruling.skipped,
        }
        if self.render_mode == "human":
            self.render()
        return (
            self._obs(),
            float(result.reward[0]),
            bool(result.terminated[0]),
            bool(result.truncated[0]),
            info,
        )

    def _obs(self) -> Obs:
        obs = self.game.observe([0])
        if isinstance(obs, np.ndarray):
            return np.asarray(obs[0])
        return {k: v[0] for k, v in obs.items()}

    def render(self) -> np.ndarray | None:
        """The board now: a picture ("rgb_array") or a window ("human")."""
        if self.render_mode is None:
            gym.logger.warn('render() without a render_mode: pass render_mode="rgb_array"')
            return None
        t = self.game.tables
        title = scoreline(f"strike {int(self.game.strikes[0])}", t.states[0])
        return self._renderer.draw(t.board, t.players, t.layout(0), title)

    def match(self) -> Match:
        """This episode as a :class:`Match` (replayed shot for shot): its record, replay, hints."""
        return self.game.tables.match(0)

    def close(self) -> None:
        """Close the window of ``render_mode="human"``."""
        self._renderer.close()


class SoloClearEnv(CarromEnv):
    """``HikoneCarrom/SoloClear-v1``: clear the board alone, as in the AI evaluation (R7a).

    Args:
        noise: the hand as a multiple of the 1x tier (default 1x, as the evaluation).
        reward: reward weights (default :class:`Reward`: 1 a puck net of penalties and debt,
            10 for the win). strike_cap: truncation after this many strikes (default 200).
        options: rule options (e.g. the reading of a covered area line, R2b).
        fly_off: disks may fly off the board (R5c, R5d, R6c). observation, render_mode, board:
            as :class:`CarromEnv`.
    """

    def __init__(
        self,
        noise: float = 1.0,
        reward: Reward | None = None,
        strike_cap: int = 200,
        options: RuleOptions | None = None,
        fly_off: bool = True,
        observation: str = "dict",
        render_mode: str | None = None,
        board: BoardSpec | None = None,
    ) -> None:
        config = GameConfig.solo_clear(noise, reward, strike_cap, options, fly_off)
        super().__init__(config, observation, render_mode, board)


class MatchEnv(CarromEnv):
    """``HikoneCarrom/Match-v1``: singles against a built-in player (R1-R8).

    Args:
        opponent: "random", "aim", "greedy" (default), 1-6 or "level1".."level6", "expert".
        seat: 0 (red, shoots first; default) or 1 (green).
        noise: the agent's hand as a multiple of the 1x tier (the opponent keeps its own).
        reward: default ``Reward(rival=1.0)``: own pucks net minus the opponent's, +-10 for the
            win or loss. strike_cap: truncation after this many agent strikes (default 200).
        time_shots: time is called after this many shots of both (R7b; default 300, as the
            AI evaluation's duels); ``None`` = untimed. options: rule options.
        fly_off, observation, render_mode, board: as :class:`SoloClearEnv`.
    """

    def __init__(
        self,
        opponent: str | int = "greedy",
        seat: int = 0,
        noise: float = 1.0,
        reward: Reward | None = None,
        strike_cap: int = 200,
        time_shots: int | None = 300,
        options: RuleOptions | None = None,
        fly_off: bool = True,
        observation: str = "dict",
        render_mode: str | None = None,
        board: BoardSpec | None = None,
    ) -> None:
        config = GameConfig.match(
            opponent, seat, noise, reward, strike_cap, time_shots, options, fly_off
        )
        super().__init__(config, observation, render_mode, board)
