"""Copas benchmark: random whole-hand playouts with ``apply`` validating every card.

Each hand: one sampled deal, then uniformly random legal card plays until the round is
scored. Usage: ``python bench/copas_playouts.py [seconds]``.
"""

from __future__ import annotations

import random
import sys
import time

from copa_ref.copas import rules
from copa_ref.copas.state import Config, Phase


def run(players: int, seconds: float, seed: int = 1) -> tuple[float, float]:
    """Card plays per second and hands per second for *players* seats."""
    rng = random.Random(seed)
    start = rules.new_game(Config(players=players))
    plays = hands = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = rules.apply(start, rules.sample_chance(start, rng))
        while state.phase is Phase.PLAY:
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
            plays += 1
        hands += 1
    elapsed = time.perf_counter() - t0
    return plays / elapsed, hands / elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"Copas: random single hands (one sampled deal, then uniformly random legal card "
          f"plays until the round is scored), {seconds:g} s per table size, seed 1")
    for players in (3, 4, 5):
        plays, hands = run(players, seconds)
        print(f"copas {players} players: {plays:,.0f} card plays/s, {hands:,.0f} hands/s")


if __name__ == "__main__":
    main()
