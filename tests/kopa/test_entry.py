"""Kopa's entry points against values from outside (issue: hardening, second pass): a state
of the right class with an ill-typed field, an integer beyond the codec's bound, something
that is not a random generator, a hostile seat. Each is a ``MalformedInputError`` (P-8),
never a bare exception; ``is_legal`` never raises and ``well_formed`` is total."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from copa_ref.core import InvalidStateError, MalformedInputError
from copa_ref.kopa import GAME, Card, Config, Pass, Play, State, new_game
from copa_ref.kopa.rules import (
    apply,
    check_state,
    legal_actions,
    observe,
    outcome,
    sample_chance,
    to_move,
    well_formed,
)
from copa_ref.kopa.svg import svg


def dealt(players: int = 3) -> State:
    state = new_game(Config(players=players))
    return apply(state, sample_chance(state, random.Random(5)))


BAD_FIELDS: list[tuple[str, Any]] = [
    ("hands", None), ("hands", ((Card.S1,),)), ("hands", [[], [], []]),
    ("hands", (("S1",), (), ())), ("piles", None), ("piles", ((),) * 7),
    ("stock", ("S1",)), ("eights", None), ("drawn", "S8"), ("phase", "play"),
    ("round", None), ("round", True), ("round", 1.0), ("round", 10**5000),
    ("dealer", 7), ("turn", -1), ("turn", True), ("turn", 3),
    ("penalties", None), ("penalties", (0, 0)), ("penalties", (0.5, 0, 0)),
    ("scores", [0, 0, 0]), ("scores", (10**5000, 0, 0)), ("last_round", (0,)),
    ("config", None), ("config", Config(players=True)), ("config", Config(target=10**5000)),
]


class TestIllTypedField:
    @pytest.mark.parametrize(("field", "value"), BAD_FIELDS,
                             ids=[f"{f}-{i}" for i, (f, _) in enumerate(BAD_FIELDS)])
    def test_every_entry_point(self, field: str, value: Any) -> None:
        """KOPA-1: a state with an ill-typed field is malformed at every entry point."""
        state = attrs.evolve(dealt(), **{field: value})
        calls = [lambda: apply(state, Pass(state.turn if type(state.turn) is int else 0)),
                 lambda: legal_actions(state), lambda: legal_actions(state, 0),
                 lambda: to_move(state), lambda: observe(state, None), lambda: outcome(state),
                 lambda: observe(state, 0), lambda: svg(state, None), lambda: check_state(state)]
        for call in calls:
            with pytest.raises((MalformedInputError, InvalidStateError)):
                call()
        assert not GAME.is_legal(state, Pass(0))
        assert not well_formed(state)

    def test_huge_round_is_refused(self) -> None:
        """KOPA-21: a round of 10**5000 cannot be encoded: check_state refuses it."""
        state = attrs.evolve(dealt(), round=10**5000)
        with pytest.raises(MalformedInputError):
            check_state(state)
        assert not well_formed(state)

    def test_checked_once_per_object(self) -> None:
        """KOPA-1: a state the rules built is checked once; an evolved copy again."""
        state = dealt()
        assert to_move(state) == to_move(state)
        with pytest.raises(MalformedInputError):
            to_move(attrs.evolve(state, hands=None))

    def test_unsorted_hand_is_no_rule(self) -> None:
        """KOPA-4: hands are kept sorted by card code; another order is malformed, not a
        broken rule (no rule says it)."""
        state = dealt()
        hand = tuple(reversed(state.hands[0]))
        broken = attrs.evolve(state, hands=(hand, *state.hands[1:]))
        with pytest.raises(MalformedInputError):
            check_state(broken)
        with pytest.raises(MalformedInputError):  # the entry checks what check_state does
            legal_actions(broken)


class TestHostileValues:
    @pytest.mark.parametrize("rng", [None, 7, "seed", random, object()])
    def test_sample_chance_needs_a_generator(self, rng: object) -> None:
        """KOPA-4: the deal is drawn from a random.Random; anything else is malformed."""
        with pytest.raises(MalformedInputError):
            sample_chance(new_game(), rng)  # type: ignore[arg-type]

    @pytest.mark.parametrize("seat", [True, 1.0, -1, 3, 10**5000, "0"],
                             ids=["true", "float", "minus-one", "three", "huge", "text"])
    def test_svg_refuses_a_hostile_seat(self, seat: object) -> None:
        """KOPA-7: a picture of a seat's view names a seat at the table."""
        with pytest.raises(MalformedInputError):
            svg(dealt(), seat)  # type: ignore[arg-type]

    def test_play_of_a_non_card(self) -> None:
        """KOPA-1: a play of something that is no card is malformed (KOPA-4's reading)."""
        state = dealt()
        with pytest.raises(MalformedInputError):
            apply(state, Play(state.turn, "S1"))  # type: ignore[arg-type]
