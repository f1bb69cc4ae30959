"""How fast ``copa-ref conformance explore`` checks an engine, per game, over pipes.

    .venv/bin/python bench/explore_speed.py [--engine "CMD"] [--games N] [--repeat R]
                                            [--before DIR] [--jobs N --jobs-games G]

For each game: N seeded games explored against the engine (default: the reference,
``copa-ref engine``, over the subprocess protocol; games cut at 200 actions, two refusal
probes a game; the engine's start-up and the sweep of configs excluded), R times; prints
games/s and checked steps/s as min / median / max over the repeats (the machine is noisy:
read the median), and the same for every game together (6N games).

``--before DIR`` (a folder holding another copy of the ``copa_ref`` package, say a
``git worktree`` of an older commit): each round measures, in two processes one right
after the other (the order alternating from round to round), that code (runner and engine
both) and this checkout's, on the same seeded games; printed per game: the median checked
steps/s and games/s of each and the min / median / max over the rounds of the ratio
(this checkout's over the other's, taken within a round). On a loaded machine only the
ratios mean something.

``--jobs N``: ``G`` games (default 200; the six games in turn) explored with ``--jobs 1`` and
with ``--jobs N`` (:func:`~copa_ref.conformance.explore.jobs.run_jobs`, workers' start-up
included), alternating, R times: games/s of each and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = f"{Path(sys.executable).parent / 'copa-ref'} engine"
ALL = "all"


def once(engine: str, game: str | None, games: int) -> tuple[float, float, int]:
    """One exploration: (games/s, steps/s, differences), the engine's start-up and the
    sweep of its configs excluded."""
    from copa_ref.conformance.channel import SubprocessChannel
    from copa_ref.conformance.corpus import load_corpus
    from copa_ref.conformance.explore import Explorer, Settings
    from copa_ref.conformance.runner import Runner

    corpus = load_corpus()
    runner = Runner(lambda: SubprocessChannel(engine, timeout=30), corpus)
    runner.start()
    settings = Settings(games=games, only=() if game is None else (game,), max_steps=200,
                        probes=2)
    explorer = Explorer(runner, settings, corpus)
    explorer.prepare()  # the configs swept: once an exploration, not a step's work
    started = time.perf_counter()
    state = explorer.explore()
    seconds = time.perf_counter() - started
    return state.games / seconds, state.steps / seconds, len(state.differences)


def _names() -> list[str]:
    from copa_ref.games import GAMES

    return [*sorted(GAMES), ALL]


def _spread(values: list[float], digits: int = 1) -> str:
    return (f"{min(values):.{digits}f} / {statistics.median(values):.{digits}f} / "
            f"{max(values):.{digits}f}")


def _measure(engine: str, games: int) -> dict[str, list[float]]:
    """Every game's (and all games') games/s, steps/s and differences, this process's
    code."""
    return {name: list(once(engine, None if name == ALL else name,
                            games * (6 if name == ALL else 1)))
            for name in _names()}


def _in_process(path: Path, engine: str, games: int) -> dict[str, list[float]]:
    """:func:`_measure` with the code of *path* (runner and engine), in a process of its
    own."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    done = subprocess.run([sys.executable, __file__, "--measure", "--engine", engine,
                           "--games", str(games)], env=env, capture_output=True, text=True,
                          check=True, cwd=path)
    measured: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return measured


def plain(engine: str, games: int, repeat: int) -> None:
    print(f"engine: {engine}; {games} games a run, {repeat} runs")
    print(f"{'game':8} {'games/s (min / median / max)':>30} {'steps/s (min / median / max)':>30}")
    for name in _names():
        rates = [once(engine, None if name == ALL else name, games * (6 if name == ALL else 1))
                 for _ in range(repeat)]
        found = {r[2] for r in rates}
        note = "" if found == {0} else f"  (differences found: {sorted(found)})"
        print(f"{name:8} {_spread([r[0] for r in rates]):>30} "
              f"{_spread([r[1] for r in rates]):>30}{note}")


def against(before: Path, engine: str, games: int, repeat: int) -> None:
    rounds: list[tuple[dict[str, list[float]], dict[str, list[float]]]] = []
    for number in range(repeat):
        if number % 2:
            now = _in_process(ROOT, engine, games)
            old = _in_process(before, engine, games)
        else:
            old = _in_process(before, engine, games)
            now = _in_process(ROOT, engine, games)
        rounds.append((old, now))
        print(f"round {number + 1} of {repeat}: all games {old[ALL][1]:.0f} -> "
              f"{now[ALL][1]:.0f} checked steps/s", file=sys.stderr)
    print(f"engine: {engine} (each code's); {games} games of each game a run (all: "
          f"{6 * games}), 200 actions, 2 probes; {repeat} rounds, before = {before}")
    print("| game | steps/s before | steps/s after | ratio (min / median / max) "
          "| games/s before | games/s after |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in _names():
        old_steps = [o[name][1] for o, _ in rounds]
        new_steps = [n[name][1] for _, n in rounds]
        ratios = [n[name][1] / o[name][1] for o, n in rounds]
        old_games = [o[name][0] for o, _ in rounds]
        new_games = [n[name][0] for _, n in rounds]
        found = {int(r[name][2]) for pair in rounds for r in pair}
        note = "" if found == {0} else f" (differences found: {sorted(found)})"
        print(f"| {name} | {statistics.median(old_steps):.0f} | "
              f"{statistics.median(new_steps):.0f} | {_spread(ratios, 2)} | "
              f"{statistics.median(old_games):.1f} | {statistics.median(new_games):.1f} |"
              f"{note}")


def scaling(engine: str, jobs: int, games: int, repeat: int) -> None:
    from copa_ref.conformance.explore import Settings
    from copa_ref.conformance.explore.jobs import run_jobs

    settings = Settings(games=games, max_steps=200, probes=2)
    rates: dict[int, list[float]] = {1: [], jobs: []}
    for number in range(repeat):
        for count in ((1, jobs) if number % 2 == 0 else (jobs, 1)):
            started = time.perf_counter()
            lines = run_jobs(engine, 30.0, settings, count, lambda *_: None)
            seconds = time.perf_counter() - started
            footer: Any = lines[-1]
            assert footer["games"] == games and not footer["errored"], footer["errors"]
            rates[count].append(games / seconds)
    ratios = [n / o for o, n in zip(rates[1], rates[jobs], strict=True)]
    print(f"engine: {engine}; {games} games (the six games in turn), 200 actions, 2 probes, "
          f"workers' start-up included; {repeat} rounds on {os.cpu_count()} cores")
    print(f"| jobs | games/s (min / median / max) |\n|---|---:|\n"
          f"| 1 | {_spread(rates[1])} |\n| {jobs} | {_spread(rates[jobs])} |")
    print(f"--jobs {jobs} over --jobs 1: {_spread(ratios, 2)} (min / median / max), "
          f"{statistics.median(ratios) / jobs:.2f} x {jobs}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default=REFERENCE)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--before", type=Path, default=None)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--jobs-games", type=int, default=200)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(_measure(args.engine, args.games)))
    elif args.jobs is not None:
        scaling(args.engine, args.jobs, args.jobs_games, args.repeat)
    elif args.before is not None:
        against(args.before.resolve(), args.engine, args.games, args.repeat)
    else:
        plain(args.engine, args.games, args.repeat)


if __name__ == "__main__":
    main()
