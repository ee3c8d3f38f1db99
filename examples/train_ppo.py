"""Train PPO on the solo clear and measure it against the baselines.

    pip install 'hikone-carrom[rl,rl-train]'   # + stable-baselines3, sb3-contrib, torch (CPU)
    python examples/train_ppo.py --timesteps 200000 --out runs/ppo-solo.zip
    python examples/train_ppo.py --evaluate runs/ppo-solo.zip --seeds 200

The policy does not learn the raw (place, aim, power) action of ``HikoneCarrom/SoloClear-v1``
(a pot needs the angle right to about a degree; PPO on it learns only a safe touch). It plays
``HikoneCarrom/SoloClearChoice-v1`` (:mod:`hikone_carrom.env.choices`): a masked choice among
shots set relative to the pieces, each turned into the raw environment's own legal action:

- 52 pots: slot (target, pocket) for the jack (target 0) and the own pucks R0..R11 (targets
  1-12) into each of the four pockets: the greedy player's geometric direct pot of that target
  into that pocket, where there is one;
- 13 banks, one per target (only with ``--banks``: finding them costs about ten times the rest);
- 13 hits: a firm 3 m/s shot straight at the centre of each target, from the free point of
  the area line nearest it (what the ``aim`` baseline does, at a random target);
- 1 break: straight at the jack spot at 4 m/s from the middle of the free line.

Choices that do not exist in the position are masked (MaskablePPO of sb3-contrib reads
``action_masks()``). The policy sees the environment's ``observation`` (the flat one) and
``choices`` (per choice: exists, cosine of the cut, striker-to-target distance m,
target-to-pocket distance m, speed m/s), normalised by VecNormalize. The rules, the physics and
the 1x hand are the environment's: every strike is one step of the native vector environment
(``gym.make_vec("HikoneCarrom/SoloClearChoice-v1")``, ``--envs`` boards in one physics batch)
through the library's Stable-Baselines3 adapter (:class:`hikone_carrom.env.sb3.SB3VecEnv`).

Reward: :class:`hikone_carrom.env.Reward` with a cost per strike (``--strike-cost``, so a
clear in fewer strikes is worth more) and potential-based shaping by the own pucks' distance
to the pockets (``--approach`` per m, discounted by the learner's gamma; it keeps the best
policy), beside the pucks net of penalties and debt and the win.

Evaluation: the AI evaluation's solo clear (docs/ai.md): seeds 0..N-1 (training uses the
boards seeded from ``--seed`` 10000 on), strikes to clear with the cap of 200 counting as 200,
for the trained policy (deterministic), a uniformly random action, the ``random`` and ``aim``
(CS747 random-aim) players of :mod:`hikone_carrom.ai`, and ``choice`` (a uniformly random
open choice of the same environment), all through the same game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from hikone_carrom.ai import make_player
from hikone_carrom.env import Reward, SoloClearEnv, action_of
from hikone_carrom.env.choices import CHOICES, FEATURES, SoloClearChoiceEnv, solo_choice_vector_env
from hikone_carrom.env.observation import FLAT_SIZE
from hikone_carrom.env.sb3 import SB3VecEnv

EVAL_CAP = 200
"""The evaluation's strike cap (docs/ai.md): a game not cleared counts as 200 strikes."""
OBSERVATION_AT = CHOICES + CHOICES * FEATURES
"""The policy's input is SB3's ``CombinedExtractor`` of the observation: its keys in order,
each flattened: ``action_mask`` (CHOICES), ``choices`` (from CHOICES), ``observation`` (from
here, FLAT_SIZE)."""

Policy = Callable[[Any, Any], Any]
"""(environment, observation) -> its action: a raw one, or a choice for the choice env."""


def choice_vec_env(envs: int, reward: Reward, strike_cap: int, banks: bool) -> Any:
    """The native shot-choice vector environment as a Stable-Baselines3 ``VecEnv``."""
    native = solo_choice_vector_env(envs, banks=banks, reward=reward, strike_cap=strike_cap)
    return SB3VecEnv(native)


def choice_policy() -> type:
    """The MaskablePPO policy scoring every choice with one network (imports torch).

    Each choice's score comes from the same small network applied to its features, a learnt
    embedding of its slot and a summary of the whole board (the flat observation), so what is
    learnt of one pot serves all; the value is an MLP of the whole observation.
    """
    import torch
    from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
    from torch import nn

    class ChoiceScorer(nn.Module):
        def __init__(self, features_dim: int) -> None:
            super().__init__()
            self.latent_dim_pi = CHOICES
            self.latent_dim_vf = 64
            self.context = nn.Sequential(nn.Linear(FLAT_SIZE, 64), nn.Tanh())
            self.slot = nn.Embedding(CHOICES, 8)
            self.score = nn.Sequential(
                nn.Linear(FEATURES + 8 + 64, 64), nn.Tanh(), nn.Linear(64, 1)
            )
            self.value = nn.Sequential(
                nn.Linear(features_dim, 128), nn.Tanh(), nn.Linear(128, 64), nn.Tanh()
            )

        def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            return self.forward_actor(obs), self.forward_critic(obs)

        def forward_actor(self, obs: torch.Tensor) -> torch.Tensor:
            flat = obs[:, OBSERVATION_AT:]
            context = self.context(flat)[:, None, :].expand(-1, CHOICES, -1)
            features = obs[:, CHOICES:OBSERVATION_AT].reshape(-1, CHOICES, FEATURES)
            slots = self.slot.weight[None, :, :].expand(len(obs), -1, -1)
            scores: torch.Tensor = self.score(torch.cat([features, slots, context], dim=-1))
            return scores.squeeze(-1)

        def forward_critic(self, obs: torch.Tensor) -> torch.Tensor:
            value: torch.Tensor = self.value(obs)
            return value

    class ChoicePolicy(MaskableMultiInputActorCriticPolicy):  # type: ignore[misc]
        def _build_mlp_extractor(self) -> None:
            self.mlp_extractor = ChoiceScorer(self.features_dim)

        def _build(self, lr_schedule: Any) -> None:
            super()._build(lr_schedule)
            self.action_net = nn.Identity()  # the scores are the logits
            nn.init.orthogonal_(self.mlp_extractor.score[-1].weight, gain=0.01)
            self.optimizer = self.optimizer_class(
                self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
            )

    return ChoicePolicy


def random_action(seed: int) -> Policy:
    """A uniformly random action in [-1, 1]^3."""
    rng = np.random.default_rng(seed)
    return lambda env, obs: rng.uniform(-1.0, 1.0, 3).astype(np.float32)


def player_policy(name: str, seed: int) -> Policy:
    """A built-in player (``random``, ``aim``, ...) choosing through the environment: its meant
    shot as an action (the environment adds the 1x hand). It decides on the position alone, so
    each strike gets its own player seed."""

    def act(env: SoloClearEnv, obs: Any) -> np.ndarray:
        tables = env.game.tables
        strike = int(env.game.strikes[0])
        player = make_player(name, seed=seed * EVAL_CAP + strike, solo=True)
        shot = player.choose(tables.position(0))
        return action_of(tables.placement(0), shot, tables.board)

    return act


def random_choice(seed: int) -> Policy:
    """A uniformly random open choice of ``SoloClearChoice-v1``."""
    rng = np.random.default_rng(seed)
    return lambda env, obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))


def strikes_to_clear(
    policy: Policy, seed: int, choice: bool = False, banks: bool = False
) -> tuple[int, bool, int]:
    """Strikes the policy takes to clear the board from the game seeded ``seed`` (the cap if
    it does not), whether it cleared, and its pucks pocketed net of debt at the end (R5i);
    ``choice``: the policy plays ``SoloClearChoice-v1`` (the same game, the choice action;
    ``banks`` as the environment's)."""
    env: SoloClearEnv | SoloClearChoiceEnv = (
        SoloClearChoiceEnv(strike_cap=EVAL_CAP, banks=banks)
        if choice
        else SoloClearEnv(observation="flat", strike_cap=EVAL_CAP)
    )
    obs, info = env.reset(seed=seed)
    while True:
        obs, _, terminated, truncated, info = env.step(policy(env, obs))
        if terminated or truncated:
            state = env.game.tables.states[0]
            return int(info["strikes"]), bool(terminated), state.pocketed[0] - state.debt[0]


def evaluate(
    policy_for_seed: Callable[[int], Policy],
    seeds: int,
    choice: bool = False,
    banks: bool = False,
) -> dict[str, float]:
    """Mean strikes to clear over seeds 0..seeds-1 (the cap counts as 200), with its standard
    error, the share cleared, and the mean pucks pocketed net of debt at the end."""
    results = [strikes_to_clear(policy_for_seed(s), s, choice, banks) for s in range(seeds)]
    strikes = [s for s, _, _ in results]
    return {
        "games": seeds,
        "mean": statistics.fmean(strikes),
        "se": statistics.stdev(strikes) / seeds**0.5 if seeds > 1 else 0.0,
        "cleared": sum(c for _, c, _ in results) / seeds,
        "pucks": statistics.fmean(p for _, _, p in results),
    }


@dataclass(frozen=True)
class Training:
    """What ``train`` does (the command-line options)."""

    timesteps: int = 200_000
    envs: int = 32
    strike_cap: int = 150
    strike_cost: float = 0.05
    approach: float = 0.5
    gamma: float = 0.99
    n_steps: int = 64
    batch_size: int = 512
    epochs: int = 5
    learning_rate: float = 3e-4
    entropy: float = 0.01
    seed: int = 10_000
    banks: bool = False


def train(cfg: Training, out: str) -> float:
    """Train MaskablePPO; save the model to ``out`` and the observation statistics beside it
    (``out`` + ``.vecnormalize.pkl``); the wall time in seconds."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

    torch.set_num_threads(1)
    reward = Reward(strike=-cfg.strike_cost, approach=cfg.approach, gamma=cfg.gamma)
    vec = VecNormalize(
        VecMonitor(choice_vec_env(cfg.envs, reward, cfg.strike_cap, cfg.banks)),
        gamma=cfg.gamma,
        clip_obs=10.0,
        norm_obs_keys=["choices", "observation"],
    )
    model = MaskablePPO(
        choice_policy(),
        vec,
        n_steps=cfg.n_steps,
        batch_size=cfg.batch_size,
        n_epochs=cfg.epochs,
        learning_rate=cfg.learning_rate,
        gamma=cfg.gamma,
        gae_lambda=0.95,
        ent_coef=cfg.entropy,
        seed=cfg.seed,
        device="cpu",
        verbose=1,
    )
    start = time.perf_counter()
    model.learn(total_timesteps=cfg.timesteps)
    elapsed = time.perf_counter() - start
    model.save(out)
    vec.save(out + ".vecnormalize.pkl")
    return elapsed


def trained_policy(path: str) -> Callable[[int], Policy]:
    """The saved model as a deterministic policy over :class:`ShotChoices`."""
    import pickle

    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(path, device="cpu", custom_objects={"policy_class": choice_policy()})
    with open(path + ".vecnormalize.pkl", "rb") as fh:
        normalize = pickle.load(fh)

    def act(env: SoloClearChoiceEnv, obs: dict[str, np.ndarray]) -> int:
        seen = normalize.normalize_obs(obs)
        choice, _ = model.predict(seen, action_masks=env.action_masks(), deterministic=True)
        return int(choice)

    return lambda seed: act


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    defaults = Training()
    parser.add_argument("--timesteps", type=int, default=defaults.timesteps, help="strikes")
    parser.add_argument("--envs", type=int, default=defaults.envs, help="boards at once")
    parser.add_argument("--strike-cap", type=int, default=defaults.strike_cap)
    parser.add_argument("--strike-cost", type=float, default=defaults.strike_cost)
    parser.add_argument("--approach", type=float, default=defaults.approach)
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--banks", action="store_true", help="offer the bank choices too")
    parser.add_argument("--out", default="ppo-solo-clear.zip", help="where to save the model")
    parser.add_argument("--evaluate", metavar="MODEL", help="only evaluate a saved model")
    parser.add_argument("--seeds", type=int, default=200, help="evaluation games")
    parser.add_argument(
        "--baselines",
        default="uniform,random,aim,choice",
        help="baselines to measure: uniform, random, aim, choice, greedy (or 'none')",
    )
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    model = args.evaluate
    if model is None:
        cfg = Training(
            timesteps=args.timesteps,
            envs=args.envs,
            strike_cap=args.strike_cap,
            strike_cost=args.strike_cost,
            approach=args.approach,
            epochs=args.epochs,
            seed=args.seed,
            banks=args.banks,
        )
        report["training_s"] = train(cfg, args.out)
        report["training"] = cfg.__dict__
        model = args.out
    start = time.perf_counter()
    report["ppo"] = evaluate(trained_policy(model), args.seeds, choice=True, banks=args.banks)
    report["ppo"]["eval_s"] = time.perf_counter() - start
    for name in [] if args.baselines == "none" else args.baselines.split(","):
        if name == "uniform":
            report[name] = evaluate(random_action, args.seeds)
        elif name == "choice":
            report[name] = evaluate(random_choice, args.seeds, choice=True, banks=args.banks)
        else:
            report[name] = evaluate(lambda s, n=name: player_policy(n, s), args.seeds)
        print(json.dumps({name: report[name]}), flush=True)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
