"""Kopa benchmark: random-playout decisions per CPU second, against a fixed baseline loop.

Each playout: one sampled deal, then uniformly random legal actions until the round ends or
a cap of 2,000 decisions (a pass is always legal, so a random round need not end, KOPA-Q14);
then a new match. Two loops: the public functions (``apply`` validating every action,
``legal_actions`` at every decision, as a random player outside the library must), and the
generic loop (``copa_ref.core.steps``: the rules' inner functions on the values they built).
Each figure is measured in interleaved rounds with the fixed baseline loop below and given
as its ratio to it (min/median/max of the rounds) and as a rate.
Usage: ``python bench/kopa_playouts.py [seconds] [rounds]``.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable

from copa_ref.core import steps, uniform
from copa_ref.kopa import GAME, rules
from copa_ref.kopa.state import Config, Phase

CAP = 2000


def public(players: int, seconds: float, seed: int = 1) -> float:
    """Decisions per CPU second through the public functions."""
    rng = random.Random(seed)
    start = rules.new_game(Config(players=players))
    decisions = 0
    playing = (Phase.PLAY, Phase.DRAWN)
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        state = rules.apply(start, rules.sample_chance(start, rng))
        for _ in range(CAP):
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
            decisions += 1
            if state.phase not in playing:
                break
    return decisions / (time.process_time() - t0)


def generic(players: int, seconds: float, seed: int = 1) -> float:
    """Actions per CPU second through ``copa_ref.core.steps`` (capped matches)."""
    rng = random.Random(seed)
    config = Config(players=players)
    actions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for _ in steps(GAME, uniform, rng, config=config, max_steps=CAP):
            actions += 1
    return actions / (time.process_time() - t0)


# -- the fixed baseline loop -----------------------------------------------------------------
# The same work in every version of the project: a plain random playout of a toy game (a
# tuple state rebuilt at every step, the legal moves listed, one chosen at random), the
# shape of the reference's own loops before any of their speed-ups. Its rate moves with the
# machine only, so the game's rate divided by it, round by round, shows a regression of the
# game's code in one run whatever the load.


def baseline(seconds: float, seed: int = 1) -> float:
    """Steps per CPU second of the fixed baseline loop."""
    rng = random.Random(seed)
    steps = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        state = (0,) * 10
        for _ in range(200):
            legal = [i for i, v in enumerate(state) if v < 5]
            if not legal:
                break
            i = rng.choice(legal)
            state = (*state[:i], state[i] + 1, *state[i + 1:])
            steps += 1
    return steps / (time.process_time() - t0)


def against_baseline(figure: Callable[[float], float], seconds: float, rounds: int
                     ) -> tuple[float, float, float, float]:
    """*figure* (a rate measured over *seconds*) divided by the baseline loop's rate, in
    *rounds* interleaved rounds: (min, median, max) of the ratios, and the median rate."""
    ratios, rates = [], []
    for _ in range(rounds):
        base = baseline(seconds / 2)
        rate = figure(seconds)
        ratios.append(rate / base)
        rates.append(rate)
    return min(ratios), statistics.median(ratios), max(ratios), statistics.median(rates)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Kopa: random rounds (to the round's end or {CAP:,} decisions), {rounds} rounds of "
          f"{seconds:g} s per figure, interleaved with the baseline loop; load average {load} "
          f"on {os.cpu_count()} cores. Ratio = rate / baseline loop rate (min/median/max).")
    for players in (2, 3, 4, 5):
        for name, loop in (("public apply", public), ("core.steps", generic)):
            low, mid, high, rate = against_baseline(
                lambda s, loop=loop, p=players: loop(p, s), seconds, rounds)
            print(f"kopa {players} players, {name:12}: {rate:>9,.0f}/s, x baseline "
                  f"{low:.3f} / {mid:.3f} / {high:.3f}")


if __name__ == "__main__":
    main()
