"""HOPPER's misreadings and mutants: each names a rule of the spec, and each plays
differently from the reference somewhere in a few seeded games (so none is a no-op)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from copa_ref.conformance.hopper.rules import CATALOGUE
from copa_ref.core import Misreading, misread
from copa_ref.hopper import GAME, Config, Ending, Remainder, SeatAccuracy
from tests.test_traceability import RULES

MISREADINGS, MUTANTS = CATALOGUE.misreadings, CATALOGUE.mutants
UNMUTATABLE = CATALOGUE.unmutatable

CONFIGS = (Config(players=3), Config(players=3, ending=Ending.END_2),
           Config(players=3, total_beans=51, ending=Ending.END_2),
           Config(players=3, remainder=Remainder.FIRST_SEATS, first_player=1, aiming=False,
                  shot_model=SeatAccuracy((Fraction(1, 2),) * 3)))
REFUSALS_ONLY = ("any-seat-number", "aim-anywhere", "land-anywhere")
"""The mutants that change only what illegal actions do."""


def differs(wrong: Misreading) -> bool:
    """Whether the misread game and the reference part ways in some seeded game (a differing
    view or outcome, a differing refusal, or an error of the misread game)."""
    game = misread(GAME, wrong)
    for config in CONFIGS:
        for seed in range(3):
            rng = random.Random(seed)
            try:
                theirs = game.new_game(config)
            except ValueError:
                return True
            mine = GAME.new_game(config)
            if GAME.dumps(mine) != game.dumps(theirs):
                return True
            while GAME.outcome(mine) is None:
                action = GAME.random_action(mine, rng)
                mine = GAME.apply(mine, action)
                try:
                    theirs = game.apply(theirs, action)
                except (ValueError, IndexError):
                    return True
                if GAME.dumps(mine) != game.dumps(theirs) or (
                        GAME.outcome(mine) != game.outcome(theirs)):
                    return True
    return False


@pytest.mark.parametrize("wrong", MISREADINGS + MUTANTS, ids=lambda m: m.slug)
def test_each_misreading_plays_differently(wrong: Misreading) -> None:
    """HOPPER-1 … HOPPER-19: every misreading names a HOPPER rule and changes play."""
    assert wrong.rule in RULES and wrong.rule.startswith("HOPPER-")
    if wrong.slug in REFUSALS_ONLY:
        return
    assert differs(wrong), f"{wrong.slug} plays exactly like the reference"


def test_every_rule_has_a_mutant() -> None:
    """Every HOPPER rule has a mutant, or a reason why none exists."""
    rules = {r for r in RULES if r.startswith("HOPPER-")}
    assert rules == {m.rule for m in MUTANTS} | set(UNMUTATABLE)
