"""The Kopa step invariants catch broken transitions, each naming its rule.

These are the checks the conformance runner applies to a foreign engine's states: every one
is shown here to fire on a tampered transition and to stay silent on the real one.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest

from copa_ref.core import InvariantViolation
from copa_ref.kopa import GAME, Card, Config, Deal, Pass, Phase, Play, State, apply, new_game
from copa_ref.kopa.invariants import (
    STEP_INVARIANTS,
    inv_card_conservation,
    inv_card_on_its_pile,
    inv_draw,
    inv_eights,
    inv_first_player,
    inv_match_end,
    inv_next_round,
    inv_no_skipping,
    inv_own_hand,
    inv_penalties,
    inv_piles_are_runs,
    inv_round_end,
    inv_scores,
    inv_turn_order,
)
from copa_ref.kopa.rules import legal_actions
from copa_ref.kopa.state import Action
from tests.kopa.helpers import RUN_HANDS, cards, dealt, play_script, restocked, two

Invariant = Callable[[State, Action, State], None]

EIGHT_READY = "S1 S15 O1 S2 S14 O2 S3 S13 O3 S4 S12 O4 S5 S11 O5 S6 S10 O6 S7 S9"


def step(state: State, action: Action) -> tuple[State, Action, State]:
    return state, action, apply(state, action)


def last_step(state: State, script: str) -> tuple[State, Action, State]:
    *head, last = script.split()
    before = play_script(state, " ".join(head))
    action: Action = Pass(before.turn) if last == "-" else Play(before.turn, Card(last))
    return step(before, action)


def round_end(**fields: object) -> tuple[State, Action, State]:
    state = dealt(**fields)
    while True:
        plays = [a for a in legal_actions(state) if isinstance(a, Play)]
        action: Action = plays[0] if plays else Pass(state.turn)
        after = apply(state, action)
        if after.phase not in (Phase.PLAY, Phase.DRAWN):
            return state, action, after
        state = after


def fires(invariant: Invariant, before: State, action: Action, after: State, rule: str) -> None:
    with pytest.raises(InvariantViolation) as info:
        invariant(before, action, after)
    assert info.value.rule == rule, str(info.value)


class TestRealTransitionsPass:
    def test_all_invariants_hold(self) -> None:
        """KOPA-20: every invariant is silent on real transitions (plays, passes, draws,
        the 8, a round's end, the match's end)."""
        transitions = [
            step(new_game(), Deal(RUN_HANDS)),
            last_step(dealt(), "S1 S15"),
            last_step(dealt(), "S1 -"),
            last_step(dealt(), EIGHT_READY + " S8"),
            last_step(two(), "S1 -"),
            last_step(two(), "-"),
            round_end(),
            round_end(scores=(19, 0, 0)),
        ]
        for before, action, after in transitions:
            for invariant in STEP_INVARIANTS:
                invariant(before, action, after)


class TestTamperedTransitionsFail:
    def test_card_lost(self) -> None:
        """KOPA-1: a card vanishing is caught."""
        before, action, after = last_step(dealt(), "S1 S15")
        bad = attrs.evolve(after, hands=(after.hands[0][1:], *after.hands[1:]))
        fires(inv_card_conservation, before, action, bad, "KOPA-1")

    def test_wrong_first_player(self) -> None:
        """KOPA-5: a deal that gives the dealer the first turn is caught."""
        before, action, after = step(new_game(), Deal(RUN_HANDS))
        fires(inv_first_player, before, action, attrs.evolve(after, turn=2), "KOPA-5")

    def test_out_of_turn(self) -> None:
        """KOPA-6: an action by the wrong seat, or the turn not passing on, is caught."""
        before, action, after = last_step(dealt(), "S1 S15")
        fires(inv_turn_order, before, Play(2, Card("S15")), after, "KOPA-6")
        fires(inv_turn_order, before, action, attrs.evolve(after, turn=0), "KOPA-6")

    def test_card_not_held(self) -> None:
        """KOPA-7: a card played that was not in the hand is caught."""
        before, _, after = last_step(dealt(), "S1 S15")
        fires(inv_own_hand, before, Play(1, Card("O1")), after, "KOPA-7")

    def test_pile_not_a_run(self) -> None:
        """KOPA-9: an up-pile that is not 1, 2, … is caught."""
        before, action, after = last_step(dealt(), "S1 S15 O1 S2")
        bad = attrs.evolve(after, piles=(cards("S1 S3"), *after.piles[1:]))
        fires(inv_piles_are_runs, before, action, bad, "KOPA-9")
        bad = attrs.evolve(after, piles=(cards("S2"), *after.piles[1:]))
        fires(inv_piles_are_runs, before, action, bad, "KOPA-8")

    def test_down_pile_not_a_run(self) -> None:
        """KOPA-10: a down-pile that is not 15, 14, … is caught."""
        before, action, after = last_step(dealt(), "S1 S15 O1 S2 S14")
        bad = attrs.evolve(after, piles=(after.piles[0], cards("S15 S13"), *after.piles[2:]))
        fires(inv_piles_are_runs, before, action, bad, "KOPA-10")

    def test_card_on_another_pile(self) -> None:
        """KOPA-11: a card laid on another suit's pile is caught."""
        before, action, after = last_step(dealt(), "S1 S15 O1 S2")
        piles = list(after.piles)
        piles[0], piles[6] = cards("S1"), cards("O1 S2")
        fires(inv_card_on_its_pile, before, action, attrs.evolve(after, piles=tuple(piles)),
              "KOPA-11")

    def test_skipped_number(self) -> None:
        """KOPA-12: a played card that was not its pile's next is caught."""
        before, _, after = last_step(dealt(), "S1 S15 O1 S2")
        fires(inv_no_skipping, before, Play(0, Card("S3")), after, "KOPA-12")

    def test_eight_too_early(self) -> None:
        """KOPA-13: an 8 lying without its 7 and 9 is caught."""
        before, action, after = last_step(dealt(), "S1 S15")
        bad = attrs.evolve(after, eights=cards("S8"))
        fires(inv_eights, before, action, bad, "KOPA-13")

    def test_wrong_penalty(self) -> None:
        """KOPA-15/KOPA-16: a pass charged the wrong amount is caught."""
        before, action, after = step(dealt(), Pass(0))
        assert after.penalties == (5, 0, 0)
        fires(inv_penalties, before, action, attrs.evolve(after, penalties=(1, 0, 0)),
              "KOPA-16")
        state = restocked(apply(two(), Play(0, Card("S1"))))
        before, action, after = step(state, Pass(1))
        fires(inv_penalties, before, action, attrs.evolve(after, penalties=(0, 5)), "KOPA-15")
        before, action, after = last_step(dealt(), "S1")
        fires(inv_penalties, before, action, attrs.evolve(after, penalties=(1, 0, 0)),
              "KOPA-15")

    def test_draw_tampered(self) -> None:
        """KOPA-18: a draw that does not take the stock's top card is caught."""
        before, action, after = last_step(two(), "S1 -")
        bad = attrs.evolve(after, stock=before.stock[2:])
        fires(inv_draw, before, action, bad, "KOPA-18")
        before, action, after = last_step(two(), "S1")
        fires(inv_draw, before, action, attrs.evolve(after, stock=after.stock[1:]), "KOPA-18")

    def test_round_not_ended(self) -> None:
        """KOPA-19: a round going on after a hand is empty is caught."""
        before, action, after = round_end()
        fires(inv_round_end, before, action, attrs.evolve(after, phase=Phase.PLAY), "KOPA-19")

    def test_wrong_scores(self) -> None:
        """KOPA-20: a winner scored wrongly, or a score changed mid-round, is caught."""
        before, action, after = round_end()
        bad = attrs.evolve(after, scores=(after.scores[0] + 1, *after.scores[1:]))
        fires(inv_scores, before, action, bad, "KOPA-20")
        before, action, after = last_step(dealt(), "S1")
        fires(inv_scores, before, action, attrs.evolve(after, scores=(1, 0, 0)), "KOPA-20")

    def test_dealer_not_rotated(self) -> None:
        """KOPA-21: a next round dealt by the same dealer is caught."""
        before, action, after = round_end()
        fires(inv_next_round, before, action, attrs.evolve(after, dealer=2), "KOPA-21")

    def test_match_end_missed(self) -> None:
        """KOPA-22: a match going on after a seat reached the target is caught."""
        before, action, after = round_end(scores=(19, 0, 0))
        assert after.phase is Phase.OVER
        fires(inv_match_end, before, action, attrs.evolve(after, phase=Phase.DEAL), "KOPA-22")

    def test_random_transitions_pass(self) -> None:
        """KOPA-1: the invariants hold along random play under every player count."""
        for n in (2, 3, 4, 5):
            rng = random.Random(n)
            state = new_game(Config(players=n))
            for _ in range(150):
                action = GAME.random_action(state, rng)
                after = apply(state, action)
                for invariant in STEP_INVARIANTS:
                    invariant(state, action, after)
                state = after
