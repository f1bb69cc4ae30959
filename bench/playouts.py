"""Random-playout throughput of every game (a benchmark, not a test).

    .venv/bin/python bench/playouts.py [GAME ...] [--seconds S] [--seed N]

For each game: from a fixed seed, play whole games with the default config through the
generic loop ``copa_ref.core.steps``: sample chance, choose uniformly among the legal
actions (per seat at joint nodes), ``apply`` (which validates every action), until the game
is over. Prints games/s, decisions/s (actions by
players, the unit of P-3) and chance actions/s. ``legal_actions`` is called at every
decision, as a random player must.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from copa_ref.core import MoverKind, steps, uniform
from copa_ref.games import GAMES, get_game


def playouts(name: str, seconds: float, seed: int) -> dict[str, float]:
    """Play random games of *name* for about *seconds*; return the rates."""
    game: Any = get_game(name)
    config = game.default_config()
    rng = random.Random(seed)
    games = decisions = chances = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for step in steps(game, uniform, rng, config=config):
            if step.mover.kind is MoverKind.CHANCE:
                chances += 1
            else:
                decisions += 1
        games += 1
    elapsed = time.perf_counter() - started
    return {"games/s": games / elapsed, "decisions/s": decisions / elapsed,
            "chance/s": chances / elapsed, "decisions/game": decisions / max(games, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"games to time (default: all of {sorted(GAMES)})")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    unknown = set(args.games) - set(GAMES)
    if unknown:
        parser.error(f"unknown games {sorted(unknown)}; known: {sorted(GAMES)}")
    print(f"random whole games, default config, seed {args.seed}, for {args.seconds:g} s per game: "
          "games/s, decisions/s (actions by players; a joint move is one), chance actions/s "
          "(through copa_ref.core.steps; apply validates every action)")
    for name in args.games or sorted(GAMES):
        rates = playouts(name, args.seconds, args.seed)
        print(f"{name:8} {rates['games/s']:>10,.0f} games/s {rates['decisions/s']:>10,.0f} "
              f"decisions/s {rates['chance/s']:>8,.0f} chance/s "
              f"({rates['decisions/game']:.1f} decisions a game)")


if __name__ == "__main__":
    main()
