"""A native Gymnasium vector environment: many boards stepped at once, every board's shot of a
step in one physics batch (:func:`~hikone_carrom.physics.simulate_boards`).

Board ``k`` of ``reset(seed=s)`` plays exactly the game of the single environment reset with
seed ``s + k`` (tested), episode after episode. Autoreset follows Gymnasium 1.x's default,
``AutoresetMode.NEXT_STEP``: the step after a board's episode ended resets it (its action is
ignored; reward 0, not terminated, not truncated, the new game's first observation).
``reset(options={"reset_mask": mask})`` resets only the boards of ``mask`` (as
:class:`gymnasium.vector.SyncVectorEnv` does): a learner that resets its boards itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from hikone_carrom.board import BoardSpec
from hikone_carrom.env.actions import finite_actions
from hikone_carrom.env.game import Game, GameConfig
from hikone_carrom.env.render import rgb_array
from hikone_carrom.env.single import action_space

__all__ = ["CarromVectorEnv", "match_vector_env", "solo_vector_env"]

Obs = dict[str, np.ndarray] | np.ndarray


class CarromVectorEnv(VectorEnv[Obs, np.ndarray, np.ndarray]):
    """``num_envs`` boards of one game (:class:`GameConfig`) for a batched agent.

    Args:
        num_envs: the number of boards. config: the game. observation: "dict" or "flat".
        render_mode: "rgb_array" (``render()`` gives one picture per board) or ``None``.
        board: the board.

    ``infos`` holds ``strikes`` (each board's agent strikes so far) and, for the boards whose
    episode ended this step, ``won`` (masked by ``_won``).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (an instance attribute in Gymnasium)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": ["rgb_array"],
    }

    def __init__(
        self,
        num_envs: int,
        config: GameConfig,
        observation: str = "dict",
        render_mode: str | None = None,
        board: BoardSpec | None = None,
    ) -> None:
        if observation not in ("dict", "flat"):
            raise ValueError(f'observation must be "dict" or "flat", got {observation!r}')
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f'render_mode must be "rgb_array" or None, got {render_mode!r}')
        self.game = Game(num_envs, config, board, observation == "flat")
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.single_observation_space = self.game.observer.space
        self.single_action_space = action_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, dtype=bool)
        self._all = list(range(num_envs))
        self._started = False

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Obs, dict[str, Any]]:
        """New games on every board: board k seeded ``seed + k`` (or ``seed[k]``); with
        ``options={"reset_mask": mask}`` (a bool array, one per board) only on the boards of
        ``mask``, an unseeded board drawing on from its own generator."""
        mask = self._reset_mask(options)
        if seed is None:
            seeds: Sequence[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + k for k in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} boards")
        if mask is None:
            if seed is not None:
                self._np_random, self._np_random_seed = seeding.np_random(seeds[0])
            for k, s in enumerate(seeds):
                rng, _ = seeding.np_random(s)
                self.game.start(k, rng)
            self._autoreset[:] = False
            self._started = True
        else:
            if not self._started:
                raise RuntimeError("reset() every board before resetting some of them")
            for k in np.flatnonzero(mask).tolist():
                s = seeds[k]
                rng = self.game.rngs[k] if s is None else seeding.np_random(s)[0]
                self.game.start(k, rng)
            self._autoreset[mask] = False
        return self.game.observe(self._all), {"strikes": self.game.strikes.copy()}

    def _reset_mask(self, options: dict[str, Any] | None) -> np.ndarray | None:
        """The ``reset_mask`` option checked (``None`` when there is none)."""
        if not options or "reset_mask" not in options:
            return None
        mask = options["reset_mask"]
        if (
            not isinstance(mask, np.ndarray)
            or mask.dtype != np.bool_
            or mask.shape != (self.num_envs,)
            or not mask.any()
        ):
            raise ValueError(
                f'options["reset_mask"] must be a bool array of shape ({self.num_envs},) '
                "with at least one True"
            )
        return mask

    def step(
        self, actions: np.ndarray
    ) -> tuple[Obs, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One strike on every playing board; the boards whose episode ended last step reset."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        a = finite_actions(actions, self.num_envs)
        game = self.game
        reward = np.zeros(self.num_envs)
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        restart = np.flatnonzero(self._autoreset)
        playing = np.flatnonzero(~self._autoreset)
        for i in restart:
            game.start(int(i), game.rngs[i])
        if playing.size:
            boards = playing.tolist()
            result = game.act(boards, a[playing])
            reward[playing] = result.reward
            terminated[playing] = result.terminated
            truncated[playing] = result.truncated
        self._autoreset = terminated | truncated
        infos: dict[str, Any] = {"strikes": game.strikes.copy()}
        if self._autoreset.any():
            color, states = game.color, game.tables.states
            won = np.zeros(self.num_envs, dtype=bool)
            for ended in np.flatnonzero(self._autoreset).tolist():
                won[ended] = states[ended].winner is color  # only an ended game has a winner
            infos["won"] = won
            infos["_won"] = self._autoreset.copy()
        return game.observe(self._all), reward, terminated, truncated, infos

    def render(self) -> tuple[np.ndarray, ...] | None:
        """One picture of each board (``render_mode="rgb_array"``)."""
        if self.render_mode is None:
            return None
        t = self.game.tables
        return tuple(
            rgb_array(t.board, t.players, t.layout(i), f"board {i}  strike {self.game.strikes[i]}")
            for i in self._all
        )

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release (no processes, no windows)."""


def solo_vector_env(
    num_envs: int,
    observation: str = "dict",
    render_mode: str | None = None,
    board: BoardSpec | None = None,
    **game: Any,
) -> CarromVectorEnv:
    """``HikoneCarrom/SoloClear-v1`` on ``num_envs`` boards; ``game`` takes the arguments of
    :class:`SoloClearEnv` (:meth:`GameConfig.solo_clear`)."""
    return CarromVectorEnv(num_envs, GameConfig.solo_clear(**game), observation, render_mode, board)


def match_vector_env(
    num_envs: int,
    observation: str = "dict",
    render_mode: str | None = None,
    board: BoardSpec | None = None,
    **game: Any,
) -> CarromVectorEnv:
    """``HikoneCarrom/Match-v1`` on ``num_envs`` boards; ``game`` takes the arguments of
    :class:`MatchEnv` (:meth:`GameConfig.match`)."""
    return CarromVectorEnv(num_envs, GameConfig.match(**game), observation, render_mode, board)
