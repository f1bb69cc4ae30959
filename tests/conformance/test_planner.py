"""The planner: a sequence searched on the reference that meets a situation random play
meets by luck, replayed through the public functions."""

from __future__ import annotations

from typing import Any

import pytest

from copa_ref.conformance.explore.planner import Budget, Search, plan, survey
from copa_ref.conformance.explore.situations import catalogue
from copa_ref.games import GAMES

SMALL = Budget(nodes=60_000, seconds=20.0)
"""Bounded in steps (the seconds only guard a loaded machine)."""


def _situation(game: str, name: str) -> Any:
    [found] = [s for s in catalogue(game) if s.name == name]
    return found


def _search(game: str, name: str, budget: Budget = SMALL, **options: Any) -> Search:
    g = GAMES[game]
    config = g.config_type(**options)
    return plan(g, config, _situation(game, name), budget=budget)


def _replays(search: Search) -> None:
    """The plan's actions, applied through the public ``apply`` from a new game, give its
    states, and its last step meets the situation."""
    assert search.plan is not None
    found = search.plan
    game = found.game
    state = game.new_game(found.config)
    assert game.dumps(state) == game.dumps(found.states[0])
    for action, expected in zip(found.actions, found.states[1:], strict=True):
        after = game.apply(state, action)
        assert game.dumps(after) == game.dumps(expected)
        before, state = state, after
    assert _situation(search.game, search.situation).fires(before, found.actions[-1], state)


@pytest.mark.parametrize(("game", "name", "options"), [
    ("copas", "COPAS-19/all-tricks-one-seat", {}),
    ("copas", "COPAS-17/all-ten-copas", {}),
    ("copas", "COPAS-18/five-player-bonus-round", {"players": 5}),
    ("kopa", "KOPA-18/stock-runs-out", {"players": 2}),
    ("kopa", "KOPA-18/pass-on-empty-stock", {"players": 2}),
    ("ronda", "RONDA-13/winner-plays-last-bean", {}),
    ("da_capo", "DACAPO-13/out-while-others-bid", {"players": 3}),
    ("kopa", "KOPA-22/fires", {"players": 5}),
    ("kopa", "KOPA-22/exactly-the-target", {"players": 5}),
    ("hopper", "HOPPER-11/fires", {}),
])
def test_rare_situation_planned_and_replayed(game: str, name: str,
                                             options: dict[str, Any]) -> None:
    search = _search(game, name, **options)
    assert search.found, search.why
    assert search.nodes <= SMALL.nodes
    _replays(search)


def test_random_play_does_not_meet_what_the_planner_meets() -> None:
    """The all-tricks round: 200 random Copas rounds never hold it."""
    import random

    from copa_ref.core.loop import steps, uniform

    game = GAMES["copas"]
    every = _situation("copas", "COPAS-19/all-tricks-one-seat")
    rounds = met = 0
    rng = random.Random(11)
    while rounds < 200:
        for step in steps(game, uniform, rng):
            if step.before.phase.name == "PLAY" and step.after.phase.name != "PLAY":
                rounds += 1
            met += every.fires(step.before, step.action, step.after)
    assert met == 0


def test_excluded_by_the_config_says_why() -> None:
    search = _search("da_capo", "DACAPO-13/out-while-others-bid", players=2)
    assert not search.found and search.nodes == 0
    assert search.why is not None and "three players" in search.why
    search = _search("kopa", "KOPA-18/stock-runs-out")
    assert search.why is not None and "two players" in search.why


def test_budget_runs_out_with_a_reason() -> None:
    search = _search("copas", "COPAS-21/tied-burst-totals", Budget(nodes=500, seconds=5.0))
    assert not search.found
    assert search.nodes <= 500 + 64
    assert search.why is not None and "not found within the budget" in search.why


def test_same_seed_same_plan() -> None:
    game = GAMES["ronda"]
    situation = _situation("ronda", "RONDA-13/winner-plays-last-bean")
    first = plan(game, game.default_config(), situation, budget=SMALL, seed=4)
    again = plan(game, game.default_config(), situation, budget=SMALL, seed=4)
    assert first.plan is not None and again.plan is not None
    assert [game.dumps(a) for a in first.plan.actions] == [
        game.dumps(a) for a in again.plan.actions]


def test_a_search_is_bounded_in_nodes_not_time() -> None:
    """Reproducibility: the budget is in nodes, so two searches with the same seed give the
    same result and the same why (no timing in it), however long each took; time is only
    a guard, and a search it cuts says so."""
    budget = Budget(nodes=2_000, seconds=None)
    first = _search("copas", "COPAS-21/tied-burst-totals", budget)
    again = _search("copas", "COPAS-21/tied-burst-totals", budget)
    assert not first.found and not first.cut
    assert (first.why, first.nodes, first.restarts) == (again.why, again.nodes, again.restarts)
    assert first.nodes == budget.nodes and " s," not in str(first.why)
    guarded = _search("copas", "COPAS-21/tied-burst-totals",
                      Budget(nodes=10**9, seconds=0.05))
    assert guarded.cut and "time guard" in str(guarded.why)


def test_survey_skips_what_was_met() -> None:
    met = [s.name for s in catalogue("kala")][1:]
    searches = survey("kala", met=met, budget=SMALL)
    assert [s.situation for s in searches] == [catalogue("kala")[0].name]
    assert searches[0].found


def test_director_aims_at_what_was_not_met() -> None:
    """Planned games meet, under one config, what a random game left; the rest is said why."""
    import random

    from copa_ref.conformance.explore.planner import NOT_PLANNED, Director
    from copa_ref.conformance.explore.situations import step_rules
    from copa_ref.core.loop import steps, uniform

    game = GAMES["da_capo"]
    config = game.default_config()
    director = Director(budget=SMALL)
    walked = list(steps(game, uniform, random.Random(2), config=config))
    states = [walked[0].before] + [s.after for s in walked]
    actions = [s.action for s in walked]
    tags = [step_rules(game, s.before, s.action, s.after) for s in walked]
    first = director.record("da_capo", "default", states, actions, tags)
    assert first and director.record("da_capo", "default", states, actions) == set()
    left = set(director.never_met("da_capo", "default"))
    assert left and all(why == NOT_PLANNED
                        for why in director.never_met("da_capo", "default").values())
    for _ in range(len(left) + 1):
        found = director.next_plan("da_capo", "default", config)
        if found is None:
            break
        director.record("da_capo", "default", found.states, found.actions)
    never = director.never_met("da_capo", "default")
    assert set(never) == {"DACAPO-13/out-while-others-bid"}
    assert "three players" in never["DACAPO-13/out-while-others-bid"]
    summary = director.summary()
    assert summary["planned_games"] == director.planned_games > 0


# -- planning within an exploration ---------------------------------------------------------


def _explored(engine: Any, settings: Any) -> list[dict[str, Any]]:
    from copa_ref.conformance.channel import InProcessChannel
    from copa_ref.conformance.corpus import load_corpus
    from copa_ref.conformance.explore import Explorer
    from copa_ref.conformance.runner import Runner

    corpus = load_corpus()
    runner = Runner(lambda: InProcessChannel(lambda: engine), corpus)
    lines: list[dict[str, Any]] = []
    Explorer(runner, settings, corpus).explore(on_line=lines.append)
    return lines


def _met_under(footer: dict[str, Any], game: str, situation: str) -> list[str]:
    """The config labels under which *situation* was met."""
    by_label = footer["situations"]["games"].get(game, {})
    return [label for label, entry in by_label.items()
            if situation not in entry["never_met"]]


def test_planned_game_meets_the_all_tricks_round_and_names_its_mutant() -> None:
    """An engine wrong only when one seat takes every trick (COPAS-19 misread): 32 explored
    games (the sweep's 22, then every other game planned) name it with planning; the same
    games unplanned never meet the round, and the engine passes."""
    from copa_ref.conformance.explore import Settings
    from copa_ref.conformance.registry import record_of
    from copa_ref.core import misread
    from tests.conformance.explore_mutants import BuggyEngine

    record = record_of("copas")
    assert record is not None
    wrong = misread(GAMES["copas"], record.catalogue.mutant("no-all-cards-rule"))
    settings = Settings(games=32, only=("copas",), max_steps=80, probes=0, shrink_tries=8)
    footer = _explored(BuggyEngine(wrong), settings)[-1]
    assert footer["broken_rules"] == ["COPAS-19"]
    assert _met_under(footer, "copas", "COPAS-19/all-tricks-one-seat")
    assert footer["situations"]["planned_games"] > 0
    import attrs

    unplanned = _explored(BuggyEngine(wrong), attrs.evolve(settings, plan=False))[-1]
    assert unplanned["broken_rules"] == []
    assert not _met_under(unplanned, "copas", "COPAS-19/all-tricks-one-seat")


def test_reference_explored_with_planning_finds_nothing() -> None:
    """The reference engine, explored with planning: no difference, nothing errored; the
    empty stock (two-player Kopa) and the winner's last bean (RONDA) are met, and every
    situation never met says why."""
    from copa_ref.conformance import schemas
    from copa_ref.conformance.engine import MemoEngine
    from copa_ref.conformance.explore import Settings

    settings = Settings(games=60, only=("kopa", "ronda"), max_steps=120, probes=1)
    lines = _explored(MemoEngine(), settings)
    footer = lines[-1]
    assert footer["differences"] == 0 and footer["errored"] == 0
    assert "players=2" in _met_under(footer, "kopa", "KOPA-18/stock-runs-out")
    assert _met_under(footer, "ronda", "RONDA-13/winner-plays-last-bean")
    for game, by_label in footer["situations"]["games"].items():
        for label, entry in by_label.items():
            assert entry["met"] + len(entry["never_met"]) == entry["situations"]
            assert all(why for why in entry["never_met"].values()), (game, label)
    assert "only two players have a stock" in footer["situations"]["games"]["kopa"][
        "default"]["never_met"]["KOPA-18/stock-runs-out"]
    validator = schemas.validator("report.schema.json")
    for line in lines:
        validator.validate(line)


def test_never_met_under_a_random_combination_says_it_was_played_in_passing() -> None:
    """The footer's why for a config outside the sweep (a random combination played in
    passing) is not "the budget ended first": the planned games aim at the sweep's."""
    from copa_ref.conformance.explore.planner import IN_PASSING, NOT_PLANNED, Director

    director = Director(budget=SMALL)
    config = GAMES["kala"].default_config()
    director.record("kala", "default", [], [], config=config)
    director.record("kala", "random:harvest=mandatory", [], [], config=config)
    assert set(director.never_met("kala", "default").values()) == {NOT_PLANNED}
    assert set(director.never_met("kala", "random:harvest=mandatory").values()) == {IN_PASSING}


def test_a_search_in_vain_is_tried_again_under_a_fresh_seed() -> None:
    """A situation searched in vain under a config is searched for again there in a later
    game, under another seed, up to ``again`` times; then the config's why says so."""
    from copa_ref.conformance.explore.planner import Director

    config = GAMES["copas"].default_config()
    director = Director(budget=Budget(nodes=50, seconds=5.0), tries=1, again=2)
    director.record("copas", "default", [], [], config=config)
    wanted = "COPAS-21/tied-burst-totals"
    director.met["copas"]["default"] = {s.name for s in catalogue("copas")} - {wanted}
    assert director.next_plan("copas", "default", config) is None
    assert director.vain["copas"]["default"][wanted] == 1
    assert director.left("copas", "default", config)
    assert "in 1 search under this config" in director.never_met("copas", "default")[wanted]
    assert director.next_plan("copas", "default", config) is None
    assert director.vain["copas"]["default"][wanted] == 2
    assert not director.left("copas", "default", config)
    assert "searched 2 times under this config" in director.never_met(
        "copas", "default")[wanted]


def test_a_situation_met_elsewhere_is_not_given_up() -> None:
    """Searches in vain under other configs give a situation up only while no config has
    met it: one met elsewhere is still searched for under each config."""
    from copa_ref.conformance.explore.planner import Director

    config = GAMES["copas"].default_config()
    wanted = "COPAS-21/tied-burst-totals"
    director = Director(budget=Budget(nodes=50, seconds=5.0), tries=1, give_up=1)
    director.record("copas", "default", [], [], config=config)
    director.record("copas", "other", [], [], config=config)
    every = {s.name for s in catalogue("copas")}
    director.met["copas"]["default"] = every - {wanted}
    director.met["copas"]["other"] = every - {wanted}
    director.next_plan("copas", "default", config)
    assert not director.left("copas", "other", config)
    assert director.next_plan("copas", "other", config) is None
    assert "met under none" in director.never_met("copas", "other")[wanted]
    director.met["copas"]["third"] = {wanted}
    assert director.left("copas", "other", config)
