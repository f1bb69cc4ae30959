"""The fixed baseline loop the per-game benchmarks divide by, and the loop through
``copa_ref.core.steps`` they time (a benchmark helper, not a test).

A script in ``bench/`` imports it by name (``python bench/kopa_playouts.py`` puts ``bench/``
on the path)::

    from baseline import against_baseline, steps_rate

    low, median, high, rate = against_baseline(
        lambda seconds: steps_rate(GAME, config, seconds, cap=2000), 1.0, 3)

The baseline is the same work in every version of the project: a plain random playout of a
toy game (a tuple state rebuilt at every step, the legal moves listed, one chosen at random),
the shape of the reference's own loops before any of their speed-ups. Its rate moves with the
machine only, so a game's rate divided by it, round by round, shows a regression of the
game's code in one run whatever the load.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from copa_ref.core import steps, uniform

__all__ = ["against_baseline", "baseline", "steps_rate"]


def baseline(seconds: float, seed: int = 1) -> float:
    """Steps per CPU second of the fixed baseline loop."""
    rng = random.Random(seed)
    done = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        state = (0,) * 10
        for _ in range(200):
            legal = [i for i, v in enumerate(state) if v < 5]
            if not legal:
                break
            i = rng.choice(legal)
            state = (*state[:i], state[i] + 1, *state[i + 1:])
            done += 1
    return done / (time.process_time() - t0)


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


def steps_rate(game: Any, config: Any, seconds: float, *, cap: int, seed: int = 1) -> float:
    """Actions (chance actions included) per CPU second of random games through
    ``copa_ref.core.steps`` under *config*, each game cut at *cap* steps: the rules' inner
    functions on the values they built."""
    rng = random.Random(seed)
    actions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for _ in steps(game, uniform, rng, config=config, max_steps=cap):
            actions += 1
    return actions / (time.process_time() - t0)
