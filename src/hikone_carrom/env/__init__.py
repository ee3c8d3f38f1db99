"""Reinforcement-learning environments over the exact physics and the full referee (extra ``rl``).

Importing this package registers the Gymnasium environments::

    import gymnasium as gym
    import hikone_carrom.env  # registers HikoneCarrom/*

    env = gym.make("HikoneCarrom/SoloClear-v1")            # clear the board alone (R7a)
    env = gym.make("HikoneCarrom/Match-v1", opponent=3)    # singles against level 3
    envs = gym.make_vec("HikoneCarrom/SoloClear-v1", num_envs=64)  # the native vector env

and offers the PettingZoo game for 2 or 4 players (:func:`aec_env`). docs/rl.md tells the
spaces, the reward and the measured speed.
"""

from __future__ import annotations

try:
    import gymnasium as _gym
except ImportError as _exc:  # pragma: no cover - the rl extra is installed with the tests
    raise ImportError(
        "hikone_carrom.env needs gymnasium and pettingzoo: pip install 'hikone-carrom[rl]' / "
        "強化学習環境には gymnasium と pettingzoo が必要です"
    ) from _exc

from hikone_carrom.env.actions import ActionError, action_of, shot_of
from hikone_carrom.env.game import GameConfig
from hikone_carrom.env.reward import Reward
from hikone_carrom.env.single import CarromEnv, MatchEnv, SoloClearEnv
from hikone_carrom.env.tables import Tables
from hikone_carrom.env.vector import CarromVectorEnv

__all__ = [
    "ENV_IDS",
    "ActionError",
    "CarromEnv",
    "CarromVectorEnv",
    "GameConfig",
    "MatchEnv",
    "Reward",
    "SoloClearEnv",
    "Tables",
    "action_of",
    "aec_env",
    "shot_of",
]

ENV_IDS = ("HikoneCarrom/SoloClear-v1", "HikoneCarrom/Match-v1")
"""The registered Gymnasium ids."""


def aec_env(**kwargs: object) -> object:
    """The PettingZoo AEC game (:class:`hikone_carrom.env.aec.CarromAEC`) with its usual
    wrappers; imports pettingzoo."""
    from hikone_carrom.env.aec import env

    return env(**kwargs)


def _register() -> None:
    for env_id, single, mode in (
        (ENV_IDS[0], "SoloClearEnv", "solo"),
        (ENV_IDS[1], "MatchEnv", "match"),
    ):
        if env_id in _gym.registry:
            continue
        _gym.register(
            id=env_id,
            entry_point=f"hikone_carrom.env.single:{single}",
            vector_entry_point=f"hikone_carrom.env.vector:{mode}_vector_env",
            disable_env_checker=False,
        )


_register()
