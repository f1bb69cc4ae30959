"""The adapters' overhead against the plain loop (a benchmark, not a test).

    .venv/bin/python bench/adapters.py [GAME ...] [--games N] [--seed S] [--decisions D]
        [--repeat R]

For each game, the same number of random games with the default config, each played to its
end or cut after the same number of decisions (the adapters' default truncation for a game
whose random play need not end, Kopa): through the generic loop ``copa_ref.core.steps``
(uniform policy), through the PettingZoo AEC environment as ``env()`` gives it (wrapped
as the classic environments are) and bare (``raw_env``), a uniform choice among the mask's
legal ids at each turn, chance sampled inside, and through the OpenSpiel game (uniform over
``legal_actions``, chance by ``chance_outcomes`` weights; a deal is dealt in its small steps
there). Imports, registration and making the environment or loading the game are left out of the
times (one game first); each time is the
best of ``--repeat`` runs. Prints
decisions/s for each and the adapters' time per decision as a multiple of the
plain loop's. An adapter whose package is absent is left out.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from copa_ref.adapters import default_truncation
from copa_ref.core import MoverKind, steps, uniform
from copa_ref.games import GAMES, get_game

_MADE: dict[tuple[str, str, Any], Any] = {}
"""Each adapter's environment or loaded game, made once per game (not timed)."""


def plain(game: Any, n: int, seed: int, cap: int | None) -> int:
    rng = random.Random(seed)
    decisions = 0
    for _ in range(n):
        made = 0
        for step in steps(game, uniform, rng):
            if step.mover.kind is not MoverKind.CHANCE:
                made += 1
                if made == cap:
                    break
        decisions += made
    return decisions


def pettingzoo(game: Any, n: int, seed: int, cap: int | None, bare: bool = False) -> int:
    from copa_ref.adapters.pettingzoo import env, raw_env

    e = _MADE.get(("pettingzoo", game.name, bare))
    if e is None:  # made once, in the untimed first run (as a user makes an env once)
        e = _MADE["pettingzoo", game.name, bare] = (raw_env if bare else env)(
            game, max_steps=cap)
    rng = random.Random(seed)
    decisions = 0
    for i in range(n):
        e.reset(seed=seed + i)
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            done = terminated or truncated
            e.step(None if done else rng.choice(np.flatnonzero(obs["action_mask"])))
            decisions += not done
    return decisions


def openspiel(game: Any, n: int, seed: int, cap: int | None) -> int:
    import pyspiel

    from copa_ref.adapters import openspiel as adapter

    adapter.register()
    spiel = _MADE.get(("openspiel", game.name, 0))
    if spiel is None:  # loaded once, in the untimed first run
        spiel = _MADE["openspiel", game.name, 0] = pyspiel.load_game(
            adapter.short_name(game), {adapter.LENGTH: 0})
    rng = random.Random(seed)
    decisions = 0
    for _ in range(n):
        state, made = spiel.new_initial_state(), 0
        while not state.is_terminal() and made != cap:
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            if state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p))
                                     for p in range(spiel.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            made += 1
        decisions += made
    return decisions


def pettingzoo_raw(game: Any, n: int, seed: int, cap: int | None) -> int:
    """As :func:`pettingzoo`, through ``raw_env`` (without PettingZoo's wrappers)."""
    return pettingzoo(game, n, seed, cap, bare=True)


RUNS: tuple[tuple[str, Callable[[Any, int, int, int | None], int]], ...] = (
    ("plain", plain), ("pettingzoo", pettingzoo), ("pz raw_env", pettingzoo_raw),
    ("openspiel", openspiel))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=sorted(GAMES))
    parser.add_argument("--games", dest="count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="keep the best of this many runs")
    parser.add_argument("--decisions", type=int, default=None,
                        help="cut each game after this many decisions (default: none, but "
                             "the adapters' truncation for a game whose random play need "
                             "not end)")
    args = parser.parse_args()
    print(f"{args.count} random games a game and adapter, default config, seed {args.seed}, "
          f"best of {args.repeat}: decisions/s, and time per decision as a multiple of the "
          "plain loop's")
    for name in args.games:
        game = get_game(name)
        cap = args.decisions or default_truncation(game)
        base = 0.0
        for label, run in RUNS:
            try:
                run(game, 1, args.seed + 1000, cap)  # imports, registration: not timed
            except ImportError as err:
                print(f"{name:8} {label:10} skipped: {err}")
                continue
            per = float("inf")
            for _ in range(args.repeat):  # the best of a few: the machine is shared
                started = time.perf_counter()
                decisions = run(game, args.count, args.seed, cap)
                per = min(per, (time.perf_counter() - started) / max(decisions, 1))
            base = base or per
            capped = f" (cut at {cap} decisions)" if cap else ""
            print(f"{name:8} {label:10} {1 / per:10,.0f} decisions/s  x{per / base:5.1f} "
                  f"the plain loop's time, {base / per:4.2f} of its speed{capped}")


if __name__ == "__main__":
    main()
