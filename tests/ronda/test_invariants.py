"""The RONDA step invariants catch broken transitions, each naming its rule.

These are the checks the conformance runner applies to a foreign engine's states: each is
shown to stay silent on real transitions and to fire on a tampered one.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from copa_ref.core import InvariantViolation
from copa_ref.ronda import Action, Arrange, Config, Lift, Phase, State, Stop, apply
from copa_ref.ronda.invariants import (
    STEP_INVARIANTS,
    arrangement_is_the_counts,
    at_most_two_lifted,
    beans_conserved,
    black_cup_only_from_a_full_pair,
    no_cup_over_the_maximum,
    only_lifted_cups_change,
    out_only_whole_groups,
    penalty_only_while_black_holds_beans,
    state_is_valid,
    turn_passes_clockwise,
    winner_is_first_without_beans,
)
from tests.ronda.helpers import ARRANGEMENT, act, arranged, play, position

Invariant = Callable[[State, Action, State], None]

FIVES = (5, 5, 1, 1, 2, 2, 3, 0, 0, 1)
BLACK = (3, 0, 1, 4, 2, 2, 0, 1, 1, 0)


def step(state: State, word: str) -> tuple[State, Action, State]:
    """``(before, action, after)`` of one scripted word."""
    kind, _, cup = word.partition(":")
    action = act(state, kind, int(cup) if cup else None)
    return state, action, apply(state, action)


def fires(invariant: Invariant, before: State, action: Action, after: State,
          rule: str) -> None:
    with pytest.raises(InvariantViolation) as info:
        invariant(before, action, after)
    assert info.value.rule == rule, str(info.value)


def real_steps() -> list[tuple[State, Action, State]]:
    """Real transitions of every kind: arrange, lift, mismatch with and without penalty,
    match, add, keep, stop, two fives to the black cup and out, the win."""
    start = position(FIVES, supplies=(1, 19))
    set_up = attrs.evolve(arranged(), phase=Phase.SET_UP, cups=())
    return [
        (set_up, Arrange(ARRANGEMENT), arranged()),
        step(arranged(), "lift:4"),
        step(play(arranged(), "lift:0"), "lift:1"),
        step(play(position(BLACK, black=6), "lift:0"), "lift:1"),
        step(play(arranged(), "lift:4"), "lift:5"),
        step(play(arranged(), "lift:4 lift:5"), "add:4"),
        step(play(arranged(), "lift:4 lift:5 add:4"), "keep:4"),
        step(play(arranged(), "lift:4 lift:5 add:4"), "stop"),
        step(play(position(FIVES), "lift:0 lift:1"), "add:1"),
        step(play(position((5, 5, 1, 1, 2, 0, 0, 0, 0, 0), black=6), "lift:0 lift:1"),
             "add:0"),
        step(play(start, "lift:0 lift:1"), "add:0"),
    ]


class TestRealTransitionsPass:
    def test_every_invariant_holds(self) -> None:
        """RONDA-15: every invariant is silent on real transitions of every kind."""
        for before, action, after in real_steps():
            for invariant in STEP_INVARIANTS:
                invariant(before, action, after)


class TestTamperedTransitionsFail:
    def test_bean_lost(self) -> None:
        """RONDA-15: a bean vanishing is caught."""
        before, action, after = step(play(arranged(), "lift:4 lift:5"), "add:4")
        bad = attrs.evolve(after, supplies=(8, 10))
        fires(beans_conserved, before, action, bad, "RONDA-15")

    def test_wrong_arrangement(self) -> None:
        """RONDA-3: cups that are not the chance action's are caught."""
        before = attrs.evolve(arranged(), phase=Phase.SET_UP, cups=())
        after = arranged(cups=(0, 0, 1, 1, 2, 2, 3, 3, 4, 4))
        fires(arrangement_is_the_counts, before, Arrange(ARRANGEMENT), after, "RONDA-3")

    def test_turn_skips_a_seat(self) -> None:
        """RONDA-4: the turn jumping over a seat is caught."""
        before, action, after = step(play(arranged(Config(players=3)), "lift:0"), "lift:1")
        fires(turn_passes_clockwise, before, action, attrs.evolve(after, turn=2), "RONDA-4")

    def test_mismatch_keeps_the_turn(self) -> None:
        """RONDA-6: a mismatch that does not pass the turn is caught."""
        before, action, after = step(play(arranged(), "lift:0"), "lift:1")
        fires(turn_passes_clockwise, before, action, attrs.evolve(after, turn=0), "RONDA-6")

    def test_three_lifted(self) -> None:
        """RONDA-5: three cups lifted is caught."""
        before, action, after = step(play(arranged(), "lift:4"), "lift:5")
        bad = attrs.evolve(after, lifted=(4, 5, 0))
        fires(at_most_two_lifted, before, action, bad, "RONDA-5")

    def test_covered_cup_changes(self) -> None:
        """RONDA-7: a bean onto a covered cup is caught."""
        before, action, after = step(play(arranged(), "lift:4 lift:5"), "add:4")
        cups = (after.cups[0] + 1, *after.cups[1:4], 2, *after.cups[5:])
        fires(only_lifted_cups_change, before, action, attrs.evolve(after, cups=cups),
              "RONDA-7")

    def test_cup_over_the_maximum(self) -> None:
        """RONDA-10: a sixth bean in a cup is caught (RONDA-17 under the maximum of 4)."""
        before, action, after = step(play(position(FIVES), "lift:0 lift:1"), "add:1")
        bad = attrs.evolve(after, cups=(6, *after.cups[1:]))
        fires(no_cup_over_the_maximum, before, action, bad, "RONDA-10")
        four = attrs.evolve(after, config=Config(max_beans=4), cups=(5, *after.cups[1:]))
        fires(no_cup_over_the_maximum, before, action, four, "RONDA-17")

    def test_black_cup_from_a_smaller_pair(self) -> None:
        """RONDA-10: the black cup taking a group that is not the maximum is caught."""
        before, action, after = step(play(arranged(), "lift:4 lift:5"), "add:4")
        bad = attrs.evolve(after, black=3)
        fires(black_cup_only_from_a_full_pair, before, action, bad, "RONDA-10")

    def test_black_cup_without_penalty_beans(self) -> None:
        """RONDA-18: the black cup filling without penalty beans is caught."""
        cfg = Config(penalty_beans=False)
        before, action, after = step(play(position(FIVES, config=cfg), "lift:0 lift:1"),
                                     "add:1")
        bad = attrs.evolve(after, black=6, out=0)
        fires(black_cup_only_from_a_full_pair, before, action, bad, "RONDA-18")

    def test_six_out_while_black_cup_empty(self) -> None:
        """RONDA-12: a group leaving the game while the black cup is empty is caught."""
        before, action, after = step(play(position(FIVES), "lift:0 lift:1"), "add:1")
        bad = attrs.evolve(after, black=0, out=6)
        fires(out_only_whole_groups, before, action, bad, "RONDA-12")

    def test_penalty_missing(self) -> None:
        """RONDA-11: a mismatch without its penalty bean is caught."""
        before, action, after = step(play(position(BLACK, black=6), "lift:0"), "lift:1")
        bad = attrs.evolve(after, black=6, supplies=(10, 10))
        fires(penalty_only_while_black_holds_beans, before, action, bad, "RONDA-11")

    def test_penalty_on_a_stop(self) -> None:
        """RONDA-11: a penalty bean on missing a go is caught."""
        before, action, after = step(play(position(BLACK, black=6), "lift:4 lift:5 add:4"),
                                     "stop")
        assert isinstance(action, Stop)
        bad = attrs.evolve(after, black=5, supplies=(10, 10))
        fires(penalty_only_while_black_holds_beans, before, action, bad, "RONDA-11")

    def test_game_goes_on_without_beans(self) -> None:
        """RONDA-13: a game going on after a player gave his last bean is caught."""
        before, action, after = step(play(position(FIVES, supplies=(1, 19)),
                                          "lift:0 lift:1"), "add:0")
        assert after.phase is Phase.OVER
        bad = attrs.evolve(after, phase=Phase.LIFT, turn=1)
        fires(winner_is_first_without_beans, before, action, bad, "RONDA-13")

    def test_invalid_state_after(self) -> None:
        """RONDA-14: a state that shows a count the cup does not hold is caught."""
        before, action, after = step(arranged(), "lift:4")
        assert isinstance(action, Lift)
        fires(state_is_valid, before, action, attrs.evolve(after, shown=(4, 3)), "RONDA-14")
