"""The PettingZoo game with the shot-choice action (:mod:`hikone_carrom.env.choices`).

The game of :class:`~hikone_carrom.env.aec.CarromAEC` (singles or doubles, turn by turn); each
agent chooses among the set shots of its turn: ``Discrete(CHOICES)``, the observation a ``Dict``
of ``observation`` (the flat observation from the agent's seat), ``choices`` and
``action_mask`` (int8, as PettingZoo's masked games give it). An agent that is not to shoot
sees an all-zero mask and no choices. A masked-out choice is refused with
:class:`~hikone_carrom.env.actions.ActionError` and nothing changes.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import wrappers

from hikone_carrom.env.aec import CarromAEC
from hikone_carrom.env.choices import CHOICES, FEATURES, ShotChoices, choice_space

__all__ = ["CarromChoiceAEC", "env", "raw_env"]


class CarromChoiceAEC(CarromAEC):
    """:class:`CarromAEC` (the same arguments but ``observation``) with the shot-choice action;
    ``banks`` offers the bank choices."""

    metadata: ClassVar[dict[str, Any]] = {
        **CarromAEC.metadata,
        "name": "hikone_carrom_choice_v1",
    }

    def __init__(self, banks: bool = False, **kwargs: Any) -> None:
        if "observation" in kwargs:
            raise ValueError("the choice game's observation is its own Dict (no observation=)")
        super().__init__(observation="flat", **kwargs)
        self.banks = banks
        space = choice_space(self.tables.board)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(CHOICES) for a in self.possible_agents}
        self._choices: ShotChoices | None = None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        self._choices = None

    def choices(self) -> ShotChoices:
        """The shooter's choices now (found once per position)."""
        if self._choices is None:
            self._choices = ShotChoices.of(self.tables, 0, self.banks)
        return self._choices

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        flat = super().observe(agent)
        state = self.tables.states[0]
        if state.outcome is None and self.possible_agents[state.shooter] == agent:
            return self.choices().observation(np.asarray(flat))
        return {
            "action_mask": np.zeros(CHOICES, dtype=np.int8),
            "choices": np.zeros(CHOICES * FEATURES, dtype=np.float32),
            "observation": np.asarray(flat, dtype=np.float32),
        }

    def action_mask(self, agent: str) -> np.ndarray:
        """``agent``'s open choices as booleans (none unless it is to shoot)."""
        return self.observe(agent)["action_mask"].astype(bool)

    def step(self, action: Any) -> None:
        """The selected seat's shot of choice ``action`` (``None`` once its game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent] or action is None:
            super().step(action)
            return
        raw = self.choices().action(self.tables, 0, action)
        self._choices = None
        super().step(raw)


raw_env = CarromChoiceAEC


def env(**kwargs: Any) -> Any:
    """:class:`CarromChoiceAEC` wrapped as PettingZoo recommends (actions in order, checked)."""
    return wrappers.OrderEnforcingWrapper(CarromChoiceAEC(**kwargs))
