"""Proof that ``explore`` finds what the corpus cannot: per game three rare-situation
mutants that pass the whole corpus, each found and named right within a bounded budget, and
two engines with two or three bugs of different rules, every bug named in one run, with
and without ``load_state``. The rare mutants are each game's (``Catalogue.rare``); the
engines acting on them are built in ``tests/conformance/explore_mutants.py``.

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
from copa_ref.conformance.explore.configs import option_values
from copa_ref.conformance.runner import Runner
from copa_ref.games import GAMES
from tests.conformance.explore_mutants import MULTI, RARE, BuggyEngine, Rare, conditional
from tests.conformance.test_kill_matrix import indistinguishable

MAX_STEPS = {"copas": 30, "kopa": 40, "ronda": 40, "hopper": 100}
"""Each game cut after this many actions (its rare bugs show early in a game); KALA and DA
CAPO play to their end."""

GAMES_BUDGET = {"kala": 30, "da_capo": 80, "copas": 24, "ronda": 60, "kopa": 20, "hopper": 18}
"""The games each exploration may play (from seed 0): the rare configs come with the sweep's
combinations (Copas, Kopa, HOPPER, RONDA) or with the random combinations after it (KALA's
three options, DA CAPO's last step of a line: its two-bug engine with ``load_state`` shows
it at game 59, a random combination, the sweep's one config where both bugs act ending each
game at the first). Each budget leaves games to spare: the last bug of each game's
engines shows at game 22 (KALA), 59 (DA CAPO), 20 (Copas, RONDA), 15 (Kopa), 14 (HOPPER).
RONDA plays 60 so that its three-bug engine passes game 54, where a probe's acceptance
that only a kill-matrix mutant of a known rule gives (RONDA-6's) must not be named
RONDA-4."""


@functools.cache
def corpus() -> list[Case]:
    return load_corpus()


def budget(game: str) -> Settings:
    """The bounded exploration of one game."""
    return Settings(games=GAMES_BUDGET[game], only=(game,),
                    max_steps=MAX_STEPS.get(game, 1000), probes=1, shrink_tries=12)


def explore(engine: Any, game: str, **changes: Any) -> Exploration:
    runner = Runner(lambda: InProcessChannel(lambda: engine), corpus())
    settings = budget(game)
    if changes:
        import attrs

        settings = attrs.evolve(settings, **changes)
    return Explorer(runner, settings, corpus()).explore()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_catalogue_lists_three_rare_mutants(game: str) -> None:
    """Each game's catalogue lists three rare-situation mutants of three rules, each a
    mutant of its kill matrix acting under a config the game admits and the corpus never
    plays."""
    mine = [r for r in RARE if r.game == game]
    assert len(mine) == 3 and len({r.rule for r in mine}) == 3, [r.label for r in mine]
    ref = GAMES[game]
    default = ref.to_json(ref.default_config())
    assert isinstance(default, dict)
    played = [c["config"] for c in select(corpus(), Filters(game=game))]
    values = option_values(ref)
    for rare in mine:
        assert rare.mutant.slug == rare.base
        wanted = {**default, **dict(rare.entry.situation)}
        # the situation with the other options at their default, or (HOPPER's 50 beans for
        # three players need remainder=loose) with one of them changed
        tries = [wanted] + [{**wanted, key: value} for key, options in values.items()
                            if key not in dict(rare.entry.situation) for value in options]
        admitted = [c for c in tries if _admitted(ref, c)]
        assert admitted, f"{rare.label}: no config admits the situation"
        assert rare.when(ref.new_game(ref.config_from_json(admitted[0]))), rare.label
        assert not any(rare.entry.acts(c) for c in played), f"{rare.label}: in the corpus"


def _admitted(game: Any, data: dict[str, Any]) -> bool:
    try:
        game.new_game(game.config_from_json(data))
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("rare", RARE, ids=lambda r: r.label)
def test_rare_mutant_passes_the_corpus(rare: Rare) -> None:
    game = conditional((rare,))
    cases = select(corpus(), Filters(game=rare.game))
    distinct = [c for c in cases if not indistinguishable(GAMES[rare.game], game, c)]
    runner = Runner(lambda: InProcessChannel(lambda: BuggyEngine(game)), corpus())
    failing = [r.id for r in runner.run(distinct) if r.status != "passed"]
    runner.close()
    assert failing == []


GAMES_WITH_MUTANTS = sorted(MULTI)


@pytest.mark.parametrize("game", GAMES_WITH_MUTANTS)
def test_three_rare_bugs_each_found_and_named_without_load_state(game: str) -> None:
    """The engine with all three rare bugs of the game: each is found, named right, shrunk
    to a minimal case that replays with its rule, in one bounded run."""
    bugs = MULTI[game][1]
    assert len({b.rule for b in bugs}) == 3
    engine = BuggyEngine(conditional(bugs))
    found = explore(engine, game, load_state=False)
    assert found.load_state is False
    assert found.errored == 0, found.errors
    assert sorted(found.differences) == sorted(b.rule for b in bugs), {
        k: (d.found, d.result.reason) for k, d in found.differences.items()}
    for bug in bugs:
        difference = found.differences[bug.rule]
        alone = conditional((bug,))
        runner = Runner(lambda alone=alone: InProcessChannel(lambda: BuggyEngine(alone)),
                        corpus())
        again = runner.run_case(difference.case)
        runner.close()
        assert (again.status, again.broken_rule) == ("failed", bug.rule), bug.label
        # the minimal case keeps the situation the bug needs, and no more players
        assert difference.shrink["players_after"] <= difference.shrink["players_before"]


@pytest.mark.parametrize("game", GAMES_WITH_MUTANTS)
def test_two_rare_bugs_named_with_load_state(game: str) -> None:
    """The engine with two rare bugs and the load_state feature: both named in one run,
    each step after a difference tested from the reference's own position."""
    bugs = MULTI[game][0]
    found = explore(BuggyEngine(conditional(bugs), load_state=True), game)
    assert found.load_state is True
    assert found.errored == 0, found.errors
    # Every bug is named, and no other rule: past a difference, a report one misreading of
    # a known difference's rule gives alone is that difference again (Kopa's skipping-up
    # showing a card on another suit's pile is KOPA-12, not KOPA-11).
    assert sorted(found.differences) == sorted(b.rule for b in bugs), {
        k: (d.found, d.result.reason) for k, d in found.differences.items()}
    assert found.untested_past_difference() == {}
