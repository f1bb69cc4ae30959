"""HOPPER benchmark: random whole games with ``apply`` validating every action.

Each game: uniformly random legal shots (``legal_actions`` at every decision, as a random
player must) and landings drawn by ``sample_chance`` from the default shot model, until the
game is over; decisions (shots) and chance actions (landings) are counted apart. Neither
ending bounds a game (HOPPER-Q9): a game is cut at ``CAP`` actions (never reached with the
default model; a cut game would be reported). Rates are per second of this process's CPU
time (``time.process_time``). Two loops: the public functions, and the generic loop
(``copa_ref.core.steps``: the rules' inner functions on the values they built). Each figure
is measured in interleaved rounds with the fixed baseline loop of ``bench/baseline.py`` and
given as its ratio to it (min/median/max of the rounds), so a regression shows in one run
whatever the load.
Usage: ``python bench/hopper_playouts.py [seconds] [rounds]``.
"""

from __future__ import annotations

import random
import sys
import time

from baseline import against_baseline, steps_rate

from copa_ref.hopper import GAME, rules
from copa_ref.hopper.state import Config, Ending, Phase

CAP = 100_000
"""The most actions one game may take before it is cut."""


def run(config: Config, seconds: float, seed: int = 1) -> dict[str, float]:
    """Rates for random games under *config*: actions/s, decisions/s, chance/s, games/s."""
    rng = random.Random(seed)
    start = rules.new_game(config)
    decisions = chances = games = cut = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        state = start
        for _ in range(CAP):
            phase = state.phase
            if phase is Phase.OVER:
                break
            if phase is Phase.LAND:
                state = rules.apply(state, rules.sample_chance(state, rng))
                chances += 1
            else:
                state = rules.apply(state, rng.choice(rules.legal_actions(state)))
                decisions += 1
        else:
            cut += 1
        games += 1
    elapsed = time.process_time() - t0
    return {"actions/s": (decisions + chances) / elapsed, "decisions/s": decisions / elapsed,
            "chance/s": chances / elapsed, "games/s": games / elapsed, "cut": cut}


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(f"HOPPER: random whole games, {rounds} rounds of {seconds:g} s per figure, "
          "interleaved with the baseline loop. Ratio = rate / baseline loop rate "
          "(min/median/max).")
    for ending in Ending:
        for players in (2, 5):
            config = Config(players=players, ending=ending)
            rates = run(config, seconds)
            print(f"hopper {ending.value} {players} players: {rates['actions/s']:>8,.0f} "
                  f"actions/s ({rates['decisions/s']:,.0f} decisions/s, "
                  f"{rates['chance/s']:,.0f} chance/s), {rates['games/s']:,.1f} games/s"
                  + (f", {rates['cut']} cut" if rates["cut"] else ""))
            for name, figure in (
                    ("public apply", lambda s, c=config: run(c, s)["actions/s"]),
                    ("core.steps", lambda s, c=config: steps_rate(GAME, c, s, cap=CAP))):
                low, mid, high, rate = against_baseline(figure, seconds, rounds)
                print(f"  {name:12}: {rate:>9,.0f} actions/s, x baseline "
                      f"{low:.3f} / {mid:.3f} / {high:.3f}")


if __name__ == "__main__":
    main()
