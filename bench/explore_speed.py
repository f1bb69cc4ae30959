"""How fast ``copa-ref conformance explore`` checks an engine, per game, over pipes.

    .venv/bin/python bench/explore_speed.py [--engine "CMD"] [--games N] [--repeat R]

For each game: N seeded games explored against the engine (default: the reference,
``copa-ref engine``, over the subprocess protocol; games cut at 200 actions, two refusal
probes a game), R times; prints games/s and checked steps/s as min / median / max over the
repeats (the machine is noisy: read the median), and the same for every game together.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from copa_ref.conformance.channel import SubprocessChannel
from copa_ref.conformance.corpus import load_corpus
from copa_ref.conformance.explore import Explorer, Settings
from copa_ref.conformance.runner import Runner
from copa_ref.games import GAMES

REFERENCE = f"{Path(sys.executable).parent / 'copa-ref'} engine"


def once(engine: str, game: str | None, games: int) -> tuple[float, float, int]:
    """One exploration: (games/s, steps/s, differences), the engine's start-up excluded."""
    corpus = load_corpus()
    runner = Runner(lambda: SubprocessChannel(engine, timeout=30), corpus)
    runner.start()
    settings = Settings(games=games, only=() if game is None else (game,), max_steps=200,
                        probes=2)
    started = time.perf_counter()
    state = Explorer(runner, settings, corpus).explore()
    seconds = time.perf_counter() - started
    return state.games / seconds, state.steps / seconds, len(state.differences)


def _spread(values: list[float]) -> str:
    return (f"{min(values):8.1f} / {statistics.median(values):8.1f} / "
            f"{max(values):8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default=REFERENCE)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"engine: {args.engine}; {args.games} games a run, {args.repeat} runs")
    print(f"{'game':8} {'games/s (min / median / max)':>30} {'steps/s (min / median / max)':>30}")
    for game in [*sorted(GAMES), None]:
        rates = [once(args.engine, game, args.games * (6 if game is None else 1))
                 for _ in range(args.repeat)]
        found = {r[2] for r in rates}
        note = "" if found == {0} else f"  (differences found: {sorted(found)})"
        print(f"{game or 'all':8} {_spread([r[0] for r in rates]):>30} "
              f"{_spread([r[1] for r in rates]):>30}{note}")


if __name__ == "__main__":
    main()
