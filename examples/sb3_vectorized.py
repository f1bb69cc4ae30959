"""MaskablePPO on SuperSuit's vector environment: one shared policy plays every seat of a
game in several copies over several processes (each agent of each copy is one of the vector's
environments), then plays a uniform random player.

    python examples/sb3_vectorized.py --game kala --steps 16384 --copies 4 --cpus 2

Needs the ``train`` extra (docs/adapters/training.md). Prints the steps, the wall time and
the untrained and trained policy's results against the random player.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import supersuit as ss
import torch
from sb3_contrib import MaskablePPO

from copa_ref.adapters.pettingzoo import parallel_env
from copa_ref.adapters.training import evaluate, sb3_vec_env


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kala")
    parser.add_argument("--steps", type=int, default=16384, help="vector steps, all agents")
    parser.add_argument("--copies", type=int, default=4, help="copies of the game")
    parser.add_argument("--cpus", type=int, default=2, help="worker processes")
    parser.add_argument("--episodes", type=int, default=200, help="evaluation games")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)

    vector = sb3_vec_env(ss.concat_vec_envs_v1(
        ss.pettingzoo_env_to_vec_env_v1(parallel_env(args.game)), args.copies,
        num_cpus=args.cpus, base_class="gymnasium"))
    try:
        model = MaskablePPO("MlpPolicy", vector, seed=args.seed, n_steps=128,
                            batch_size=256, verbose=0)
        before = evaluate(model, args.game, args.episodes, seed=10_000 + args.seed)
        start = time.perf_counter()
        model.learn(args.steps)
        seconds = time.perf_counter() - start
    finally:
        vector.close()
    after = evaluate(model, args.game, args.episodes, seed=10_000 + args.seed)
    figures = {"game": args.game, "steps": model.num_timesteps, "environments": vector.num_envs,
               "seconds": round(seconds, 1), "before": before, "after": after}
    print(f"{args.game}: {model.num_timesteps} steps over {vector.num_envs} environments "
          f"({args.copies} copies, {args.cpus} processes) in {seconds:.1f} s")
    print(f"against a uniform random player, {args.episodes} games: untrained "
          f"{before.wins:.0%} wins (mean return {before.mean_return:+.2f}), trained "
          f"{after.wins:.0%} wins ({after.mean_return:+.2f})")
    return figures


if __name__ == "__main__":
    main()
