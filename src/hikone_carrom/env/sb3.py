"""The native vector environment as a Stable-Baselines3 ``VecEnv`` (SB3 itself is optional).

SB3 refuses a Gymnasium ``VectorEnv``; :class:`SB3VecEnv` gives it the ``VecEnv`` API over
:class:`~hikone_carrom.env.CarromVectorEnv` or
:class:`~hikone_carrom.env.choices.ShotChoiceVectorEnv` (every board's shot of a step still in
one physics batch). When ``stable_baselines3`` is installed it is a subclass of its ``VecEnv``
(so ``VecNormalize``, ``VecMonitor`` and the algorithms take it); without it, a class with the
same methods (tests, or another library reading the same API).

SB3's episode ends: a board whose episode ended is reset at once (``reset_mask``), its step
returns the new game's first observation, ``done`` and the last one in
``infos[i]["terminal_observation"]`` (``"TimeLimit.truncated"`` when cut by the strike cap).
So the boards play exactly the native vector environment's games, without its autoreset steps:
board k after ``seed(s)`` and ``reset()`` is the single environment reset with seed ``s + k``,
episode after episode. ``infos[i]`` also holds ``strikes`` and, at an episode's end, ``won``.

Sub-environment calls: the boards share one environment, so ``get_attr`` and ``set_attr`` read
and write the native environment's attribute (the same value for every index), and
``env_method`` calls its method once and splits a per-board result (a sequence of ``num_envs``)
by board: ``env_method("action_masks")`` gives each board's mask (``MaskablePPO``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

__all__ = ["SB3VecEnv"]

if TYPE_CHECKING:
    _Base = object
else:
    try:
        from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _Base
    except ImportError:  # SB3 is optional: the same API, duck-typed
        _Base = object

Obs = dict[str, np.ndarray] | np.ndarray


class SB3VecEnv(_Base):
    """A native vector environment (``reset(seed=..., options={"reset_mask": ...})``, NEXT_STEP
    autoreset) through Stable-Baselines3's ``VecEnv`` API.

    Args:
        native: the vector environment (e.g. ``gym.make_vec("HikoneCarrom/SoloClear-v1",
            num_envs=32)``); closed with the adapter.
    """

    def __init__(self, native: Any) -> None:
        self.native = native
        n = int(native.num_envs)
        if _Base is not object:
            super().__init__(  # type: ignore[call-arg]  # SB3's VecEnv
                n, native.single_observation_space, native.single_action_space
            )
        self.num_envs = n
        self.observation_space = native.single_observation_space
        self.action_space = native.single_action_space
        self.render_mode = getattr(native, "render_mode", None)
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(n)]
        self._seeds: list[int | None] = [None] * n
        self._options: list[dict[str, Any]] = [{} for _ in range(n)]
        self._actions: np.ndarray | None = None

    # -- stepping -----------------------------------------------------------------------------

    def reset(self) -> Obs:
        """New games on every board, seeded by the last :meth:`seed` (once)."""
        if any(self._options):
            raise ValueError("the native vector environment takes no reset options per board")
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        obs, infos = self.native.reset(seed=seeds)
        self._seeds = [None] * self.num_envs
        self.reset_infos = self._board_infos(infos)
        first: Obs = obs
        return first

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the actions of :meth:`step_wait`."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[Obs, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """One strike on every board; the boards whose episode ended start their next game."""
        if self._actions is None:
            raise RuntimeError("call step_async() before step_wait()")
        actions, self._actions = self._actions, None
        obs, reward, terminated, truncated, native_infos = self.native.step(actions)
        done = np.asarray(terminated | truncated, dtype=bool)
        infos = self._board_infos(native_infos)
        if done.any():
            for i in np.flatnonzero(done).tolist():
                infos[i]["terminal_observation"] = _board(obs, i)
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            obs, _ = self.native.reset(options={"reset_mask": done})
        return obs, np.asarray(reward, dtype=np.float32), done, infos

    def step(self, actions: np.ndarray) -> tuple[Obs, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """:meth:`step_async` then :meth:`step_wait`."""
        self.step_async(actions)
        return self.step_wait()

    def _board_infos(self, infos: dict[str, Any]) -> list[dict[str, Any]]:
        """Gymnasium's dict of arrays (masked by ``_key``) as one dict per board."""
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for key, value in infos.items():
            if key.startswith("_"):
                continue
            mask = infos.get(f"_{key}")
            for i in range(self.num_envs):
                if mask is None or mask[i]:
                    item = value[i]
                    out[i][key] = item.item() if isinstance(item, np.generic) else item
        return out

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seeds for the next :meth:`reset`: board k gets ``seed + k`` (a random ``seed`` when
        ``None``)."""
        if seed is None:
            seed = int(np.random.randint(2**32 - 1, dtype=np.int64))
        self._seeds = [seed + k for k in range(self.num_envs)]
        return self._seeds

    def set_options(self, options: list[dict[str, Any]] | dict[str, Any] | None = None) -> None:
        """Reset options per board (the native environment takes none: :meth:`reset` refuses
        them)."""
        if options is None:
            options = {}
        self._options = list(options) if isinstance(options, list) else [options] * self.num_envs

    def close(self) -> None:
        self.native.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        """One picture per board (``render_mode="rgb_array"``)."""
        images = self.native.render()
        return [None] * self.num_envs if images is None else list(images)

    # -- the boards' attributes and methods -----------------------------------------------------

    def _indices(self, indices: int | Iterable[int] | None) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None) -> list[Any]:
        """The native environment's attribute, once per index (``AttributeError`` without)."""
        value = getattr(self.native, attr_name)
        return [value for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self.native, attr_name)

    def set_attr(
        self, attr_name: str, value: Any, indices: int | Iterable[int] | None = None
    ) -> None:
        """Set the native environment's attribute (shared by every board)."""
        setattr(self.native, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: int | Iterable[int] | None = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """The native environment's method called once; a result of one item per board is
        split by board, any other result repeated for each index."""
        result = getattr(self.native, method_name)(*method_args, **method_kwargs)
        rows = self._indices(indices)
        per_board = isinstance(result, np.ndarray | list | tuple) and len(result) == self.num_envs
        return [result[i] if per_board else result for i in rows]

    def env_is_wrapped(
        self, wrapper_class: type, indices: int | Iterable[int] | None = None
    ) -> list[bool]:
        """No board is wrapped (there is one native environment)."""
        return [False for _ in self._indices(indices)]

    def action_masks(self) -> np.ndarray:
        """Every board's open choices (a shot-choice environment only)."""
        masks: np.ndarray = self.native.action_masks()
        return masks


def _board(obs: Obs, i: int) -> Obs:
    """Board ``i``'s part of a batched observation, copied."""
    if isinstance(obs, dict):
        return {k: v[i].copy() for k, v in obs.items()}
    return np.asarray(obs[i]).copy()
