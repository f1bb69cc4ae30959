"""RLlib's PPO on a game's PettingZoo environment: multi-agent (one policy, ``shared``, plays
every seat), action masking (RLlib's ``ActionMaskingTorchRLModule``) and environment
runners in their own processes, for training that outgrows one machine (a Ray cluster
takes the same script; raise ``--runners``).

    python examples/rllib_kala.py --game kala --runners 2 --iterations 2

Needs the ``rllib`` extra (docs/adapters/training.md). Prints each iteration's steps and
time, and the policy's results (the most likely legal action) against a uniform random
player, untrained and trained.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
    ActionMaskingTorchRLModule,
)
from ray.tune.registry import register_env

from copa_ref.adapters.training import evaluate, rllib_env


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kala")
    parser.add_argument("--runners", type=int, default=2, help="env-runner processes")
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--batch", type=int, default=1000, help="steps an iteration")
    parser.add_argument("--episodes", type=int, default=200, help="evaluation games")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    # The runners take one CPU each, the main process (which learns here) one more.
    ray.init(num_cpus=args.runners + 1, include_dashboard=False, log_to_driver=False)
    register_env("copa", lambda env_config: rllib_env(env_config["game"]))
    config = (
        PPOConfig()
        .environment("copa", env_config={"game": args.game})
        .env_runners(num_env_runners=args.runners, num_envs_per_env_runner=1)
        .multi_agent(policies={"shared"},
                     policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            "shared": RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                   model_config={"head_fcnet_hiddens": [64, 64]})}))
        .training(train_batch_size_per_learner=args.batch, minibatch_size=250, num_epochs=2)
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    try:
        module = algo.get_module("shared")

        def policy(observation: Any, mask: Any, rng: random.Random) -> int:
            batch = {"obs": {"observations": torch.as_tensor(observation[None]),
                             "action_mask": torch.as_tensor(mask[None], dtype=torch.float32)}}
            with torch.no_grad():
                logits = module.forward_inference(batch)["action_dist_inputs"][0]
            return int(np.argmax(logits.numpy()))

        before = evaluate(policy, args.game, args.episodes, seed=10_000 + args.seed)
        start = time.perf_counter()
        for iteration in range(args.iterations):
            result = algo.train()
            steps = int(result["env_runners"]["num_env_steps_sampled_lifetime"])
            print(f"iteration {iteration + 1}: {steps} steps, "
                  f"{time.perf_counter() - start:.1f} s")
        seconds = time.perf_counter() - start
        runners = algo.env_runner_group.foreach_env_runner(
            lambda runner: os.getpid(), local_env_runner=False)
        module = algo.get_module("shared")  # the learner's weights, now trained
        after = evaluate(policy, args.game, args.episodes, seed=10_000 + args.seed)
    finally:
        algo.stop()
        ray.shutdown()
    print(f"{args.game}: {steps} steps, {seconds:.1f} s; runner processes {sorted(runners)}, "
          f"main process {os.getpid()}")
    print(f"against a uniform random player, {args.episodes} games: untrained "
          f"{before.wins:.0%} wins (mean return {before.mean_return:+.2f}), trained "
          f"{after.wins:.0%} wins ({after.mean_return:+.2f})")
    return {"game": args.game, "steps": steps, "seconds": round(seconds, 1),
            "runners": runners, "before": before, "after": after}

if __name__ == "__main__":
    main()
