"""The misreading mechanism: a misread copy changes only itself (copa_ref.core.misreading)."""

from __future__ import annotations

import random

import pytest

from copa_ref.copas import GAME as COPAS
from copa_ref.copas import rules as copas_rules
from copa_ref.core import Misreading, misread


def _reversed_strength(card: object, plain: bool) -> int:
    return 9 - copas_rules.strength(card, plain)  # type: ignore[arg-type]


REVERSED = Misreading(rule="COPAS-2", slug="order-reversed", description="the order upside down",
                      replacements={"strength": _reversed_strength})


class TestMisread:
    def test_the_copy_differs_and_the_reference_does_not(self) -> None:
        """A misread game plays its misreading; the reference beside it is unchanged."""
        wrong = misread(COPAS, REVERSED)
        assert wrong.apply is not COPAS.apply
        assert copas_rules.strength is not _reversed_strength
        rng = random.Random(3)
        state = COPAS.new_game(COPAS.default_config())
        state = COPAS.apply(state, COPAS.sample_chance(state, rng))
        differed = False
        for _ in range(200):
            if COPAS.outcome(state) is not None:
                break
            action = COPAS.random_action(state, rng)
            mine = COPAS.apply(state, action)
            theirs = wrong.apply(state, action)
            differed |= COPAS.observe(mine, None) != wrong.observe(theirs, None)
            state = mine
        assert differed

    def test_an_unknown_name_is_refused(self) -> None:
        """Replacing a name the module lacks is a mistake in the misreading, said at once."""
        bad = Misreading(rule="COPAS-2", slug="x", description="x", replacements={"nope": 1})
        with pytest.raises(ValueError, match="no name 'nope'"):
            misread(COPAS, bad)
