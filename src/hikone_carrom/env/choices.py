"""The shot-choice action: a masked discrete choice among shots set relative to the pieces.

The raw action (place, aim, power) asks a policy for the angle of a pot to about a degree; here
it chooses among :data:`CHOICES` shots found geometrically in the position, each turned into the
raw action of the same environment (:func:`~hikone_carrom.env.actions.action_of`), so the rules,
the physics and the hand are the environment's own:

============ ======== ================================================================
slots        count    shot
============ ======== ================================================================
0-51         52       pot of target t into pocket p at slot ``4 t + p``: target 0 the jack,
                      1-12 the own pucks by number, pockets in the board's order; the
                      greedy player's direct pot (:mod:`hikone_carrom.ai.candidates`: clear
                      paths, the straightest of 5 placements, the target reaching the pocket
                      at 0.6 m/s)
52-64        13       bank of target t at slot ``52 + t``: the striker or the target off a
                      rail into a pocket (the first the candidates find; only with
                      ``banks=True``)
65-77        13       hit of target t at slot ``65 + t``: 3 m/s straight at its centre from
                      the free point of the area line nearest it
78           1        break: 4 m/s from the middle of the free line at the jack spot (R1a)
============ ======== ================================================================

Targets follow the rules (R5b, R6b: the jack only once the own pucks are down; stacked pieces
never). A choice that does not exist in the position is masked; when the striker has nowhere to
go (R2b reading "pass") only the break is open and the turn passes (R3d).

Observation: a ``Dict`` of one-dimensional arrays, as PettingZoo's and SB3-contrib's masked
agents expect: ``observation`` (the environment's flat observation, 143 float32),
``choices`` (:data:`FEATURES` float32 per slot: exists, cosine of the cut for a pot or of the
turn from straight ahead otherwise, striker-to-target distance m, target-to-pocket distance m,
speed m/s) and ``action_mask`` (int8, 1 where the choice exists). :meth:`ShotChoiceEnv.action_masks`
gives the same mask as booleans (``MaskablePPO``). A masked-out choice is refused with
:class:`~hikone_carrom.env.actions.ActionError` and nothing changes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from hikone_carrom.ai.candidates import CandidateBudget, ShotKind, generate
from hikone_carrom.ai.geometry import line_points, pocket_aims
from hikone_carrom.ai.view import TableView, color_prefix
from hikone_carrom.board import BoardSpec
from hikone_carrom.env.actions import ActionError, action_of
from hikone_carrom.env.game import GameConfig
from hikone_carrom.env.observation import observation_space
from hikone_carrom.env.reward import Reward
from hikone_carrom.env.single import CarromEnv
from hikone_carrom.env.tables import Tables
from hikone_carrom.env.vector import CarromVectorEnv
from hikone_carrom.match import Match, Shot
from hikone_carrom.match.pieces import JACK_ID
from hikone_carrom.rules import RuleOptions

__all__ = [
    "BANKS",
    "BREAK",
    "CHOICES",
    "FEATURES",
    "HITS",
    "POCKETS",
    "TARGETS",
    "MatchChoiceEnv",
    "ShotChoiceEnv",
    "ShotChoiceVectorEnv",
    "ShotChoices",
    "SoloClearChoiceEnv",
    "choice_space",
    "match_choice_vector_env",
    "solo_choice_vector_env",
]

TARGETS = 13
"""Target slots: 0 the jack, 1-12 the own pucks by number."""
POCKETS = 4
BANKS = POCKETS * TARGETS
"""First bank slot (after the pots)."""
HITS = BANKS + TARGETS
"""First hit slot."""
BREAK = HITS + TARGETS
"""The break's slot."""
CHOICES = BREAK + 1
FEATURES = 5
"""Per choice: exists, cosine, striker-to-target m, target-to-pocket m, speed m/s."""
POT_BUDGET = CandidateBudget(placements=5, arrivals=(0.6,))
"""The greedy player's direct pots (docs/ai.md)."""
BANK_BUDGET = CandidateBudget(placements=5, arrivals=(0.6,), banks=True)
HIT_SPEED = 3.0
"""m/s."""
BREAK_SPEED = 4.0
"""m/s."""
_SPOTS = 9
"""Free points of the area line a hit starts from (the nearest to its target)."""


@dataclass
class ShotChoices:
    """The choices of one position: a shot per existing choice, the features and the mask."""

    shots: list[Shot | None]
    features: np.ndarray
    mask: np.ndarray

    @classmethod
    def of(cls, tables: Tables, i: int, banks: bool = False) -> ShotChoices:
        """The choices of the shooter of board ``i`` (banks too with ``banks``)."""
        state = tables.states[i]
        view = TableView.build(tables.board, tables.players, state.shooter, state, tables.layout(i))
        shots: list[Shot | None] = [None] * CHOICES
        features = np.zeros((CHOICES, FEATURES), dtype=np.float32)
        prefix = color_prefix(view.color)
        slot_of = {JACK_ID: 0, **{f"{prefix}{k}": k + 1 for k in range(TARGETS - 1)}}
        pockets = pocket_aims(tables.board)
        spots = line_points(view.placement, _SPOTS)
        forward = math.atan2(-view.placement.point[1], -view.placement.point[0])
        for c in generate(view, BANK_BUDGET if banks else POT_BUDGET):
            if c.target is None or c.pocket is None or c.target not in slot_of:
                continue
            if c.kind is ShotKind.BANK:
                s = BANKS + slot_of[c.target]
            elif c.kind in (ShotKind.DIRECT, ShotKind.JACK):
                s = slot_of[c.target] * POCKETS + c.pocket
            else:
                continue
            if shots[s] is not None:
                continue
            t = view.index(c.target)
            tx, ty = float(view.x[t]), float(view.y[t])
            px, py = pockets[c.pocket]
            along = math.hypot(px - tx, py - ty)
            if s < BANKS:
                cos = (math.cos(c.angle) * (px - tx) + math.sin(c.angle) * (py - ty)) / along
            else:
                cos = math.cos(c.angle - forward)
            shots[s] = Shot(c.x, c.y, c.angle, c.speed)
            features[s] = (1.0, cos, math.hypot(tx - c.x, ty - c.y), along, c.speed)
        if spots:
            for t in view.targets():
                tx, ty = float(view.x[t]), float(view.y[t])
                sx, sy = min(spots, key=lambda p: math.hypot(tx - p[0], ty - p[1]))
                angle = math.atan2(ty - sy, tx - sx)
                s = HITS + slot_of[view.ids[t]]
                shots[s] = Shot(sx, sy, angle, HIT_SPEED)
                cos = math.cos(angle - forward)
                features[s] = (1.0, cos, math.hypot(tx - sx, ty - sy), 0.0, HIT_SPEED)
            sx, sy = spots[len(spots) // 2]
            shots[BREAK] = Shot(sx, sy, math.atan2(-sy, -sx), BREAK_SPEED)
            features[BREAK] = (1.0, 1.0, math.hypot(sx, sy), 0.0, BREAK_SPEED)
        mask = features[:, 0] > 0.0
        if not mask.any():  # no placement left for the striker: the turn passes (R2b, R3d)
            mask[BREAK] = True
        return cls(shots, features, mask)

    def action(self, tables: Tables, i: int, choice: int) -> np.ndarray:
        """The raw action of ``choice`` on board ``i``; a choice out of range or masked out is
        refused with :class:`ActionError`."""
        shot = self.shots[self.check(choice)]
        if shot is None:  # nowhere to place the striker: any action passes the turn
            return np.zeros(3, dtype=np.float32)
        return action_of(tables.placement(i), shot, tables.board)

    def check(self, choice: Any) -> int:
        """``choice`` as a slot, refused with :class:`ActionError` when it is no integer in
        [0, CHOICES) or is masked out in this position."""
        value = np.asarray(choice)
        if value.size != 1 or not np.issubdtype(value.dtype, np.integer):
            raise ActionError(f"a choice is one integer in [0, {CHOICES}), got {choice!r}")
        slot = int(value.reshape(()))
        if not 0 <= slot < CHOICES:
            raise ActionError(f"a choice is one integer in [0, {CHOICES}), got {slot}")
        if not self.mask[slot]:
            open_ = np.flatnonzero(self.mask).tolist()
            raise ActionError(
                f"choice {slot} does not exist in this position (masked out); open: {open_}"
            )
        return slot

    def observation(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """The choice environment's observation of the flat observation ``flat``."""
        return {
            "action_mask": self.mask.astype(np.int8),
            "choices": self.features.ravel().copy(),
            "observation": np.asarray(flat, dtype=np.float32),
        }


def choice_space(board: BoardSpec) -> spaces.Dict:
    """The observation space of the choice environments on ``board``."""
    reach = 2.0 * math.sqrt(2.0) * board.half_width  # the board's diagonal, m
    low = np.tile(np.array([0.0, -1.0, 0.0, 0.0, 0.0], dtype=np.float32), CHOICES)
    high = np.tile(np.array([1.0, 1.0, reach, reach, board.max_speed], dtype=np.float32), CHOICES)
    return spaces.Dict(
        {
            "action_mask": spaces.Box(0, 1, (CHOICES,), dtype=np.int8),
            "choices": spaces.Box(low, high, dtype=np.float32),
            "observation": observation_space(board, flat=True),
        }
    )


class ShotChoiceEnv(gym.Env[dict[str, Any], np.int64]):
    """A :class:`CarromEnv` whose action is one of :data:`CHOICES` shots (``Discrete``).

    Args:
        config: the game (:class:`GameConfig`). banks: offer the bank slots (finding them costs
            about ten times the rest of the choices). render_mode, board: as :class:`CarromEnv`.

    ``info`` is the raw environment's, with ``choice`` (the slot played).
    """

    metadata: dict[str, Any] = CarromEnv.metadata

    def __init__(
        self,
        config: GameConfig,
        banks: bool = False,
        render_mode: str | None = None,
        board: BoardSpec | None = None,
    ) -> None:
        self.raw = CarromEnv(config, "flat", render_mode, board)
        self.banks = banks
        self.render_mode = render_mode
        self.observation_space = choice_space(self.game.tables.board)
        self.action_space = spaces.Discrete(CHOICES)
        self.choices: ShotChoices | None = None
        self._over = False

    @property
    def game(self) -> Any:
        """The raw environment's :class:`~hikone_carrom.env.game.Game`."""
        return self.raw.game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game, as :meth:`CarromEnv.reset` (``options={"position": match}`` too)."""
        super().reset(seed=seed)
        flat, info = self.raw.reset(seed=seed, options=options)
        self._over = False
        return self._observe(flat), info

    def step(
        self, action: Any
    ) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        """One strike: the shot of choice ``action`` (refused, nothing changed, when masked)."""
        if self.choices is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self._over:
            raise gym.error.ResetNeeded("the episode is over: call reset()")
        choice = self.choices.check(action)
        raw = self.choices.action(self.game.tables, 0, choice)
        flat, reward, terminated, truncated, info = self.raw.step(raw)
        info["choice"] = choice
        self._over = terminated or truncated
        return self._observe(flat), reward, terminated, truncated, info

    def _observe(self, flat: Any) -> dict[str, np.ndarray]:
        self.choices = ShotChoices.of(self.game.tables, 0, self.banks)
        return self.choices.observation(flat)

    def action_masks(self) -> np.ndarray:
        """The open choices now, as booleans (``MaskablePPO``'s ``action_masks()``)."""
        if self.choices is None:
            raise gym.error.ResetNeeded("call reset() before action_masks()")
        return self.choices.mask.copy()

    def render(self) -> np.ndarray | None:
        """As :meth:`CarromEnv.render`."""
        return self.raw.render()

    def match(self) -> Match:
        """This episode as a :class:`Match` (as :meth:`CarromEnv.match`)."""
        return self.raw.match()

    def close(self) -> None:
        self.raw.close()


class SoloClearChoiceEnv(ShotChoiceEnv):
    """``HikoneCarrom/SoloClearChoice-v1``: the solo clear (R7a) with the shot-choice action;
    arguments as :class:`~hikone_carrom.env.SoloClearEnv` and ``banks``."""

    def __init__(
        self,
        noise: float = 1.0,
        reward: Reward | None = None,
        strike_cap: int = 200,
        options: RuleOptions | None = None,
        fly_off: bool = True,
        banks: bool = False,
        render_mode: str | None = None,
        board: BoardSpec | None = None,
    ) -> None:
        config = GameConfig.solo_clear(noise, reward, strike_cap, options, fly_off)
        super().__init__(config, banks, render_mode, board)


class MatchChoiceEnv(ShotChoiceEnv):
    """``HikoneCarrom/MatchChoice-v1``: singles against a built-in player with the shot-choice
    action; arguments as :class:`~hikone_carrom.env.MatchEnv` and ``banks``."""

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
        banks: bool = False,
        render_mode: str | None = None,
        board: BoardSpec | None = None,
    ) -> None:
        config = GameConfig.match(
            opponent, seat, noise, reward, strike_cap, time_shots, options, fly_off
        )
        super().__init__(config, banks, render_mode, board)


class ShotChoiceVectorEnv(VectorEnv[dict[str, Any], np.ndarray, np.ndarray]):
    """``num_envs`` boards of a shot-choice game over the native vector environment
    (:class:`~hikone_carrom.env.CarromVectorEnv`: every board's shot of a step in one physics
    batch; board k of ``reset(seed=s)`` plays the single environment seeded ``s + k``; the same
    NEXT_STEP autoreset, and ``reset(options={"reset_mask": mask})``).

    Args:
        num_envs, config, banks, render_mode, board: as :class:`ShotChoiceEnv`.

    A batch with a closed choice on a playing board is refused with :class:`ActionError`
    naming the board, and nothing changes; a resetting board's choice is ignored.
    """

    metadata: dict[str, Any] = CarromVectorEnv.metadata

    def __init__(
        self,
        num_envs: int,
        config: GameConfig,
        banks: bool = False,
        render_mode: str | None = None,
        board: BoardSpec | None = None,
    ) -> None:
        self.raw = CarromVectorEnv(num_envs, config, "flat", render_mode, board)
        self.num_envs = num_envs
        self.banks = banks
        self.render_mode = render_mode
        self.single_observation_space = choice_space(self.raw.game.tables.board)
        self.single_action_space = spaces.Discrete(CHOICES)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.choices: list[ShotChoices] = []
        self._obs = {
            k: np.zeros((num_envs, *(space.shape or ())), dtype=space.dtype)
            for k, space in self.single_observation_space.items()
        }

    @property
    def game(self) -> Any:
        """The raw environment's :class:`~hikone_carrom.env.game.Game`."""
        return self.raw.game

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """As :meth:`CarromVectorEnv.reset`."""
        flat, info = self.raw.reset(seed=seed, options=options)
        mask = (options or {}).get("reset_mask")
        rows = range(self.num_envs) if mask is None or not self.choices else np.flatnonzero(mask)
        return self._observe(flat, rows), info

    def step(
        self, actions: np.ndarray
    ) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One strike on every playing board: the shot of its choice."""
        if not self.choices:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ActionError(f"expected {self.num_envs} choices, got shape {chosen.shape}")
        tables = self.game.tables
        resetting = self.raw.resetting
        raw = np.zeros((self.num_envs, 3), dtype=np.float32)
        for i in np.flatnonzero(~resetting).tolist():
            try:
                raw[i] = self.choices[i].action(tables, i, chosen[i])
            except ActionError as exc:
                raise ActionError(f"board {i}: {exc}") from None
        flat, reward, terminated, truncated, info = self.raw.step(raw)
        return self._observe(flat, range(self.num_envs)), reward, terminated, truncated, info

    def _observe(self, flat: Any, rows: Iterable[int]) -> dict[str, Any]:
        tables = self.game.tables
        if not self.choices:
            self.choices = [ShotChoices.of(tables, i, self.banks) for i in range(self.num_envs)]
        obs = self._obs
        obs["observation"][:] = flat
        for i in rows:
            c = self.choices[i] = ShotChoices.of(tables, int(i), self.banks)
            obs["action_mask"][i] = c.mask
            obs["choices"][i] = c.features.ravel()
        return {k: v.copy() for k, v in obs.items()}

    def action_masks(self) -> np.ndarray:
        """Every board's open choices, (num_envs, CHOICES) booleans."""
        if not self.choices:
            raise RuntimeError("call reset() before action_masks()")
        return np.stack([c.mask for c in self.choices])

    def render(self) -> tuple[np.ndarray, ...] | None:
        """As :meth:`CarromVectorEnv.render`."""
        return self.raw.render()

    def close_extras(self, **kwargs: Any) -> None:
        self.raw.close()


def solo_choice_vector_env(
    num_envs: int,
    banks: bool = False,
    render_mode: str | None = None,
    board: BoardSpec | None = None,
    **game: Any,
) -> ShotChoiceVectorEnv:
    """``HikoneCarrom/SoloClearChoice-v1`` on ``num_envs`` boards; ``game`` takes the arguments
    of :meth:`GameConfig.solo_clear`."""
    return ShotChoiceVectorEnv(num_envs, GameConfig.solo_clear(**game), banks, render_mode, board)


def match_choice_vector_env(
    num_envs: int,
    banks: bool = False,
    render_mode: str | None = None,
    board: BoardSpec | None = None,
    **game: Any,
) -> ShotChoiceVectorEnv:
    """``HikoneCarrom/MatchChoice-v1`` on ``num_envs`` boards; ``game`` takes the arguments of
    :meth:`GameConfig.match`."""
    return ShotChoiceVectorEnv(num_envs, GameConfig.match(**game), banks, render_mode, board)
