"""Train Stable-Baselines3 PPO on the solo clear and measure it against the baselines.

    pip install 'hikone-carrom[rl,rl-train]'      # gymnasium, pettingzoo; stable-baselines3, torch
    python examples/train_ppo.py --timesteps 300000 --out runs/ppo-solo.zip
    python examples/train_ppo.py --evaluate runs/ppo-solo.zip --seeds 200

Training: ``HikoneCarrom/SoloClear-v0`` with the flat observation, the 1x hand of the AI
evaluation, the default reward (a puck net of penalties and debt = 1, the clear = 10) and
episodes cut at ``--strike-cap`` strikes, on ``--envs`` boards, one CPU thread. Evaluation: the
AI evaluation's solo clear (docs/ai.md): seeds 0..N-1, strikes to clear with the cap of 200
counting as 200, for the trained policy (deterministic), a uniformly random action, and the
``random`` and ``aim`` (CS747 random-aim) players of :mod:`hikone_carrom.ai` playing through the
same environment (their shots turned into actions by :func:`hikone_carrom.env.action_of`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from hikone_carrom.ai import make_player
from hikone_carrom.env import SoloClearEnv, action_of

EVAL_CAP = 200
"""The evaluation's strike cap (docs/ai.md): a game not cleared counts as 200 strikes."""

Policy = Callable[[SoloClearEnv, Any], np.ndarray]


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


def train(timesteps: int, envs: int, strike_cap: int, seed: int, out: str) -> float:
    """Train PPO; save the model to ``out``; the wall time in seconds."""
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)
    vec = make_vec_env(
        SoloClearEnv,
        n_envs=envs,
        seed=seed,
        env_kwargs={"observation": "flat", "strike_cap": strike_cap},
    )
    model = PPO(
        "MlpPolicy",
        vec,
        n_steps=256,
        batch_size=256,
        n_epochs=10,
        learning_rate=3e-4,
        gamma=0.99,
        gae_lambda=0.95,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        device="cpu",
        verbose=1,
    )
    start = time.perf_counter()
    model.learn(total_timesteps=timesteps)
    elapsed = time.perf_counter() - start
    model.save(out)
    return elapsed


def trained_policy(path: str) -> Callable[[int], Policy]:
    """The saved PPO model as a deterministic policy."""
    from stable_baselines3 import PPO

    model = PPO.load(path, device="cpu")

    def for_seed(seed: int) -> Policy:
        return lambda env, obs: model.predict(obs, deterministic=True)[0]

    return for_seed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=300_000, help="training strikes")
    parser.add_argument("--envs", type=int, default=8, help="boards trained on at once")
    parser.add_argument("--strike-cap", type=int, default=100, help="training episode cap")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="ppo-solo-clear.zip", help="where to save the model")
    parser.add_argument("--evaluate", metavar="MODEL", help="only evaluate a saved model")
    parser.add_argument("--seeds", type=int, default=200, help="evaluation games")
    parser.add_argument(
        "--baselines", default="uniform,random,aim", help="baselines to measure (or 'none')"
    )
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    model = args.evaluate
    if model is None:
        report["training_s"] = train(
            args.timesteps, args.envs, args.strike_cap, args.seed, args.out
        )
        report["timesteps"] = args.timesteps
        model = args.out
    start = time.perf_counter()
    report["ppo"] = evaluate(trained_policy(model), args.seeds)
    report["ppo"]["eval_s"] = time.perf_counter() - start
    for name in [] if args.baselines == "none" else args.baselines.split(","):
        if name == "uniform":
            report[name] = evaluate(random_action, args.seeds)
        else:
            report[name] = evaluate(lambda s, n=name: player_policy(n, s), args.seeds)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
