"""Every entry point of every game, given hostile values, raises only ``RuleViolation``
kinds or ``MalformedInputError``; ``is_legal`` never raises and agrees with ``apply``; and an
accepted action is exactly a legal one (no ``True`` for a seat, no ``3.0`` for a row, no list
for a tuple), leaving a well-formed state."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from copa_ref.core import MalformedInputError, RuleViolation
from copa_ref.games import GAMES
from tests.fuzz.conftest import POSITIONS, SCALE, TALLY
from tests.fuzz.strategies import game_params, ill_typed, mutated, positions

EXPECTED = (RuleViolation, MalformedInputError)

BATCH = 12
"""Hostile actions drawn per example."""

SPREAD = 24
"""Positions each drawn action is also tried on."""

EXAMPLES = 90 * SCALE


def _try(game: Any, state: Any, action: Any) -> None:
    """Apply *action*; check the refusal kind, ``is_legal`` and an accepted action."""
    TALLY[f"{game.name} apply"] += 1
    try:
        after = game.apply(state, action)
    except EXPECTED:
        assert not game.is_legal(state, action)
        return
    assert game.is_legal(state, action)
    # Accepted: exactly a well-typed action, as its canonical JSON decodes back to it.
    text = game.dumps(action)
    assert game.dumps(game.action_from_json(json.loads(text))) == text, repr(action)
    assert game.action_from_json(json.loads(text)) == action
    assert game.well_formed(after), f"not well formed after {action!r}"


@pytest.mark.parametrize("name", game_params("actions"))
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_hostile_actions(name: str, data: st.DataObject) -> None:
    """Actions with one ill-typed part, tried on many positions each."""
    game = GAMES[name]
    pool = positions(name, POSITIONS)
    start = data.draw(st.integers(0, len(pool) - 1), label="position")
    for i in range(BATCH):
        state, action = pool[(start + i * 7919) % len(pool)]
        if action is None:
            action = pool[(start + i) % len(pool) - 1][1] or pool[0][1]
        hostile = data.draw(mutated(action), label="action")
        _try(game, state, hostile)
        for j in range(1, SPREAD):
            _try(game, pool[(start + i * 7919 + j * 104729) % len(pool)][0], hostile)


@pytest.mark.parametrize("name", game_params("entry"))
@settings(max_examples=EXAMPLES // 2)
@given(value=ill_typed, seat=ill_typed, data=st.data())
def test_hostile_values_at_every_entry_point(name: str, value: Any, seat: Any,
                                             data: st.DataObject) -> None:
    """A value that is not a state, or a seat that is not one, at every entry point."""
    game = GAMES[name]
    pool = positions(name, POSITIONS)
    state = pool[data.draw(st.integers(0, len(pool) - 1))][0]
    calls = [
        lambda: game.to_move(value), lambda: game.legal_actions(value, None),
        lambda: game.legal_actions(state, seat), lambda: game.outcome(value),
        lambda: game.observe(value, None), lambda: game.observe(state, seat),
        lambda: game.apply(value, pool[0][1]), lambda: game.apply(state, value),
        lambda: game.sample_chance(value, random.Random(0)),
        lambda: game.sample_chance(state, random.Random(0)),
        lambda: game.new_game(value), lambda: game.num_players(value),
        lambda: game.check_state(value),
        lambda: game.state_from_json(value), lambda: game.action_from_json(value),
        lambda: game.config_from_json(value),
    ]
    if game.joint is not None:
        calls += [lambda: game.joint(state, value), lambda: game.joint(state, (value,)),
                  lambda: game.joint(value, ())]
    for call in calls:
        TALLY[f"{name} entry points"] += 1
        with contextlib.suppress(*EXPECTED):
            call()
    assert game.is_legal(value, value) is False
    assert game.is_legal(state, value) is False
    assert game.well_formed(value) is False
