"""RONDA's entry points against values from outside (issue: hardening, second pass): a state
of the right class with an ill-typed field, an integer beyond the codec's bound, something
that is not a random generator, a hostile seat. Each is a ``MalformedInputError`` (P-8),
never a bare exception; ``is_legal`` never raises and ``well_formed`` is total."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from copa_ref.core import InvalidStateError, MalformedInputError
from copa_ref.ronda import Config, Lift, Stop, new_game
from copa_ref.ronda.rules import (
    apply,
    check_state,
    is_legal,
    legal_actions,
    observe,
    outcome,
    sample_chance,
    to_move,
    well_formed,
)
from copa_ref.ronda.svg import svg
from tests.ronda.helpers import arranged
from tests.support import count_shape_checks

BAD_FIELDS: list[tuple[str, Any]] = [
    ("cups", None), ("cups", (1,) * 9), ("cups", [1, 1, 2, 2, 3, 3, 4, 4, 0, 0]),
    ("cups", (1.0,) * 10), ("cups", (10**5000,) * 10), ("lifted", None), ("lifted", [0]),
    ("lifted", (True,)), ("shown", (0,)), ("shown", "0"), ("black", None), ("out", 2.0),
    ("black", 10**5000), ("supplies", (10,)), ("supplies", None), ("supplies", (10, None)),
    ("turn", None), ("turn", 2), ("turn", True), ("turn", -1), ("phase", "lift"),
    ("config", None), ("config", Config(players=True)), ("config", Config(max_beans=10**5000)),
]


def entry_calls(state: Any) -> list[Callable[[], object]]:
    """A call of every entry point with *state*."""
    return [
        lambda: apply(state, Lift(0, 0)),
        lambda: apply(state, Stop(0)),
        lambda: legal_actions(state),
        lambda: legal_actions(state, 0),
        lambda: to_move(state),
        lambda: observe(state),
        lambda: outcome(state),
        lambda: observe(state, 1),
        lambda: svg(state, None),
        lambda: sample_chance(state, random.Random(1)),
        lambda: check_state(state),
    ]


class TestIllTypedField:
    @pytest.mark.parametrize(("field", "value"), BAD_FIELDS,
                             ids=[f"{f}-{i}" for i, (f, _) in enumerate(BAD_FIELDS)])
    def test_every_entry_point(self, field: str, value: Any) -> None:
        """RONDA-15: a state with an ill-typed field is malformed at every entry point."""
        for start in (new_game(), arranged(), apply(arranged(), Lift(0, 1))):
            state = attrs.evolve(start, **{field: value})
            for call in entry_calls(state):
                with pytest.raises((MalformedInputError, InvalidStateError)):
                    call()
            assert not is_legal(state, Lift(0, 0)) and not well_formed(state)


class TestHostileValues:
    @pytest.mark.parametrize("rng", [None, 7, "seed", random, object()])
    def test_sample_chance_needs_a_generator(self, rng: object) -> None:
        """RONDA-3: the arrangement is drawn from a random.Random; anything else is
        malformed."""
        with pytest.raises(MalformedInputError):
            sample_chance(new_game(), rng)  # type: ignore[arg-type]

    @pytest.mark.parametrize("seat", [True, 1.0, -1, 2, 10**5000, "0"],
                             ids=["true", "float", "minus-one", "two", "huge", "text"])
    def test_svg_refuses_a_hostile_seat(self, seat: object) -> None:
        """RONDA-14: a picture of a seat's view names a seat of the game."""
        with pytest.raises(MalformedInputError):
            svg(arranged(), seat)  # type: ignore[arg-type]


class TestCheckedOnce:
    @pytest.fixture
    def shape_checks(self, monkeypatch: pytest.MonkeyPatch) -> list[object]:
        """The states the entry check's shape test reads, in order."""
        from copa_ref.ronda import rules

        return count_shape_checks(monkeypatch, rules)

    def test_states_the_rules_built_are_never_checked(self, shape_checks: list[object]
                                                      ) -> None:
        """A whole game through the public functions: every state comes from ``new_game``
        or ``apply``, and none pays the entry check."""
        rng = random.Random(4)
        state = new_game()
        state = apply(state, sample_chance(state, rng))
        while outcome(state) is None:
            to_move(state)
            observe(state, 0)
            state = apply(state, rng.choice(legal_actions(state, None)))
        assert shape_checks == []

    def test_a_state_from_outside_is_checked_once(self, shape_checks: list[object]) -> None:
        """A copy, an unpickled value, a rebuilt one: each is checked at its first entry
        (its checked slot is empty, never an ``AttributeError``), and not at the next."""
        state = arranged()
        for outside in (copy.copy(state), pickle.loads(pickle.dumps(state)),
                        attrs.evolve(state)):
            assert to_move(outside) == to_move(state)
            legal_actions(outside, 0)
            apply(outside, Lift(0, 0))
            assert sum(seen is outside for seen in shape_checks) == 1
        assert len(shape_checks) == 3
