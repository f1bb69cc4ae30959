"""Self-play: MaskablePPO learns one seat of a game against frozen snapshots of itself.

Each generation trains the learner against a pool of opponents, one drawn per episode:
at first only the uniform random player, then also a snapshot of the learner taken at the
end of each generation (frozen: later training does not change it).

    python examples/self_play.py --game kala --generations 4 --steps 8192

Needs the ``train`` extra (docs/adapters/training.md). Prints the steps, the wall time and
the learner's results against the uniform random player before and after, and against its
first snapshot.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import torch
from sb3_contrib import MaskablePPO

from copa_ref.adapters.training import OpponentPool, VersusEnv, evaluate, snapshot


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kala")
    parser.add_argument("--generations", type=int, default=4)
    parser.add_argument("--steps", type=int, default=8192, help="learner steps a generation")
    parser.add_argument("--episodes", type=int, default=200, help="evaluation games")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)

    pool = OpponentPool()
    model = MaskablePPO("MlpPolicy", VersusEnv(args.game, opponent=pool, seed=args.seed),
                        seed=args.seed, n_steps=512, batch_size=128, verbose=0)
    before = evaluate(model, args.game, args.episodes, seed=10_000 + args.seed)
    start = time.perf_counter()
    for generation in range(args.generations):
        model.learn(args.steps, reset_num_timesteps=generation == 0)
        pool.add(snapshot(model))
        print(f"generation {generation + 1}: {model.num_timesteps} steps, "
              f"{time.perf_counter() - start:.1f} s, pool of {len(pool.opponents)}")
    seconds = time.perf_counter() - start
    after = evaluate(model, args.game, args.episodes, seed=10_000 + args.seed)
    first = evaluate(model, args.game, args.episodes, opponent=pool.opponents[1],
                     seed=10_000 + args.seed)
    print(f"{args.game}: {model.num_timesteps} steps in {seconds:.1f} s")
    print(f"against a uniform random player, {args.episodes} games: untrained "
          f"{before.wins:.0%} wins (mean return {before.mean_return:+.2f}), trained "
          f"{after.wins:.0%} wins ({after.mean_return:+.2f}); against its first snapshot "
          f"{first.wins:.0%} wins ({first.mean_return:+.2f})")
    return {"game": args.game, "steps": model.num_timesteps, "seconds": round(seconds, 1),
            "before": before, "after": after, "first_snapshot": first}


if __name__ == "__main__":
    main()
