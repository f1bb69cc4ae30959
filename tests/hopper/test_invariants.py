"""Every HOPPER step invariant fires on a tampered transition, naming its rule (so the state
machine's checks are not vacuous)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from copa_ref.core import InvariantViolation, Seat
from copa_ref.hopper import Config, Ending, Land, Phase, Shoot, State, apply, outcome
from copa_ref.hopper.invariants import (
    STEP_INVARIANTS,
    beans_conserved,
    black_cup_joins_on_time,
    claims_follow_foursomes,
    cups_accounted_for,
    cups_hold_at_most_three,
    replenish_only_when_empty,
    scores_are_cup_values,
    state_is_valid,
    turns_go_clockwise,
)

from .positions import table, tray_of

Invariant = Callable[[State, Any, State], None]
END_2 = Config(ending=Ending.END_2)


def fails(invariant: Invariant, before: State, action: Any, after: State, rule: str) -> None:
    """*invariant* raises naming *rule*; the untampered step passes every invariant."""
    with pytest.raises(InvariantViolation) as info:
        invariant(before, action, after)
    assert info.value.rule == rule, str(info.value)


def landing(before: State, cup: int | None) -> tuple[State, Land, State]:
    action = Land(cup)
    after = apply(before, action)
    for invariant in STEP_INVARIANTS:
        invariant(before, action, after)
    return before, action, after


def in_air(config: Config | None = None, **kw: object) -> State:
    state = table(config, **kw)  # type: ignore[arg-type]
    return apply(state, Shoot(state.turn if state.turn is not None else 0, state.tray[0][0]))


class TestTampered:
    def test_lost_bean(self) -> None:
        """HOPPER-19: a landing that loses a bean."""
        before, action, after = landing(in_air(tray=tray_of(*(0,) * 16)), None)
        fails(beans_conserved, before, action, attrs.evolve(after, loose=0), "HOPPER-19")

    def test_bean_from_the_wrong_hand(self) -> None:
        """HOPPER-19: a landing that takes the bean from another seat's hand."""
        before, action, after = landing(in_air(tray=tray_of(*(0,) * 16)), None)
        wrong = attrs.evolve(after, hands=(after.hands[0] + 1, after.hands[1] - 1))
        fails(beans_conserved, before, action, wrong, "HOPPER-19")

    def test_replenish_with_beans(self) -> None:
        """HOPPER-10: a seat holding beans takes the loose ones."""
        before = table(tray=tray_of(*(0,) * 16), loose=4)
        action = Shoot(0, 0)
        after = apply(before, action)
        wrong = attrs.evolve(after, hands=(after.hands[0] + 4, after.hands[1]), loose=0)
        fails(replenish_only_when_empty, before, action, wrong, "HOPPER-10")

    def test_replenish_partly(self) -> None:
        """HOPPER-10: an empty-handed shooter takes only some loose beans."""
        before = table(tray=tray_of(*(0,) * 16), loose=4, hands=(0, 76))
        action = Shoot(0, 0)
        after = apply(before, action)
        wrong = attrs.evolve(after, hands=(1, 76), loose=3)
        fails(replenish_only_when_empty, before, action, wrong, "HOPPER-10")

    def test_fourth_bean_kept(self) -> None:
        """HOPPER-8: a cup left holding four beans."""
        before, action, after = landing(in_air(tray=tray_of(3, *(0,) * 15)), 0)
        wrong = attrs.evolve(after, tray=((0, 4), *after.tray), claims=(), loose=0)
        fails(cups_hold_at_most_three, before, action, wrong, "HOPPER-8")

    def test_bean_not_in_cup(self) -> None:
        """HOPPER-7: a bean landing in a cup that does not take it."""
        before, action, after = landing(in_air(tray=tray_of(1, *(0,) * 15)), 0)
        wrong = attrs.evolve(after, tray=((0, 1), *after.tray[1:]), loose=1)
        fails(cups_hold_at_most_three, before, action, wrong, "HOPPER-7")

    def test_claim_without_foursome(self) -> None:
        """HOPPER-8: a cup claimed without a foursome, or by the wrong seat."""
        before, action, after = landing(in_air(tray=tray_of(3, 2, *(0,) * 14)), 1)
        wrong = attrs.evolve(after, claims=((0, 1),))
        fails(claims_follow_foursomes, before, action, wrong, "HOPPER-8")
        before, action, after = landing(in_air(tray=tray_of(3, 2, *(0,) * 14)), 0)
        wrong = attrs.evolve(after, claims=((1, 0),))
        fails(claims_follow_foursomes, before, action, wrong, "HOPPER-8")

    def test_cup_lost(self) -> None:
        """HOPPER-2: a claimed cup that also stays in the tray, or vanishes."""
        before, action, after = landing(in_air(tray=tray_of(3, *(0,) * 15)), 0)
        fails(cups_accounted_for, before, action, attrs.evolve(after, claims=()), "HOPPER-2")
        kept = attrs.evolve(after, tray=((0, 0), *after.tray))
        fails(cups_accounted_for, before, action, kept, "HOPPER-2")

    def test_tray_reordered(self) -> None:
        """HOPPER-9: closing up keeps the tray's order."""
        before, action, after = landing(in_air(tray=tray_of(3, *(0,) * 15)), 0)
        wrong = attrs.evolve(after, tray=(after.tray[1], after.tray[0], *after.tray[2:]))
        fails(cups_accounted_for, before, action, wrong, "HOPPER-9")

    def test_black_cup_late_or_early(self) -> None:
        """HOPPER-14: the black cup not joining at three cups, or joining under End 1."""
        claims = tuple((c % 2, c) for c in range(4, 16))
        before, action, after = landing(in_air(END_2, tray=tray_of(3, 1, 0, 2),
                                               claims=claims), 0)
        wrong = attrs.evolve(after, tray=after.tray[:-1])
        fails(black_cup_joins_on_time, before, action, wrong, "HOPPER-14")
        before, action, after = landing(in_air(tray=tray_of(*(0,) * 16)), None)
        wrong = attrs.evolve(after, tray=(*after.tray, (16, 0)))
        fails(black_cup_joins_on_time, before, action, wrong, "HOPPER-14")

    def test_wrong_next_turn(self) -> None:
        """HOPPER-4: after a shot the turn goes to someone other than the next seat."""
        before, action, after = landing(in_air(Config(players=3), tray=tray_of(*(0,) * 16)),
                                        None)
        fails(turns_go_clockwise, before, action, attrs.evolve(after, turn=2), "HOPPER-4")

    def test_turn_to_an_empty_seat(self) -> None:
        """HOPPER-11: the turn goes to a seat with no beans while none are loose."""
        state = table(Config(players=3), tray=tray_of(*(0,) * 16), hands=(38, 0, 40))
        before, action, after = landing(apply(state, Shoot(0, 0)), 0)
        assert after.turn == 2
        fails(turns_go_clockwise, before, action, attrs.evolve(after, turn=1), "HOPPER-11")

    def test_turn_in_shoot_out(self) -> None:
        """HOPPER-15: a turn in the shoot-out."""
        claims = tuple((0 if c < 7 else 1, c) for c in range(3, 16))
        before, action, after = landing(in_air(END_2, tray=tray_of(0, 0, 0, 0, cups=(0, 1, 2, 16)),
                                               claims=claims, turn=None), None)
        fails(turns_go_clockwise, before, action, attrs.evolve(after, turn=1), "HOPPER-15")

    def test_wrong_scores(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """HOPPER-16, HOPPER-17: an outcome whose scores are not the claimed cups' values,
        or whose winners are not the best of them."""
        claims = (*((0, c) for c in range(16) if c != 5), (1, 16))
        before, action, after = landing(in_air(END_2, tray=tray_of(3, cups=(5,)),
                                               claims=claims, turn=None), 5)
        right = outcome(after)
        assert right is not None and right.scores == (18, 2)
        module = "copa_ref.hopper.invariants.outcome"
        monkeypatch.setattr(module, lambda state: attrs.evolve(right, scores=(18, 1)))
        fails(scores_are_cup_values, before, action, after, "HOPPER-16")
        monkeypatch.setattr(module, lambda state: attrs.evolve(right, winners=(Seat(1),)))
        fails(scores_are_cup_values, before, action, after, "HOPPER-17")

    def test_invalid_state(self) -> None:
        """HOPPER-12: a state no play produces (a winner, the game not over)."""
        claims = ((0, 0), (0, 1), (0, 2), (1, 4), (1, 5))
        state = table(tray=tuple((c, 3 if c == 3 else 0) for c in range(16)
                                 if c not in {0, 1, 2, 4, 5}), claims=claims)
        before, action, after = landing(apply(state, Shoot(0, 3)), 3)
        assert after.phase is Phase.OVER
        wrong = attrs.evolve(after, phase=Phase.AIM, turn=1)
        fails(state_is_valid, before, action, wrong, "HOPPER-12")
