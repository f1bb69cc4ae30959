"""RONDA's conformance record names the misread rule: for every mutant, at the first step of
a trace where the mutant's observables differ from the corpus, the record's diagnosis and
view rules (``copa_ref.conformance.ronda.diagnosis``) name the mutant's own rule first.

This is the record's half of the kill matrix (``tests/conformance/test_kill_matrix.py``
runs the whole runner); it replays the corpus traces in-process with the misread game.
"""

from __future__ import annotations

from typing import Any

import pytest

from copa_ref.conformance.checks import json_diff
from copa_ref.conformance.corpus import Filters, load_corpus, select
from copa_ref.conformance.observables import observables
from copa_ref.conformance.registry import record_of
from copa_ref.conformance.ronda.rules import CATALOGUE
from copa_ref.conformance.vocabulary import Divergence, Report
from copa_ref.core import Misreading, misread
from copa_ref.ronda import GAME, Observation

RECORD = record_of("ronda")
TRACES = [c for c in select(load_corpus(), Filters(game="ronda"))
          if c["kind"] == "trace" and "/random-" not in c["id"]]
"""The hand-made traces (the random whole games are the kill matrix's)."""


def _report(seen: dict[str, Any]) -> Report:
    return Report(to_move=seen["to_move"], public=seen["public"], outcome=seen["outcome"])


def first_divergence(wrong: Any, case: dict[str, Any]) -> Divergence[Any, Any, Any, Any] | None:
    """The first step of *case* where *wrong* reports other observables than the corpus."""
    config = GAME.config_from_json(case["config"])
    state, mine = GAME.new_game(config), wrong.new_game(config)
    expected_steps = [(None, case["initial"])] + [(s["action"], s["expect"])
                                                  for s in case["steps"]]
    previous: Report | None = None
    for step, (action_json, expect) in enumerate(expected_steps):
        before = state
        action = None
        if action_json is not None:
            action = GAME.action_from_json(action_json)
            state = GAME.apply(state, action)
            try:
                mine = wrong.apply(mine, action)
            except Exception:  # the mutant refuses or breaks: no report to diagnose
                return None
        seen = observables(wrong, mine)
        differing = tuple(line.split(": ", 1)[0] for line in json_diff(expect, seen))
        if differing:
            try:
                view = GAME.converter.structure(seen["public"], Observation)
            except Exception:
                view = None
            return Divergence(config=config, step=step, before=before, action=action,
                              expected=state, reported=_report(seen),
                              reported_before=previous, reported_view=view,
                              differing=differing)
        previous = _report(seen)
    return None


@pytest.mark.parametrize("mutant", CATALOGUE.mutants, ids=lambda m: f"{m.rule}-{m.slug}")
def test_mutant_named_by_its_own_rule(mutant: Misreading) -> None:
    """RONDA-1 … RONDA-18: every trace a mutant diverges on names its rule first (after
    the readings of the register, which the runner tries before the view rules)."""
    assert RECORD is not None
    wrong = misread(GAME, mutant)
    named: list[tuple[str, str]] = []
    for case in TRACES:
        divergence = first_divergence(wrong, case)
        if divergence is None:
            continue
        findings = [*RECORD.diagnose(divergence), *RECORD.view_findings(divergence)]
        named.append((case["id"], findings[0].rule if findings else "nothing"))
    if mutant.rule == "RONDA-3":
        assert not named  # an arrangement is refused, never traced: rejections kill it
        return
    assert named, f"{mutant.slug} diverges on no trace"
    wrong_names = [(case, rule) for case, rule in named if rule != mutant.rule]
    assert not wrong_names, wrong_names
