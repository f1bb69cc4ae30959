"""RONDA benchmark: random whole games with ``apply`` validating every action.

Each game: one sampled arrangement, then uniformly random legal actions (``legal_actions``
asked at every decision, as a random player must) until a player has no beans left. RONDA
has no bound on its length (RONDA-Q14), so every game is capped at ``CAP`` decisions; a
capped game is counted and reported (random games end long before: about 1,000 to 2,000
decisions). Rates are per second of this process's CPU time. Two loops: the public functions
(``apply`` validating every action), and the generic loop (``copa_ref.core.steps``: the
rules' inner functions on the values they built). Each figure is measured in interleaved
rounds with the fixed baseline loop of ``bench/baseline.py`` and given as its ratio to it
(min/median/max of the rounds), so a regression shows in one run whatever the load.
Usage: ``python bench/ronda_playouts.py [seconds] [rounds]``.
"""

from __future__ import annotations

import random
import sys
import time

from baseline import against_baseline, steps_rate

from copa_ref.ronda import GAME, rules
from copa_ref.ronda.state import Config, Phase

CAP = 100_000
"""The most decisions one benchmark game may take."""


def run(config: Config, seconds: float, seed: int = 1) -> tuple[float, float, int]:
    """Decisions per second, games per second and capped games under *config*."""
    rng = random.Random(seed)
    start = rules.new_game(config)
    decisions = games = capped = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        state = rules.apply(start, rules.sample_chance(start, rng))
        for _ in range(CAP):
            if state.phase is Phase.OVER:
                break
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
            decisions += 1
        else:
            capped += 1
        games += 1
    elapsed = time.process_time() - t0
    return decisions / elapsed, games / elapsed, capped


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(f"RONDA: random whole games, {rounds} rounds of {seconds:g} s per figure, "
          "interleaved with the baseline loop. Ratio = rate / baseline loop rate "
          "(min/median/max).")
    for players in (2, 3, 4, 5):
        for name, config in (
            ("original", Config(players=players)),
            ("simpler rules", Config(players=players, relift_after_match=True, max_beans=4,
                                     penalty_beans=False)),
        ):
            rate, games, capped = run(config, seconds)
            print(f"{players} players, {name:13}: {rate:>9,.0f} decisions/s "
                  f"{games:>7,.1f} games/s ({capped} capped at {CAP:,})")
            for label, figure in (
                    ("public apply", lambda s, c=config: run(c, s)[0]),
                    ("core.steps", lambda s, c=config: steps_rate(GAME, c, s, cap=CAP))):
                low, mid, high, rate = against_baseline(figure, seconds, rounds)
                print(f"  {label:12}: {rate:>9,.0f}/s, x baseline "
                      f"{low:.3f} / {mid:.3f} / {high:.3f}")


if __name__ == "__main__":
    main()
