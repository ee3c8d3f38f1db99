"""Train PPO on the solo clear and measure it against the baselines.

    pip install 'hikone-carrom[rl,rl-train]'   # + stable-baselines3, sb3-contrib, torch (CPU)
    python examples/train_ppo.py --timesteps 200000 --out runs/ppo-solo.zip
    python examples/train_ppo.py --evaluate runs/ppo-solo.zip --seeds 200

The policy does not learn the raw (place, aim, power) action of ``HikoneCarrom/SoloClear-v1``
(a pot needs the angle right to about a degree; PPO on it learns only a safe touch). It chooses
among shots set relative to the pieces, each turned into the environment's own legal action
by :func:`hikone_carrom.env.action_of` (:class:`ShotChoices`):

- 52 pots: slot (target, pocket) for the jack (slot 0) and the own pucks R0..R11 (slots
  1-12) into each of the four pockets: the greedy player's geometric direct pot of that target
  into that pocket (:mod:`hikone_carrom.ai.candidates`: a clear path for the target and the
  striker, the straightest of 5 placements, the speed that brings the target to the pocket at
  0.6 m/s), where there is one;
- 13 hits: a firm 3 m/s shot straight at the centre of each target, from the free point of
  the area line nearest it (what the ``aim`` baseline does, at a random target);
- 1 break: straight at the jack spot at 4 m/s from the middle of the free line.

Choices that do not exist in the position are masked (MaskablePPO of sb3-contrib). The
policy sees the environment's flat observation and, per choice, (exists, cosine of the cut,
striker-to-target distance m, target-to-pocket distance m), normalised by VecNormalize.
The rules, the physics and the 1x hand are the environment's: every strike is one step of the
native vector environment (``CarromVectorEnv``, ``--envs`` boards in one physics batch).

Reward: :class:`hikone_carrom.env.Reward` with a cost per strike (``--strike-cost``, so a
clear in fewer strikes is worth more) and potential-based shaping by the own pucks' distance
to the pockets (``--approach`` per m, discounted by the learner's gamma; it keeps the best
policy), beside the pucks net of penalties and debt and the win.

Evaluation: the AI evaluation's solo clear (docs/ai.md): seeds 0..N-1 (training uses the
boards seeded from ``--seed`` 10000 on), strikes to clear with the cap of 200 counting as 200,
for the trained policy (deterministic), a uniformly random action, the ``random`` and ``aim``
(CS747 random-aim) players of :mod:`hikone_carrom.ai`, and ``choice`` (a uniformly random
existing choice of the same set), all through the same environment.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from hikone_carrom.ai import make_player
from hikone_carrom.ai.candidates import CandidateBudget, generate
from hikone_carrom.ai.geometry import line_points, pocket_aims
from hikone_carrom.ai.view import TableView, color_prefix
from hikone_carrom.env import Reward, SoloClearEnv, Tables, action_of
from hikone_carrom.env.observation import FLAT_SIZE
from hikone_carrom.env.vector import solo_vector_env
from hikone_carrom.match import Shot
from hikone_carrom.match.pieces import JACK_ID

EVAL_CAP = 200
"""The evaluation's strike cap (docs/ai.md): a game not cleared counts as 200 strikes."""
TARGETS = 13
"""Target slots: 0 the jack, 1-12 the own pucks by number."""
POCKETS = 4
HITS = POCKETS * TARGETS
"""First hit slot (after the pots)."""
BREAK = HITS + TARGETS
CHOICES = BREAK + 1
FEATURES = 5
"""Per choice: exists, cosine of the cut (hits and break: of the turn from straight ahead),
striker-to-target distance (m), target-to-pocket distance (m), speed (m/s)."""
POT_BUDGET = CandidateBudget(placements=5, arrivals=(0.6,))
"""The greedy player's direct pots (docs/ai.md)."""
HIT_SPEED = 3.0
BREAK_SPEED = 4.0
OBS_SIZE = FLAT_SIZE + CHOICES * FEATURES

Policy = Callable[[SoloClearEnv, Any], np.ndarray]


@dataclass
class ShotChoices:
    """The choices of one position: a shot per existing choice, the features and the mask."""

    shots: list[Shot | None]
    features: np.ndarray
    mask: np.ndarray

    @classmethod
    def of(cls, tables: Tables, i: int) -> ShotChoices:
        """The choices of the shooter of board ``i``."""
        state = tables.states[i]
        view = TableView.build(tables.board, tables.players, state.shooter, state, tables.layout(i))
        shots: list[Shot | None] = [None] * CHOICES
        features = np.zeros((CHOICES, FEATURES), dtype=np.float32)
        prefix = color_prefix(view.color)
        slot_of = {JACK_ID: 0, **{f"{prefix}{k}": k + 1 for k in range(TARGETS - 1)}}
        pockets = pocket_aims(tables.board)
        for c in generate(view, POT_BUDGET):
            if c.target is None or c.pocket is None:
                continue
            s = slot_of[c.target] * POCKETS + c.pocket
            if shots[s] is not None:
                continue
            t = view.index(c.target)
            tx, ty = float(view.x[t]), float(view.y[t])
            px, py = pockets[c.pocket]
            along = math.hypot(px - tx, py - ty)
            cut = (math.cos(c.angle) * (px - tx) + math.sin(c.angle) * (py - ty)) / along
            shots[s] = Shot(c.x, c.y, c.angle, c.speed)
            features[s] = (1.0, cut, math.hypot(tx - c.x, ty - c.y), along, c.speed)
        spots = line_points(view.placement, 9)
        if spots:
            forward = math.atan2(-view.placement.point[1], -view.placement.point[0])
            for t in view.targets():
                tx, ty = float(view.x[t]), float(view.y[t])
                sx, sy = min(spots, key=lambda p: math.hypot(tx - p[0], ty - p[1]))
                angle = math.atan2(ty - sy, tx - sx)
                s = HITS + slot_of[view.ids[t]]
                shots[s] = Shot(sx, sy, angle, HIT_SPEED)
                features[s] = (
                    1.0,
                    math.cos(angle - forward),
                    math.hypot(tx - sx, ty - sy),
                    0.0,
                    HIT_SPEED,
                )
            sx, sy = spots[len(spots) // 2]
            shots[BREAK] = Shot(sx, sy, math.atan2(-sy, -sx), BREAK_SPEED)
            features[BREAK] = (1.0, 1.0, math.hypot(sx, sy), 0.0, BREAK_SPEED)
        mask = features[:, 0] > 0.0
        if not mask.any():  # no placement left for the striker: any action passes (R2b)
            mask[BREAK] = True
        return cls(shots, features, mask)

    def action(self, tables: Tables, i: int, choice: int) -> np.ndarray:
        """The environment action of ``choice`` on board ``i`` (a masked one counts as the
        first existing choice)."""
        if not self.mask[choice]:
            choice = int(np.flatnonzero(self.mask)[0])
        shot = self.shots[choice]
        if shot is None:
            return np.zeros(3, dtype=np.float32)
        return action_of(tables.placement(i), shot, tables.board)

    def observation(self, flat: np.ndarray) -> np.ndarray:
        """The policy's observation: the environment's flat one and the features."""
        return np.concatenate([flat, self.features.ravel()]).astype(np.float32)


def choice_vec_env(envs: int, reward: Reward, strike_cap: int, seed: int) -> Any:
    """The native vector environment as a Stable-Baselines3 ``VecEnv`` over the choices."""
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv

    class ChoiceVecEnv(VecEnv):  # type: ignore[misc]
        def __init__(self) -> None:
            self.native = solo_vector_env(
                envs, observation="flat", reward=reward, strike_cap=strike_cap
            )
            self.tables = self.native.game.tables
            self.choices: list[ShotChoices] = []
            self.obs = np.zeros((envs, OBS_SIZE), dtype=np.float32)
            self._actions = np.zeros(envs, dtype=np.int64)
            self._seed: int | None = seed
            low = np.full(OBS_SIZE, -np.inf, dtype=np.float32)
            box = spaces.Box(low, -low, dtype=np.float32)
            super().__init__(envs, box, spaces.Discrete(CHOICES))

        def _observe(self, flat: np.ndarray, rows: Sequence[int]) -> np.ndarray:
            if not self.choices:
                self.choices = [ShotChoices.of(self.tables, i) for i in range(envs)]
            for i in rows:
                self.choices[i] = ShotChoices.of(self.tables, i)
                self.obs[i] = self.choices[i].observation(flat[i])
            return self.obs.copy()

        def reset(self) -> np.ndarray:
            flat, _ = self.native.reset(seed=self._seed)
            self._seed = None
            return self._observe(flat, range(envs))

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = np.asarray(actions, dtype=np.int64).reshape(envs)

        def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
            box = np.stack(
                [
                    self.choices[i].action(self.tables, i, int(a))
                    for i, a in enumerate(self._actions)
                ]
            )
            flat, reward, terminated, truncated, _ = self.native.step(box)
            obs = self._observe(flat, range(envs))
            done = terminated | truncated
            infos: list[dict[str, Any]] = [{} for _ in range(envs)]
            if done.any():
                for i in np.flatnonzero(done):
                    infos[i]["terminal_observation"] = obs[i].copy()
                    infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                flat, _ = self.native.reset(options={"reset_mask": done})
                obs = self._observe(flat, np.flatnonzero(done).tolist())
            return obs, reward.astype(np.float32), done, infos

        def action_masks(self) -> list[np.ndarray]:
            return [c.mask for c in self.choices]

        def env_method(
            self, name: str, *args: Any, indices: Any = None, **kwargs: Any
        ) -> list[Any]:
            if name != "action_masks":
                raise AttributeError(name)
            masks = self.action_masks()
            return [masks[i] for i in self._get_indices(indices)]

        def has_attr(self, name: str) -> bool:
            return name == "action_masks"

        def get_attr(self, name: str, indices: Any = None) -> list[Any]:
            return [getattr(self, name)] * len(list(self._get_indices(indices)))

        def set_attr(self, name: str, value: Any, indices: Any = None) -> None:
            setattr(self, name, value)

        def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
            return [False] * len(list(self._get_indices(indices)))

        def close(self) -> None:
            self.native.close()

    return ChoiceVecEnv()


def choice_policy() -> type:
    """The MaskablePPO policy scoring every choice with one network (imports torch).

    Each choice's score comes from the same small network applied to its features, a learnt
    embedding of its slot and a summary of the whole board (the flat observation), so what is
    learnt of one pot serves all; the value is an MLP of the whole observation.
    """
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
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
            context = self.context(obs[:, :FLAT_SIZE])[:, None, :].expand(-1, CHOICES, -1)
            features = obs[:, FLAT_SIZE:].reshape(-1, CHOICES, FEATURES)
            slots = self.slot.weight[None, :, :].expand(len(obs), -1, -1)
            scores: torch.Tensor = self.score(torch.cat([features, slots, context], dim=-1))
            return scores.squeeze(-1)

        def forward_critic(self, obs: torch.Tensor) -> torch.Tensor:
            value: torch.Tensor = self.value(obs)
            return value

    class ChoicePolicy(MaskableActorCriticPolicy):  # type: ignore[misc]
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
    """A uniformly random existing choice of :class:`ShotChoices`."""
    rng = np.random.default_rng(seed)

    def act(env: SoloClearEnv, obs: Any) -> np.ndarray:
        tables = env.game.tables
        choices = ShotChoices.of(tables, 0)
        return choices.action(tables, 0, int(rng.choice(np.flatnonzero(choices.mask))))

    return act


def strikes_to_clear(policy: Policy, seed: int) -> tuple[int, bool, int]:
    """Strikes the policy takes to clear the board from the game seeded ``seed`` (the cap if
    it does not), whether it cleared, and its pucks pocketed net of debt at the end (R5i)."""
    env = SoloClearEnv(observation="flat", strike_cap=EVAL_CAP)
    obs, info = env.reset(seed=seed)
    while True:
        obs, _, terminated, truncated, info = env.step(policy(env, obs))
        if terminated or truncated:
            state = env.game.tables.states[0]
            return int(info["strikes"]), bool(terminated), state.pocketed[0] - state.debt[0]


def evaluate(policy_for_seed: Callable[[int], Policy], seeds: int) -> dict[str, float]:
    """Mean strikes to clear over seeds 0..seeds-1 (the cap counts as 200), with its standard
    error, the share cleared, and the mean pucks pocketed net of debt at the end."""
    results = [strikes_to_clear(policy_for_seed(s), s) for s in range(seeds)]
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


def train(cfg: Training, out: str) -> float:
    """Train MaskablePPO; save the model to ``out`` and the observation statistics beside it
    (``out`` + ``.vecnormalize.pkl``); the wall time in seconds."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

    torch.set_num_threads(1)
    reward = Reward(strike=-cfg.strike_cost, approach=cfg.approach, gamma=cfg.gamma)
    vec = VecNormalize(
        VecMonitor(choice_vec_env(cfg.envs, reward, cfg.strike_cap, cfg.seed)),
        gamma=cfg.gamma,
        clip_obs=10.0,
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

    def act(env: SoloClearEnv, obs: Any) -> np.ndarray:
        tables = env.game.tables
        choices = ShotChoices.of(tables, 0)
        seen = normalize.normalize_obs(choices.observation(np.asarray(obs)))
        choice, _ = model.predict(seen, action_masks=choices.mask, deterministic=True)
        return choices.action(tables, 0, int(choice))

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
        )
        report["training_s"] = train(cfg, args.out)
        report["training"] = cfg.__dict__
        model = args.out
    start = time.perf_counter()
    report["ppo"] = evaluate(trained_policy(model), args.seeds)
    report["ppo"]["eval_s"] = time.perf_counter() - start
    for name in [] if args.baselines == "none" else args.baselines.split(","):
        if name == "uniform":
            report[name] = evaluate(random_action, args.seeds)
        elif name == "choice":
            report[name] = evaluate(random_choice, args.seeds)
        else:
            report[name] = evaluate(lambda s, n=name: player_policy(n, s), args.seeds)
        print(json.dumps({name: report[name]}), flush=True)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
