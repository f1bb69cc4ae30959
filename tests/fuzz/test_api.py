"""Every entry point of every game, given hostile values, raises only ``RuleViolation``
kinds or ``MalformedInputError``; ``is_legal`` never raises and agrees with ``apply``; and an
accepted action is exactly a legal one (no ``True`` for a seat, no ``3.0`` for a row, no list
for a tuple), leaving a well-formed state."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import attrs
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


STATE_CHECKED = tuple(sorted(GAMES))
"""The games whose every entry point checks a state as it enters (``copa_ref.core.entry``):
all of them, so a state of the right class with one ill-typed field is refused."""

MESSAGE = 2000
"""The longest message a refusal may carry, whatever the value it quotes."""


def _spoiled(state: Any, data: st.DataObject) -> Any:
    """*state* with one field, or one item of a tuple field, replaced by a hostile value."""
    fields = attrs.fields(type(state))
    field = fields[data.draw(st.integers(0, len(fields) - 1), label="field")]
    value = getattr(state, field.name)
    if type(value) is tuple and value and data.draw(st.booleans(), label="one item"):
        index = data.draw(st.integers(0, len(value) - 1), label="item")
        value = (*value[:index], data.draw(ill_typed, label="part"), *value[index + 1:])
    else:
        value = data.draw(ill_typed, label="value")
    return attrs.evolve(state, **{field.name: value})


def _refused(name: str, call: Any) -> None:
    TALLY[f"{name} entry points, ill-typed states"] += 1
    try:
        call()
    except EXPECTED as error:
        assert len(str(error)) <= MESSAGE, f"a message of {len(str(error)):,} characters"


@pytest.mark.parametrize("name", STATE_CHECKED)
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_right_class_ill_typed_states_at_every_entry_point(name: str,
                                                           data: st.DataObject) -> None:
    """P-8: a state of the game's class with one field (or one item of it) of a wrong
    type or out of bounds, at every entry point: only ``MalformedInputError`` or a
    ``RuleViolation``, with a bounded message; a state that is not well formed is refused
    everywhere; ``is_legal`` and ``well_formed`` never raise."""
    game = GAMES[name]
    pool = positions(name, POSITIONS)
    start = data.draw(st.integers(0, len(pool) - 1), label="position")
    for i in range(BATCH):
        state, action = pool[(start + i * 7919) % len(pool)]
        _spoil_and_call(game, state, action or pool[0][1], i, data)


def _spoil_and_call(game: Any, state: Any, action: Any, i: int, data: st.DataObject) -> None:
    """One spoiled copy of *state* at every entry point (see the test above)."""
    name = game.name
    bad = _spoiled(state, data)
    seat = data.draw(st.sampled_from([None, 0, 1]), label="seat")
    calls = [
        lambda: game.apply(bad, action), lambda: game.legal_actions(bad, None),
        lambda: game.legal_actions(bad, seat), lambda: game.to_move(bad),
        lambda: game.observe(bad, seat), lambda: game.outcome(bad),
        lambda: game.check_state(bad),
        lambda: game.sample_chance(bad, random.Random(i)),
    ]
    if game.svg is not None:
        svg = game.svg
        calls.append(lambda: svg(bad, seat))
    if game.joint is not None:
        joint = game.joint
        calls.append(lambda: joint(bad, ()))
    sound = game.well_formed(bad)
    for call in calls:
        if sound:
            _refused(name, call)
            continue
        TALLY[f"{name} entry points, ill-typed states"] += 1
        with pytest.raises(EXPECTED) as caught:
            call()
        assert len(str(caught.value)) <= MESSAGE
    # A hostile generator or seat with a sound state: refused, or (a seat that is one)
    # answered.
    hostile = data.draw(ill_typed, label="rng or seat")
    _refused(name, lambda: game.sample_chance(state, hostile))
    if game.svg is not None:
        svg = game.svg
        _refused(name, lambda: svg(state, hostile))
    if not sound:
        assert game.is_legal(bad, action) is False
    assert game.well_formed(bad) is sound
