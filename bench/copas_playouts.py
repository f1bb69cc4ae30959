"""Copas benchmark: random whole-hand playouts with ``apply`` validating every card.

Each hand: one sampled deal, then uniformly random legal card plays until the round is
scored. Rates are per second of this process's CPU time. Two loops: the public functions
(``apply`` validating every card), and the generic loop (``copa_ref.core.steps``: whole
matches, the rules' inner functions on the values they built). Each figure is measured in
interleaved rounds with the fixed baseline loop of ``bench/baseline.py`` and given as its
ratio to it (min/median/max of the rounds), so a regression shows in one run whatever the
load.
Usage: ``python bench/copas_playouts.py [seconds] [rounds]``.
"""

from __future__ import annotations

import random
import sys
import time

from baseline import against_baseline, steps_rate

from copa_ref.copas import GAME, rules
from copa_ref.copas.state import Config, Phase

CAP = 100_000
"""The most actions one match through ``core.steps`` may take (bonus rounds may follow one
another without end, COPAS-Q5; random matches end long before)."""


def run(players: int, seconds: float, seed: int = 1) -> tuple[float, float]:
    """Card plays per CPU second and hands per CPU second for *players* seats."""
    rng = random.Random(seed)
    start = rules.new_game(Config(players=players))
    plays = hands = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        state = rules.apply(start, rules.sample_chance(start, rng))
        while state.phase is Phase.PLAY:
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
            plays += 1
        hands += 1
    elapsed = time.process_time() - t0
    return plays / elapsed, hands / elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(f"Copas: random single hands (one sampled deal, then uniformly random legal card "
          f"plays until the round is scored), {rounds} rounds of {seconds:g} s per figure, "
          "interleaved with the baseline loop. Ratio = rate / baseline loop rate "
          "(min/median/max).")
    for players in (3, 4, 5):
        plays, hands = run(players, seconds)
        print(f"copas {players} players: {plays:,.0f} card plays/s, {hands:,.0f} hands/s")
        config = Config(players=players)
        for name, figure in (
                ("public apply", lambda s, p=players: run(p, s)[0]),
                ("core.steps", lambda s, c=config: steps_rate(GAME, c, s, cap=CAP))):
            low, mid, high, rate = against_baseline(figure, seconds, rounds)
            print(f"  {name:12}: {rate:>9,.0f}/s, x baseline {low:.3f} / {mid:.3f} / {high:.3f}")


if __name__ == "__main__":
    main()
