"""How many situations the planner reaches on the reference, per game, over every config of
the explore sweep, within its default budget.

    .venv/bin/python bench/planner_reach.py [GAME ...] [--configs N] [--explore]

For each game and each config of ``explore``'s sweep (the first N, default all): a survey of
every situation of the catalogue (:func:`copa_ref.conformance.explore.planner.survey`, the
default budget per situation, or with ``--explore`` the budget a search has within
``explore``, nothing met beforehand, one seed). Prints per game: the config-situation
pairs, how many the config excludes (each with why), how many were found, how many were
not found within the budget (listed), and the seconds the surveys took (the slowest config
too). Plans depend only on the seed; the seconds on the machine.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from copa_ref.conformance.explore.configs import sweep
from copa_ref.conformance.explore.planner import DEFAULT_BUDGET, EXPLORE_BUDGET, survey
from copa_ref.games import GAMES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=sorted(GAMES))
    parser.add_argument("--configs", type=int, default=None)
    parser.add_argument("--explore", action="store_true",
                        help="the budget of a search within explore (200,000 steps)")
    args = parser.parse_args()
    budget = EXPLORE_BUDGET if args.explore else DEFAULT_BUDGET
    for name in args.games:
        configs = sweep(GAMES[name])[:args.configs]
        counts: Counter[str] = Counter()
        missed: Counter[str] = Counter()
        started = time.perf_counter()
        slowest = 0.0
        for swept in configs:
            began = time.perf_counter()
            for search in survey(name, swept.config, budget=budget):
                counts["pairs"] += 1
                if search.found:
                    counts["found"] += 1
                elif search.nodes == 0:
                    counts["excluded"] += 1
                else:
                    counts["budget"] += 1
                    missed[f"{search.situation} ({swept.label})"] += 1
            slowest = max(slowest, time.perf_counter() - began)
        seconds = time.perf_counter() - started
        print(f"{name}: {len(configs)} configs, {counts['pairs']} config-situation pairs: "
              f"{counts['found']} found, {counts['excluded']} excluded by the config, "
              f"{counts['budget']} not found within the budget; {seconds:.1f} s "
              f"(slowest config {slowest:.1f} s)", flush=True)
        for entry in sorted(missed):
            print(f"    not found: {entry}")


if __name__ == "__main__":
    main()
