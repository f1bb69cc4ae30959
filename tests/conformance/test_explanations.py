"""The failure's ``rule:`` lines tell the truth and only what adds to the diff: the headline
rule first and alone as ``rule:``, then ``also:`` lines, none whose expected and actual
texts are equal, none repeating the explanation, no view rule's claim ("the beans are
conserved") about a part that merely differs. Checked on the lines themselves and on a
representative set of mutants against their game's corpus (the whole kill matrix:
``test_kill_matrix_explanations.py``, in the full tier)."""

from __future__ import annotations

import re

import pytest

from copa_ref.conformance.channel import InProcessChannel
from copa_ref.conformance.corpus import Filters, load_corpus, select
from copa_ref.conformance.explain import finding_lines
from copa_ref.conformance.runner import CaseResult, Runner
from copa_ref.conformance.vocabulary import Finding
from copa_ref.core import misread
from copa_ref.games import GAMES
from tests.conformance.test_kill_matrix import MutantEngine, mutants_of

SAME = re.compile(r"\(([^()]*)\); the engine has (.*)$")


def check_truthful(result: CaseResult) -> None:
    """The assertions of this module on one failing case's diff."""
    lines = (result.diff or "").splitlines()
    named = [line for line in lines if line.startswith(("rule: ", "also: "))]
    if not named:
        return
    assert named[0].startswith(f"rule: {result.broken_rule}"), (result.id, named)
    assert sum(line.startswith("rule: ") for line in named) == 1, (result.id, named)
    for line in named:
        head, sep, tail = line.rpartition("; the engine has ")
        assert not (sep and tail.strip() in head), (result.id, line)   # equal texts
        assert not re.search(r" differs; .*conserved", line), (result.id, line)
    assert len(set(named)) == len(named), (result.id, named)
    explanation = result.explanation
    if explanation is not None:
        assert not any(line.endswith(explanation) for line in named), (result.id, named)


class TestLines:
    def test_headline_first_then_only_what_adds(self) -> None:
        found = [Finding("DACAPO-17", "the winners are the furthest advance"),
                 Finding("DACAPO-16", "outcome differs; the furthest advance wins"),
                 Finding("DACAPO-3", "public.box differs; the beans are conserved"),
                 Finding("DACAPO-14", "one into his cup (box 10, line [3]); the engine has "
                                      "box 10, line [3]"),
                 Finding("DACAPO-7", "a bid of 6; the engine has a bid of 5")]
        assert finding_lines(found, None) == [
            "rule: DACAPO-17: the winners are the furthest advance",
            "also: DACAPO-7: a bid of 6; the engine has a bid of 5"]

    def test_a_headline_with_equal_texts_keeps_only_what_was_expected(self) -> None:
        found = [Finding("DACAPO-14", "one into his cup (box 10); the engine has box 10")]
        assert finding_lines(found, None) == ["rule: DACAPO-14: one into his cup (box 10)"]

    def test_the_explanation_is_not_repeated(self) -> None:
        said = "your engine plays as if x [KALA-7]"
        assert finding_lines([Finding("KALA-7", said)], said) == [
            "rule: KALA-7 (the explanation above)"]

    def test_a_conservation_headline_claims_nothing(self) -> None:
        lines = finding_lines([Finding("DACAPO-3", "public.box differs; the beans are "
                                                   "conserved")], None)
        assert lines == ["rule: DACAPO-3: public.box differs, a part DACAPO-3 decides"]


REPRESENTATIVE = [("da_capo", "DACAPO-10"), ("da_capo", "DACAPO-17"), ("da_capo", "DACAPO-14"),
                  ("kala", "KALA-15"), ("ronda", "RONDA-8"), ("hopper", "HOPPER-9")]
"""Mutants that lose or move beans (where the conservation claim misled) and one that
breaks the end's tie (where a second rule was named beside the headline)."""


@pytest.mark.parametrize(("game", "rule"), REPRESENTATIVE)
def test_mutants_get_truthful_lines(game: str, rule: str) -> None:
    cases = select(load_corpus(), Filters(game=game))
    mutants = [m for m in mutants_of(game) if m.rule == rule]
    assert mutants, rule
    failed = 0
    for mutant in mutants:
        wrong = misread(GAMES[game], mutant)
        runner = Runner(lambda wrong=wrong: InProcessChannel(lambda: MutantEngine(wrong)),
                        corpus=cases)
        for result in runner.run(cases):
            if result.status == "failed":
                failed += 1
                check_truthful(result)
        runner.close()
    assert failed, f"no case fails the {rule} mutants"
