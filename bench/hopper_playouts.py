"""HOPPER benchmark: random whole games with ``apply`` validating every action.

Each game: uniformly random legal shots (``legal_actions`` at every decision, as a random
player must) and landings drawn by ``sample_chance`` from the default shot model, until the
game is over; decisions (shots) and chance actions (landings) are counted apart. Neither
ending bounds a game (HOPPER-Q9): a game is cut at ``CAP`` actions (never reached with the
default model; a cut game would be reported). Rates are per second of this process's CPU
time (``time.process_time``), so a machine shared with other work does not distort them.
Usage:
``python bench/hopper_playouts.py [seconds]``.
"""

from __future__ import annotations

import random
import sys
import time

from copa_ref.hopper import rules
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
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for ending in Ending:
        for players in (2, 5):
            rates = run(Config(players=players, ending=ending), seconds)
            print(f"hopper {ending.value} {players} players: {rates['actions/s']:>8,.0f} "
                  f"actions/s ({rates['decisions/s']:,.0f} decisions/s, "
                  f"{rates['chance/s']:,.0f} chance/s), {rates['games/s']:,.1f} games/s"
                  + (f", {rates['cut']} cut" if rates["cut"] else ""))


if __name__ == "__main__":
    main()
