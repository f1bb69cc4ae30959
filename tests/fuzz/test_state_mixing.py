"""The field-mixing generator at volume: states near each game's edge that ``check_state``
accepts are answered by every public function and step to valid states (each spec's "State
invariant"). CI tries 2,000 edge states per game; ``COPA_REF_FUZZ=long`` 40,000 per game,
mixed from the states of ten games per option config."""

from __future__ import annotations

import random

import pytest

from tests.fuzz.conftest import SCALE, TALLY
from tests.fuzz.mixing import accepted, candidates, exercise
from tests.fuzz.strategies import GAME_NAMES, LONG

EDGE_STATES = 2000 * SCALE * 2 if LONG else 2000
"""Edge states tried per game."""


@pytest.mark.parametrize("name", GAME_NAMES)
def test_accepted_edge_states_are_answered(name: str) -> None:
    rng = random.Random(f"mixing-{name}")
    passed = calls = 0
    for state in candidates(name, EDGE_STATES, seed=2, pool_games=10 if LONG else 2):
        if accepted(name, state):
            passed += 1
            calls += exercise(name, state, rng)
    TALLY[f"{name} edge states"] += EDGE_STATES
    TALLY[f"{name} edge states accepted"] += passed
    TALLY[f"{name} edge-state calls"] += calls
    assert passed > 0
