"""HOPPER's entry points against values from outside (issue: hardening, second pass): a
state of the right class with an ill-typed field, an integer or a probability beyond the
codec's bound, something that is not a random generator, a hostile seat. Each is a
``MalformedInputError`` (P-8) or the rule it breaks, never a bare exception; ``is_legal``
never raises and ``well_formed`` is total."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import pytest

from copa_ref.core import InvalidStateError, MalformedInputError
from copa_ref.hopper import GAME, AimedShot, Config, Ending, Land, SeatAccuracy, Shoot, State
from copa_ref.hopper.rules import (
    apply,
    chance_outcomes,
    check_state,
    is_legal,
    legal_actions,
    new_game,
    observe,
    outcome,
    sample_chance,
    to_move,
    well_formed,
)
from copa_ref.hopper.state import Phase
from copa_ref.hopper.svg import svg
from tests.support import count_shape_checks

BAD_FIELDS: list[tuple[str, Any]] = [
    ("hands", None), ("hands", (40,)), ("hands", [40, 40]), ("hands", (40.0, 40)),
    ("hands", (True, 40)), ("hands", (10**5000, 40)), ("tray", None),
    ("tray", ((0, None),)), ("tray", ((0, 0, 0),)), ("tray", tuple((c, 0) for c in range(10**4))),
    ("claims", [(0, 1)]), ("loose", None), ("loose", 10**5000), ("phase", "aim"),
    ("turn", "0"), ("turn", 2), ("turn", True), ("aim", 1.5), ("config", None),
    ("config", Config(players=True)), ("config", Config(total_beans=10**5000)),
]


def entry_calls(state: Any) -> list[Callable[[], object]]:
    """A call of every entry point with *state*."""
    return [
        lambda: apply(state, Shoot(0, 0)),
        lambda: apply(state, Land(None)),
        lambda: legal_actions(state),
        lambda: legal_actions(state, 0),
        lambda: to_move(state),
        lambda: observe(state),
        lambda: outcome(state),
        lambda: chance_outcomes(state),
        lambda: svg(state, None),
        lambda: sample_chance(state, random.Random(1)),
        lambda: check_state(state),
    ]


class TestIllTypedField:
    @pytest.mark.parametrize(("field", "value"), BAD_FIELDS,
                             ids=[f"{f}-{i}" for i, (f, _) in enumerate(BAD_FIELDS)])
    def test_every_entry_point(self, field: str, value: Any) -> None:
        """HOPPER-19: a state with an ill-typed field is malformed at every entry point."""
        for start in (new_game(), apply(new_game(), Shoot(0, 0))):
            state = attrs.evolve(start, **{field: value})
            for call in entry_calls(state):
                with pytest.raises((MalformedInputError, InvalidStateError)):
                    call()
            assert not is_legal(state, Shoot(0, 0)) and not well_formed(state)

    def test_a_bean_in_the_air_from_no_seat(self) -> None:
        """HOPPER-10: a bean in the air without its shooter is refused, not an assert."""
        state = attrs.evolve(apply(new_game(), Shoot(0, 0)), turn=None)
        for call in (lambda: chance_outcomes(state), lambda: apply(state, Land(None))):
            with pytest.raises(InvalidStateError) as info:
                call()
            assert info.value.rule == "HOPPER-10"


class TestBounds:
    def test_probabilities_are_bounded(self) -> None:
        """HOPPER-6: a shot model's probabilities have terms within the codec's bound."""
        huge = Fraction(1, 10**4000)
        for model in (AimedShot(huge, Fraction(1, 4)), SeatAccuracy((huge, huge))):
            with pytest.raises(MalformedInputError):
                new_game(Config(shot_model=model))

    def test_total_beans_are_bounded(self) -> None:
        """HOPPER-3: "about 80 beans": at most a thousand in the box."""
        new_game(Config(total_beans=1000))
        for beans in (1001, 10**18, 10**5000):
            with pytest.raises((InvalidStateError, MalformedInputError)):
                new_game(Config(total_beans=beans))

    def test_hopper_2_message_is_short(self) -> None:
        """HOPPER-2: a missing cup is named, not the whole tray listed."""
        state = new_game()
        broken = attrs.evolve(state, tray=state.tray[1:], hands=(40, 40))
        with pytest.raises(InvalidStateError) as info:
            check_state(broken)
        assert info.value.rule == "HOPPER-2" and len(str(info.value)) < 80
        assert "cup 0" in str(info.value)

    def test_finished_end_2_game_with_a_turn(self) -> None:
        """HOPPER-13: a finished End 2 game has no turn (End 2's rule, not End 1's)."""
        state = new_game(Config(ending=Ending.END_2))
        claims = tuple((c % 2, c) for c in range(17))
        over = attrs.evolve(state, tray=(), claims=claims, phase=Phase.OVER, turn=0)
        with pytest.raises(InvalidStateError) as info:
            check_state(over)
        assert info.value.rule == "HOPPER-13"
        assert well_formed(attrs.evolve(over, turn=None))


class TestHostileValues:
    @pytest.mark.parametrize("rng", [None, 7, "seed", random, object()])
    def test_sample_chance_needs_a_generator(self, rng: object) -> None:
        """HOPPER-6: a landing is drawn from a random.Random; anything else is malformed."""
        with pytest.raises(MalformedInputError):
            sample_chance(apply(new_game(), Shoot(0, 0)), rng)  # type: ignore[arg-type]

    @pytest.mark.parametrize("seat", [True, 1.0, -1, 2, 10**5000, "0"],
                             ids=["true", "float", "minus-one", "two", "huge", "text"])
    def test_svg_refuses_a_hostile_seat(self, seat: object) -> None:
        """HOPPER-18: a picture of a seat's view names one of the seats."""
        with pytest.raises(MalformedInputError):
            svg(new_game(), seat)  # type: ignore[arg-type]
        assert GAME.svg is not None
        with pytest.raises(MalformedInputError):
            GAME.svg(new_game(), seat)  # type: ignore[arg-type]

    def test_state_of_another_class(self) -> None:
        """HOPPER-18: a value that is not a HOPPER state is malformed everywhere."""
        for call in (lambda: svg("state", None), lambda: observe("state"),  # type: ignore
                     lambda: check_state("state")):  # type: ignore[arg-type]
            with pytest.raises(MalformedInputError):
                call()
        assert not well_formed("state") and isinstance(new_game(), State)  # type: ignore


class TestCheckedOnce:
    @pytest.fixture
    def shape_checks(self, monkeypatch: pytest.MonkeyPatch) -> list[object]:
        """The states the entry check's shape test reads, in order."""
        from copa_ref.hopper import rules

        return count_shape_checks(monkeypatch, rules)

    def test_states_the_rules_built_are_never_checked(self, shape_checks: list[object]
                                                      ) -> None:
        """A whole game through the public functions: every state comes from ``new_game``
        or ``apply``, and none pays the entry check."""
        rng = random.Random(4)
        state = new_game(Config())
        while outcome(state) is None:
            to_move(state)
            observe(state, 0)
            if state.phase is Phase.LAND:
                action: Shoot | Land = sample_chance(state, rng)
            else:
                action = rng.choice(legal_actions(state, None))
            state = apply(state, action)
        assert shape_checks == []

    def test_a_state_from_outside_is_checked_once(self, shape_checks: list[object]) -> None:
        """A copy, an unpickled value, a rebuilt one: each is checked at its first entry
        (its checked slot is empty, never an ``AttributeError``), and not at the next."""
        state = new_game(Config())
        shot = legal_actions(state, None)[0]
        for outside in (copy.copy(state), pickle.loads(pickle.dumps(state)),
                        attrs.evolve(state)):
            assert to_move(outside) == to_move(state)
            legal_actions(outside, 0)
            apply(outside, shot)
            assert sum(seen is outside for seen in shape_checks) == 1
        assert len(shape_checks) == 3
