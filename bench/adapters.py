"""The adapters' overhead against the plain loop (a benchmark, not a test).

    .venv/bin/python bench/adapters.py [GAME ...] [--games N] [--seed S]

For each game, the same number of whole random games with the default config: through the
generic loop ``copa_ref.core.steps`` (uniform policy), through the PettingZoo environment
(``action_space(agent).sample(mask)`` at each turn) and through the OpenSpiel game (uniform
over ``legal_actions`` and ``chance_outcomes``). Prints games/s for each and the adapters'
time per game as a multiple of the plain loop's. An adapter whose package is absent is
left out.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from copa_ref.core import steps, uniform
from copa_ref.games import GAMES, get_game


def plain(game: Any, n: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        for _ in steps(game, uniform, rng):
            pass


def pettingzoo(game: Any, n: int, seed: int) -> None:
    from copa_ref.adapters.pettingzoo import env

    e = env(game)
    for i in range(n):
        e.reset(seed=seed + i)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            done = terminated or truncated
            e.step(None if done else e.action_space(agent).sample(obs["action_mask"]))


def openspiel(game: Any, n: int, seed: int) -> None:
    import pyspiel

    from copa_ref.adapters import openspiel as adapter

    adapter.register()
    spiel = pyspiel.load_game(adapter.short_name(game))
    rng = random.Random(seed)
    for _ in range(n):
        state = spiel.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p))
                                     for p in range(spiel.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=sorted(GAMES))
    parser.add_argument("--games", dest="count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in args.games:
        game = get_game(name)
        base = 0.0
        for label, run in (("plain", plain), ("pettingzoo", pettingzoo),
                           ("openspiel", openspiel)):
            started = time.perf_counter()
            try:
                run(game, args.count, args.seed)
            except ImportError as err:
                print(f"{name:8} {label:10} skipped: {err}")
                continue
            spent = time.perf_counter() - started
            base = base or spent
            print(f"{name:8} {label:10} {args.count / spent:8.1f} games/s"
                  f"  x{spent / base:5.1f} the plain loop")


if __name__ == "__main__":
    main()
