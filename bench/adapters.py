"""The adapters' overhead against the plain loop (a benchmark, not a test).

    .venv/bin/python bench/adapters.py [GAME ...] [--games N] [--rounds R] [--seed S]
        [--decisions D] [--policy nonzero|flatnonzero|sample] [--table pettingzoo|openspiel]
        [--against TREE [--variants pettingzoo,openspiel]]

``--against TREE`` compares two source trees instead (this one, whose ``copa_ref`` is first on
``PYTHONPATH``, and *TREE*, another checkout): each round runs one process per tree, in an
order that alternates from round to round, and each process plays the plain loop and the
variants named by ``--variants`` once; printed: each loop's median decisions per CPU
second in both trees and this tree's speed over *TREE*'s, min / median / max over the
rounds (1.0: as fast).

``--table`` prints, instead of the text lines, the adapter page's table in Markdown (one
row per game: the plain loop's median decisions per CPU second and each of that adapter's
variants' min / median / max ratio; only the plain loop and those variants are run): the
docs' tables are this command's output.

What is measured, for each game (default: KALA, as issue 22 asks): decisions per CPU second
(``time.process_time``) of uniformly random play with the default config,

- ``plain``: through the plain API, the generic loop ``copa_ref.core.steps`` with the
  ``uniform`` policy;
- ``pettingzoo``: through the PettingZoo AEC environment as ``env()`` gives it (PettingZoo's
  three classic wrappers stacked, ``ClassicWrapper`` outermost with its fast path),
  ``agent_iter``/``last``/``step`` with a uniform choice among the mask's legal ids (chance
  sampled inside the environment);
- ``pz raw_env``: the same through the bare ``raw_env``;
- ``pz stacked``: the same through ``stacked_env``, the same stack with PettingZoo's own
  ``OrderEnforcingWrapper`` outermost (no fast path): ``ClassicWrapper``'s gain is the
  difference with ``pettingzoo``;
- ``openspiel``: through the OpenSpiel game (``is_terminal``, ``is_chance_node``,
  ``is_simultaneous_node``, uniform over ``legal_actions``, chance by ``chance_outcomes``
  weights; a deal is dealt in its small steps there);

each game played to its end or cut after the same number of decisions (the adapters'
default truncation for a game whose random play need not end, Kopa). Each round plays
``--games`` games through every variant, one after another in an order that rotates from
round to round, with the same seeds; an adapter's ratio in a round is its decisions per
CPU second over the plain loop's in that round (1.0: as fast; 0.5: half as fast). Printed:
the plain loop's median decisions/s and each adapter's min/median/max ratio over the
rounds. Imports, registration and making the environment or loading the game are left out
(one untimed game first). An adapter whose package is absent is left out.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from copa_ref.adapters import default_truncation
from copa_ref.core import MoverKind, steps, uniform
from copa_ref.games import get_game

_MADE: dict[tuple[str, str, Any], Any] = {}
"""Each adapter's environment or loaded game, made once per game (not timed)."""


def plain(game: Any, n: int, seed: int, cap: int | None) -> int:
    rng = random.Random(seed)
    chance = MoverKind.CHANCE
    decisions = 0
    for _ in range(n):
        made = 0
        for step in steps(game, uniform, rng):
            if step.mover.kind is not chance:
                made += 1
                if made == cap:
                    break
        decisions += made
    return decisions


POLICIES = ("nonzero", "flatnonzero", "sample")
"""How the PettingZoo loops pick among the mask's legal ids (``--policy``), each uniform:
``rng.choice(mask.nonzero()[0])`` (default), ``rng.choice(np.flatnonzero(mask))`` (the
same ids and picks, through NumPy's wrappers), ``env.action_space(agent).sample(mask)``
(PettingZoo's idiom: the space's own Gymnasium generator, not seeded by ``reset``, and
its checks)."""

POLICY = POLICIES[0]


def pettingzoo(game: Any, n: int, seed: int, cap: int | None, kind: str = "env") -> int:
    from copa_ref.adapters import pettingzoo as adapter

    e = _MADE.get(("pettingzoo", game.name, kind))
    if e is None:  # made once, in the untimed first run (as a user makes an env once)
        e = _MADE["pettingzoo", game.name, kind] = getattr(adapter, kind)(game, max_steps=cap)
    rng = random.Random(seed)
    decisions = 0
    policy = POLICIES.index(POLICY)
    for i in range(n):
        e.reset(seed=seed + i)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            mask = obs["action_mask"]
            if policy == 0:
                e.step(rng.choice(mask.nonzero()[0]))
            elif policy == 1:
                e.step(rng.choice(np.flatnonzero(mask)))
            else:
                e.step(e.action_space(agent).sample(mask))
            decisions += 1
    return decisions


def pettingzoo_raw(game: Any, n: int, seed: int, cap: int | None) -> int:
    """As :func:`pettingzoo`, through ``raw_env`` (bare)."""
    return pettingzoo(game, n, seed, cap, "raw_env")


def pettingzoo_stacked(game: Any, n: int, seed: int, cap: int | None) -> int:
    """As :func:`pettingzoo`, through ``stacked_env`` (PettingZoo's own three wrapper
    classes as they are, stacked as the classic environments stack them)."""
    return pettingzoo(game, n, seed, cap, "stacked_env")


def openspiel(game: Any, n: int, seed: int, cap: int | None) -> int:
    import pyspiel

    from copa_ref.adapters import openspiel as adapter

    adapter.register()
    spiel = _MADE.get(("openspiel", game.name, 0))
    if spiel is None:  # loaded once, in the untimed first run
        spiel = _MADE["openspiel", game.name, 0] = pyspiel.load_game(
            adapter.short_name(game), {adapter.LENGTH: 0})
    rng = random.Random(seed)
    players = spiel.num_players()
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
                                     for p in range(players)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            made += 1
        decisions += made
    return decisions


RUNS: tuple[tuple[str, Callable[[Any, int, int, int | None], int]], ...] = (
    ("plain", plain), ("pettingzoo", pettingzoo), ("pz raw_env", pettingzoo_raw),
    ("pz stacked", pettingzoo_stacked), ("openspiel", openspiel))


def measure(game: Any, count: int, rounds: int, seed: int, cap: int | None,
            only: tuple[str, ...] | None = None) -> tuple[dict[str, list[float]], list[str]]:
    """Each variant's decisions per CPU second in each round (*only*: the plain loop and
    these variants), and the variants skipped (their package absent)."""
    runs, skipped = [], []
    for label, run in RUNS:
        if only is not None and label != "plain" and label not in only:
            continue
        try:
            run(game, 1, seed + 10_000, cap)  # imports, registration, the env: not timed
        except ImportError as err:
            skipped.append(f"{label}: {err}")
            continue
        runs.append((label, run))
    speeds: dict[str, list[float]] = {label: [] for label, _ in runs}
    for r in range(rounds):
        shift = r % len(runs)
        for label, run in runs[shift:] + runs[:shift]:
            started = time.process_time()
            decisions = run(game, count, seed + r * count, cap)
            spent = time.process_time() - started
            speeds[label].append(decisions / max(spent, 1e-9))
    return speeds, skipped


TABLES = {
    "pettingzoo": (("pettingzoo", "`env()`"), ("pz raw_env", "`raw_env()`"),
                   ("pz stacked", "`stacked_env()`")),
    "openspiel": (("openspiel", "OpenSpiel"),),
}
"""Each adapter page's columns: the variant and its heading."""


def table(page: str, names: list[str], count: int, rounds: int, seed: int,
          decisions: int | None) -> str:
    """The Markdown table of *page* for the games *names*."""
    columns = TABLES[page]
    lines = ["| game | plain loop, decisions per CPU second (median) | "
             + " | ".join(f"{head}, min / median / max" for _, head in columns) + " |",
             "|---|---:|" + "---:|" * len(columns)]
    for name in names:
        game = get_game(name)
        cap = decisions or default_truncation(game)
        speeds, _ = measure(game, count, rounds, seed, cap,
                            tuple(label for label, _ in columns))
        base = speeds["plain"]
        cells = []
        for label, _ in columns:
            ratios = sorted(s / b for s, b in zip(speeds[label], base, strict=True))
            cells.append(f"{ratios[0]:.2f} / {statistics.median(ratios):.2f} / "
                         f"{ratios[-1]:.2f}")
        lines.append(f"| {game.title} | {statistics.median(base):,.0f} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)


def one_round(names: list[str], count: int, seed: int, decisions: int | None,
              only: tuple[str, ...]) -> dict[str, float]:
    """``--round-json``: each game's loops played once, decisions per CPU second by
    ``game/variant``, with the tree measured (``copa_ref``'s folder) under ``tree``."""
    import copa_ref

    found: dict[str, Any] = {"tree": str(Path(copa_ref.__file__).parents[1])}
    for name in names:
        game = get_game(name)
        speeds, _ = measure(game, count, 1, seed, decisions or default_truncation(game), only)
        for label, values in speeds.items():
            found[f"{name}/{label}"] = values[0]
    return found


def against(tree: str, args: argparse.Namespace) -> None:
    """``--against``: this tree's loops and *tree*'s, interleaved round by round."""
    here = str(Path(__file__).resolve().parents[1])
    trees = {"here": here, "against": str(Path(tree).resolve())}
    found: dict[str, list[dict[str, float]]] = {k: [] for k in trees}
    for r in range(args.rounds):
        order = list(trees) if r % 2 == 0 else list(trees)[::-1]
        for key in order:
            path = os.pathsep.join(p for p in (trees[key], os.environ.get("PYTHONPATH"))
                                   if p)
            command = [sys.executable, __file__, *args.games, "--games", str(args.count),
                       "--seed", str(args.seed + r * args.count), "--variants",
                       args.variants, "--policy", args.policy, "--round-json"]
            if args.decisions:
                command += ["--decisions", str(args.decisions)]
            done = subprocess.run(command, env={**os.environ, "PYTHONPATH": path},
                                  capture_output=True, text=True, check=True)
            measured = json.loads(done.stdout.splitlines()[-1])
            if measured.pop("tree") != trees[key]:  # the tree's copa_ref, not an install
                msg = f"{trees[key]}'s copa_ref was not the one imported"
                raise SystemExit(msg)
            found[key].append(measured)
    print(f"{args.rounds} rounds interleaved, {args.count} random games a loop, default "
          f"config: here {here}, against {trees['against']}; decisions per CPU second "
          "(median) and here's speed over against's, min / median / max")
    for loop in found["here"][0]:
        mine = [m[loop] for m in found["here"]]
        theirs = [m[loop] for m in found["against"]]
        ratios = sorted(a / b for a, b in zip(mine, theirs, strict=True))
        print(f"{loop:22} here {statistics.median(mine):10,.0f}  against "
              f"{statistics.median(theirs):10,.0f}  ratio {ratios[0]:.2f} / "
              f"{statistics.median(ratios):.2f} / {ratios[-1]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["kala"])
    parser.add_argument("--games", dest="count", type=int, default=150,
                        help="games a variant plays in each round")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", choices=POLICIES, default=POLICIES[0],
                        help="how the PettingZoo loops pick among the mask's legal ids")
    parser.add_argument("--decisions", type=int, default=None,
                        help="cut each game after this many decisions (default: none, but "
                             "the adapters' truncation for a game whose random play need "
                             "not end)")
    parser.add_argument("--table", choices=TABLES, default=None,
                        help="print the adapter page's Markdown table")
    parser.add_argument("--against", metavar="TREE", default=None,
                        help="compare this source tree's loops with TREE's (another "
                             "checkout), interleaved round by round")
    parser.add_argument("--variants", default="pettingzoo,openspiel",
                        help="with --against: the loops besides the plain one")
    parser.add_argument("--round-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global POLICY  # a benchmark's one switch
    POLICY = args.policy
    if args.round_json:  # one process of --against: one round in this tree
        print(json.dumps(one_round(args.games, args.count, args.seed, args.decisions,
                                   tuple(args.variants.split(",")))))
        return
    if args.against:
        against(args.against, args)
        return
    if args.table:
        print(table(args.table, args.games, args.count, args.rounds, args.seed,
                    args.decisions))
        return
    print(f"{args.rounds} rounds of {args.count} random games a variant, default config, "
          f"seed {args.seed}, PettingZoo policy {args.policy}: an adapter's decisions per "
          "CPU second over the plain loop's in the same round, min/median/max")
    for name in args.games:
        game = get_game(name)
        cap = args.decisions or default_truncation(game)
        speeds, skipped = measure(game, args.count, args.rounds, args.seed, cap)
        base = speeds.pop("plain")
        capped = f", cut at {cap} decisions" if cap else ""
        print(f"{name:8} plain      {statistics.median(base):10,.0f} decisions/s "
              f"(median){capped}")
        for label, found in speeds.items():
            ratios = sorted(s / b for s, b in zip(found, base, strict=True))
            print(f"{name:8} {label:10} {statistics.median(found):10,.0f} decisions/s  "
                  f"ratio min {ratios[0]:.2f}  median {statistics.median(ratios):.2f}  "
                  f"max {ratios[-1]:.2f}")
        for line in skipped:
            print(f"{name:8} skipped {line}")


if __name__ == "__main__":
    main()
