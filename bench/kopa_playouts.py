"""Kopa benchmark: random-playout decisions per second with ``apply`` validating every action.

Each playout: one sampled deal, then uniformly random legal actions (``legal_actions`` at
every decision, as a random player must) until the round ends or a cap of 2,000 decisions
(a pass is always legal, so a random round need not end, KOPA-Q14); then a new match.
The time is cut into slices of a quarter of a second: the rate over all of them, and the
best slice's, which on a machine shared with other work is the nearer to a quiet machine's.
Usage: ``python bench/kopa_playouts.py [seconds]``.
"""

from __future__ import annotations

import os
import random
import sys
import time

from copa_ref.kopa import rules
from copa_ref.kopa.state import Config, Phase

CAP = 2000
SLICE = 0.25


def run(players: int, seconds: float, seed: int = 1) -> tuple[float, float, float]:
    """Decisions per second (over the whole time and in the best slice) and rounds per
    second for *players* seats."""
    rng = random.Random(seed)
    start = rules.new_game(Config(players=players))
    decisions = rounds = 0
    best = 0.0
    playing = (Phase.PLAY, Phase.DRAWN)
    t0 = time.perf_counter()
    slice_start, slice_decisions = t0, 0
    while time.perf_counter() - t0 < seconds:
        state = rules.apply(start, rules.sample_chance(start, rng))
        for _ in range(CAP):
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
            decisions += 1
            if state.phase not in playing:
                break
        rounds += 1
        now = time.perf_counter()
        if now - slice_start >= SLICE:
            best = max(best, (decisions - slice_decisions) / (now - slice_start))
            slice_start, slice_decisions = now, decisions
    elapsed = time.perf_counter() - t0
    return decisions / elapsed, best, rounds / elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Kopa: random rounds (one sampled deal, then uniformly random legal actions, apply "
          f"validating each, to the round's end or {CAP:,} decisions), {seconds:g} s per table "
          f"size, seed 1; load average {load} on {os.cpu_count()} cores")
    for players in (2, 3, 4, 5):
        decisions, best, rounds = run(players, seconds)
        print(f"kopa {players} players: {decisions:,.0f} decisions/s (best {SLICE:g}-s slice "
              f"{best:,.0f}), {rounds:,.0f} rounds/s")


if __name__ == "__main__":
    main()
