"""The situations catalogue: every rule's situations, named in its spec, met by the steps
they describe."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from copa_ref.conformance.explore import situations
from copa_ref.conformance.explore.situations import _spec as spec_path
from copa_ref.conformance.explore.situations import (
    catalogue,
    met_by,
    rules_of,
    spec_lines,
    with_spec_lines,
)
from copa_ref.copas import Config as CopasConfig
from copa_ref.core.loop import steps, uniform
from copa_ref.games import GAMES

NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", NAMES)
class TestCatalogue:
    def test_every_rule_has_situations(self, name: str) -> None:
        situations = catalogue(name)
        rules = rules_of(GAMES[name])
        assert rules
        assert {s.rule for s in situations} == set(rules)
        assert all(f"{rule}/fires" in {s.name for s in situations} for rule in rules)

    def test_names_are_stable_and_unique(self, name: str) -> None:
        names = [s.name for s in catalogue(name)]
        assert len(names) == len(set(names))
        for situation in catalogue(name):
            assert situation.name.startswith(situation.rule + "/")
            slug = situation.name.partition("/")[2]
            assert slug and slug == slug.lower() and " " not in slug

    def test_spec_lines_agree_with_the_catalogue(self, name: str) -> None:
        listed = spec_lines(GAMES[name])
        for rule in rules_of(GAMES[name]):
            wanted = tuple(s.name for s in catalogue(name) if s.rule == rule)
            assert listed[rule] == wanted, f"specs/{name}.md {rule}: **Situations:** line"

    def test_spec_is_written_as_with_spec_lines_writes_it(self, name: str) -> None:
        assert spec_path(GAMES[name]).read_text(encoding="utf-8") == with_spec_lines(name)

    def test_random_play_meets_fires_situations(self, name: str) -> None:
        game = GAMES[name]
        met: set[str] = set()
        situations = catalogue(name)
        for step in steps(game, uniform, random.Random(3), max_steps=400):
            met.update(met_by(situations, step.before, step.action, step.after))
        assert any(n.endswith("/fires") for n in met)


def test_a_missing_spec_line_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spec whose rule lost its line reads back as listing nothing for it."""
    text = with_spec_lines("copas").replace(
        "**Situations:** COPAS-19/fires, COPAS-19/all-tricks-one-seat\n", "")
    changed = tmp_path / "copas.md"
    changed.write_text(text, encoding="utf-8")
    monkeypatch.setattr(situations, "_spec", lambda game: changed)
    listed = spec_lines(GAMES["copas"])
    assert listed["COPAS-19"] == ()
    assert listed["COPAS-18"] == tuple(s.name for s in catalogue("copas")
                                       if s.rule == "COPAS-18")


def test_situation_predicates_tell_branches_apart() -> None:
    """A random Copas round is seldom one seat's every trick; the predicate says which."""
    game = GAMES["copas"]
    [every] = [s for s in catalogue("copas") if s.name == "COPAS-19/all-tricks-one-seat"]
    [ends] = [s for s in catalogue("copas") if s.name == "COPAS-14/last-card-ends-round"]
    seen_end = seen_every = 0
    for step in steps(game, uniform, random.Random(5), max_steps=2000):
        seen_end += ends.fires(step.before, step.action, step.after)
        seen_every += every.fires(step.before, step.action, step.after)
    assert seen_end >= 1
    assert seen_every == 0


def test_why_not_names_the_option() -> None:
    [five] = [s for s in catalogue("copas") if s.name == "COPAS-18/five-player-bonus-round"]
    assert five.why_not(CopasConfig(players=5)) is None
    reason = five.why_not(CopasConfig())
    assert reason is not None and "players=5" in reason
