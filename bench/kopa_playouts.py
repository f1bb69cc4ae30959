"""Kopa benchmark: random-playout decisions per CPU second, against a fixed baseline loop.

Each playout: one sampled deal, then uniformly random legal actions until the round ends or
a cap of 2,000 decisions (a pass is always legal, so a random round need not end, KOPA-Q14);
then a new match. Two loops: the public functions (``apply`` validating every action,
``legal_actions`` at every decision, as a random player outside the library must), and the
generic loop (``copa_ref.core.steps``: the rules' inner functions on the values they built).
Each figure is measured in interleaved rounds with the fixed baseline loop of
``bench/baseline.py`` and given as its ratio to it (min/median/max of the rounds) and as a
rate.
Usage: ``python bench/kopa_playouts.py [seconds] [rounds]``.
"""

from __future__ import annotations

import os
import random
import sys
import time

from baseline import against_baseline, steps_rate

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


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Kopa: random rounds (to the round's end or {CAP:,} decisions), {rounds} rounds of "
          f"{seconds:g} s per figure, interleaved with the baseline loop; load average {load} "
          f"on {os.cpu_count()} cores. Ratio = rate / baseline loop rate (min/median/max).")
    for players in (2, 3, 4, 5):
        config = Config(players=players)
        for name, figure in (
                ("public apply", lambda s, p=players: public(p, s)),
                ("core.steps", lambda s, c=config: steps_rate(GAME, c, s, cap=CAP))):
            low, mid, high, rate = against_baseline(figure, seconds, rounds)
            print(f"kopa {players} players, {name:12}: {rate:>9,.0f}/s, x baseline "
                  f"{low:.3f} / {mid:.3f} / {high:.3f}")


if __name__ == "__main__":
    main()
