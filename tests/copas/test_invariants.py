"""The Copas step invariants catch broken transitions, each naming its rule.

These are the checks the conformance runner applies to a foreign engine's states: every one
is shown here to fire on a tampered transition and to stay silent on the real one.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest

from copa_ref.copas import (
    Card,
    Deal,
    Phase,
    Play,
    State,
    apply,
    legal_actions,
    new_game,
    sample_chance,
)
from copa_ref.copas.invariants import (
    STEP_INVARIANTS,
    inv_all_cards,
    inv_bonus_round,
    inv_card_conservation,
    inv_dealer_rotation,
    inv_equal_hands,
    inv_first_lead,
    inv_follow_suit,
    inv_match_end,
    inv_pending_books_nothing,
    inv_round_scores,
    inv_scores_never_decrease,
    inv_trick_winner,
    inv_turn_order,
)
from copa_ref.copas.state import Action
from copa_ref.core import InvariantViolation
from tests.copas.helpers import (
    TEN_COPAS_HANDS,
    TEN_COPAS_SCRIPT,
    dealt,
    play_out_suit_deal,
    play_script,
    suit_hands,
)

Invariant = Callable[[State, Action, State], None]


def last_step(state: State, script: str) -> tuple[State, Play, State]:
    """(before, action, after) of the last card of *script*, played from *state*."""
    *head, last = script.split()
    before = play_script(state, " ".join(head))
    seat = (before.leader + len(before.trick)) % before.config.players
    action = Play(seat, Card(last))
    return before, action, apply(before, action)


def ten_copas_end(**fields: object) -> tuple[State, Play, State]:
    return last_step(dealt(TEN_COPAS_HANDS, **fields), TEN_COPAS_SCRIPT)


def suit_deal_end(**fields: object) -> tuple[State, Play, State]:
    state = dealt(suit_hands(), **fields)
    done = play_out_suit_deal(state)
    script = " ".join(str(c) for t in done.tricks for c in t.cards)
    return last_step(state, script)


def fires(invariant: Invariant, before: State, action: object, after: State, rule: str) -> None:
    with pytest.raises(InvariantViolation) as info:
        invariant(before, action, after)  # type: ignore[arg-type]
    assert info.value.rule == rule, str(info.value)


class TestRealTransitionsPass:
    @pytest.mark.parametrize("make", [ten_copas_end, suit_deal_end])
    def test_all_invariants_hold(self, make: Callable[..., tuple[State, Play, State]]) -> None:
        """COPAS-16: every invariant is silent on real round-ending transitions."""
        for fields in ({}, {"pending": 0}, {"pending": 1}, {"scores": (45, 0, 0, 0)}):
            before, action, after = make(**fields)
            for invariant in STEP_INVARIANTS:
                invariant(before, action, after)


class TestTamperedTransitionsFail:
    def test_card_lost(self) -> None:
        """COPAS-1: a card vanishing is caught."""
        before, action, after = last_step(dealt(TEN_COPAS_HANDS), "2e 3p")
        bad = attrs.evolve(after, hands=(after.hands[0][1:], *after.hands[1:]))
        fires(inv_card_conservation, before, action, bad, "COPAS-1")

    def test_out_of_turn(self) -> None:
        """COPAS-9: a play by the wrong seat is caught."""
        before, _, after = last_step(dealt(TEN_COPAS_HANDS), "2e 3p")
        fires(inv_turn_order, before, Play(3, Card("2o")), after, "COPAS-9")

    def test_revoke(self) -> None:
        """COPAS-11: a discard by a seat holding the led suit is caught."""
        before = play_script(dealt(TEN_COPAS_HANDS), "2e 3p 2o")
        fires(inv_follow_suit, before, Play(0, Card("2p")), before, "COPAS-11")

    def test_wrong_trick_winner(self) -> None:
        """COPAS-13: a trick given to the wrong seat is caught."""
        before, action, after = last_step(dealt(TEN_COPAS_HANDS), "2e 3p 2o 3e")
        trick = attrs.evolve(after.tricks[-1], winner=2)
        bad = attrs.evolve(after, tricks=(*after.tricks[:-1], trick), leader=2)
        fires(inv_trick_winner, before, action, bad, "COPAS-13")

    def test_unequal_hands(self) -> None:
        """COPAS-14: unequal hands at a trick's start are caught."""
        before, action, after = last_step(dealt(TEN_COPAS_HANDS), "2e 3p 2o 3e")
        hands = (after.hands[0][1:], *after.hands[1:])
        fires(inv_equal_hands, before, action, attrs.evolve(after, hands=hands), "COPAS-14")

    def test_wrong_first_leader(self) -> None:
        """COPAS-8: a deal that hands the lead to the dealer is caught."""
        before = new_game()
        action = Deal(suit_hands())
        after = attrs.evolve(apply(before, action), leader=0)
        fires(inv_first_lead, before, action, after, "COPAS-8")

    def test_scores_decrease(self) -> None:
        """COPAS-16: points taken back are caught."""
        before, action, after = suit_deal_end(scores=(5, 5, 5, 5))
        bad = attrs.evolve(after, scores=(4, 5, 15, 15))
        fires(inv_scores_never_decrease, before, action, bad, "COPAS-16")

    def test_wrong_round_points(self) -> None:
        """COPAS-16: a plain round booking other than the copas taken is caught."""
        rng = random.Random(11)
        state = apply(new_game(), sample_chance(new_game(), rng))
        while True:
            before = state
            action = rng.choice(legal_actions(before))
            state = apply(before, action)
            if state.phase is not Phase.PLAY:
                break
        after = state
        assert after.pending is None and sum(after.scores) == 10
        inv_round_scores(before, action, after)
        booked = (*after.scores[:-1], after.scores[-1] + 1)
        bad = attrs.evolve(after, scores=booked, last_round=booked)
        fires(inv_round_scores, before, action, bad, "COPAS-16")

    def test_pending_ten_booked(self) -> None:
        """COPAS-17: booking the pending ten (or anything) in a round creating it is caught."""
        before, action, after = ten_copas_end()
        bad = attrs.evolve(after, scores=(0, 10, 0, 0), last_round=(0, 10, 0, 0))
        fires(inv_pending_books_nothing, before, action, bad, "COPAS-17")

    def test_pending_not_erased(self) -> None:
        """COPAS-18: a pending seat that took no copas keeping its ten is caught."""
        before, action, after = ten_copas_end(pending=0)
        bad = attrs.evolve(after, scores=(10, 0, 0, 0), last_round=(10, 0, 0, 0))
        fires(inv_bonus_round, before, action, bad, "COPAS-18")

    def test_pending_not_booked(self) -> None:
        """COPAS-18: a pending seat taking all ten again booking less than 20 is caught."""
        before, action, after = ten_copas_end(pending=1)
        assert after.scores == (0, 20, 0, 0)
        bad = attrs.evolve(after, scores=(0, 10, 0, 0), last_round=(0, 10, 0, 0))
        fires(inv_bonus_round, before, action, bad, "COPAS-18")

    def test_all_cards_not_ten(self) -> None:
        """COPAS-19: another seat not booked 10 when one took every card is caught."""
        before, action, after = suit_deal_end()
        bad = attrs.evolve(after, scores=(10, 0, 5, 10), last_round=(10, 0, 5, 10))
        fires(inv_all_cards, before, action, bad, "COPAS-19")

    def test_match_end_missed(self) -> None:
        """COPAS-20: a match going on after a burst is caught."""
        before, action, after = suit_deal_end(scores=(45, 0, 0, 0))
        assert after.phase is Phase.OVER
        bad = attrs.evolve(after, phase=Phase.DEAL)
        fires(inv_match_end, before, action, bad, "COPAS-20")

    def test_dealer_not_rotated(self) -> None:
        """COPAS-7: a next round dealt by the same dealer is caught."""
        before, action, after = suit_deal_end()
        fires(inv_dealer_rotation, before, action, attrs.evolve(after, dealer=0), "COPAS-7")
