"""Random-playout throughput of every game, against fixed baselines in the same process
(a benchmark, not a test).

    .venv/bin/python bench/playouts.py [GAME ...] [--seconds S] [--rounds R] [--seed N]
        [--cap C]

For each game: from a fixed seed, play whole games with the default config and uniformly
random players, two ways, in interleaved rounds of about *S* CPU seconds each:

* ``steps``: the generic loop ``copa_ref.core.steps``. It checks the start state as it
  enters, then calls the game's inner functions with the states they built and the actions
  ``legal_actions`` offered (validated once: every action is still checked against its
  rules by ``apply``, none pays the exact-type checks again);
* ``plain``: the plain loop of the shape every caller wrote before, through the public
  functions only (``to_move``, ``legal_actions``, ``joint``, ``sample_chance``, ``apply``,
  each checking its arguments), the fixed baseline of the library's own code.

Every game is cut at ``CAP`` decisions (a Kopa match between uniformly random players need
not end: ``Game.random_play_ends`` is false for it); the games cut are counted and reported.

Between them runs a yardstick that never changes with the library: random tic-tac-toe
games in plain Python (this file), the machine's own speed. Each figure is given per CPU
second and as ratios per round (min / median / max): ``steps/plain`` (what validating once
gains) and ``steps/yardstick`` and ``plain/yardstick`` (comparable between runs and
machines of one kind: a regression of the rules shows there in one run, whatever the load).
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from copa_ref.core import MoverKind, steps, uniform
from copa_ref.games import GAMES, get_game

CAP = 2_000
"""The decisions after which a benchmark game is cut (counted, and reported)."""

_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
          (2, 4, 6))


def yardstick(rng: random.Random) -> int:
    """One random game of tic-tac-toe on a list (the fixed baseline); its decisions."""
    board = [0] * 9
    player = 1
    for move in range(9):
        free = [i for i in range(9) if not board[i]]
        board[rng.choice(free)] = player
        if any(board[a] == board[b] == board[c] == player for a, b, c in _LINES):
            return move + 1
        player = -player
    return 9


def with_steps(game: Any, config: Any, cap: int, rng: random.Random) -> tuple[int, bool]:
    """One game through ``copa_ref.core.steps``, cut at *cap* decisions: its decisions, and
    whether it was cut."""
    decisions = 0
    for step in steps(game, uniform, rng, config=config):
        if step.mover.kind is not MoverKind.CHANCE:
            decisions += 1
            if decisions >= cap:
                return decisions, game.outcome(step.after) is None
    return decisions, False


def plain(game: Any, config: Any, cap: int, rng: random.Random) -> tuple[int, bool]:
    """One game through the public functions only, cut at *cap* decisions: its decisions,
    and whether it was cut."""
    state = game.new_game(config)
    decisions = 0
    while decisions < cap:
        mover = game.to_move(state)
        kind = mover.kind
        if kind is MoverKind.NOBODY:
            return decisions, False
        if kind is MoverKind.CHANCE:
            action = game.sample_chance(state, rng)
        elif kind is MoverKind.SEAT:
            action = rng.choice(game.legal_actions(state, None))
        elif kind is MoverKind.JOINT:
            action = game.joint(state, tuple(rng.choice(game.legal_actions(state, seat))
                                             for seat in mover.seats))
        else:
            able = [s for s in mover.seats if game.legal_actions(state, s)]
            action = rng.choice(game.legal_actions(state, rng.choice(able)))
        decisions += kind is not MoverKind.CHANCE
        state = game.apply(state, action)
    return decisions, game.outcome(state) is None


def rate(play: Callable[[random.Random], tuple[int, bool]], rng: random.Random,
         seconds: float) -> tuple[float, int]:
    """Decisions per CPU second of the games played by *play* for about *seconds*, and how
    many of them were cut."""
    decisions = cut = 0
    started = time.process_time()
    while True:
        made, stopped = play(rng)
        decisions += made
        cut += stopped
        spent = time.process_time() - started
        if spent >= seconds:
            return decisions / spent, cut


def ruled(rng: random.Random, seconds: float) -> float:
    """Decisions per CPU second of the yardstick for about *seconds*."""
    return rate(lambda r: (yardstick(r), False), rng, seconds)[0]


def spread(values: list[float]) -> str:
    return f"{min(values):.2f}/{statistics.median(values):.2f}/{max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"games to time (default: all of {sorted(GAMES)})")
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=int, default=CAP, help="decisions before a game is cut")
    args = parser.parse_args()
    unknown = set(args.games) - set(GAMES)
    if unknown:
        parser.error(f"unknown games {sorted(unknown)}; known: {sorted(GAMES)}")
    print(f"random whole games, default config, seed {args.seed}, {args.rounds} interleaved "
          f"rounds of {args.seconds:g} CPU s each, games cut at {args.cap:,} decisions; "
          "decisions per CPU second (medians), ratios per round (min/median/max), games cut "
          "(steps + plain, all rounds)")
    print(f"{'game':8} {'steps/s':>10} {'plain/s':>10} {'steps/plain':>16} "
          f"{'steps/yardstick':>16} {'plain/yardstick':>16} {'cut':>6}")
    ruler = random.Random(args.seed)
    for name in args.games or sorted(GAMES):
        game: Any = get_game(name)
        config = game.default_config()
        fast, slow = random.Random(args.seed), random.Random(args.seed)
        by_steps = functools.partial(with_steps, game, config, args.cap)
        by_plain = functools.partial(plain, game, config, args.cap)
        rows: list[tuple[float, float, float]] = []
        cut = 0
        for _ in range(args.rounds):
            base = ruled(ruler, args.seconds / 2)
            a, cut_a = rate(by_steps, fast, args.seconds)
            b, cut_b = rate(by_plain, slow, args.seconds)
            base = (base + ruled(ruler, args.seconds / 2)) / 2
            rows.append((a, b, base))
            cut += cut_a + cut_b
        print(f"{name:8} {statistics.median(r[0] for r in rows):>10,.0f} "
              f"{statistics.median(r[1] for r in rows):>10,.0f} "
              f"{spread([a / b for a, b, _ in rows]):>16} "
              f"{spread([a / y for a, _, y in rows]):>16} "
              f"{spread([b / y for _, b, y in rows]):>16} {cut:>6}")


if __name__ == "__main__":
    main()
