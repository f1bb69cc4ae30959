"""Copas properties: a state machine, whole random matches, and targeted properties.

Every step is checked with ``tests.support.check_step``: all step invariants of
``copa_ref.copas.invariants`` (COPAS-1 card conservation, COPAS-9 turn order, COPAS-11
suit-following, COPAS-13 trick winner, COPAS-14 equal hands, COPAS-8 first lead, COPAS-16
scores never decrease and plain rounds sum to 10, COPAS-17 pending ten books nothing,
COPAS-18 bonus round, COPAS-19 all cards, COPAS-20 match end, COPAS-7 dealer rotation),
well-formedness and the JSON round trip.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import attrs
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from copa_ref.copas import (
    GAME,
    AllCards,
    BonusAllCards,
    BonusOtherTen,
    Card,
    Config,
    CopasLead,
    Deal,
    Phase,
    Play,
    RankOrder,
    State,
    legal_actions,
    observe,
    to_move,
)
from copa_ref.copas.rules import DECK, legal_cards
from copa_ref.core import MoverKind, canonical_json, steps, uniform
from tests.support import play_random, playout_machine


@st.composite
def configs(draw: st.DrawFn) -> Config:
    """Any config: every player count and option, and the solver variant's smaller deals."""
    players = draw(st.sampled_from([3, 4, 5]))
    return Config(
        players=players,
        first_dealer=draw(st.integers(0, players - 1)),
        all_cards=draw(st.sampled_from(AllCards)),
        bonus_other_ten=draw(st.sampled_from(BonusOtherTen)),
        rank_order=draw(st.sampled_from(RankOrder)),
        copas_lead=draw(st.sampled_from(CopasLead)),
        end_when_copas_out=draw(st.booleans()),
        bonus_all_cards=draw(st.sampled_from(BonusAllCards)),
        cards_each=draw(st.sampled_from([None, None, 1, 2, 3, 8])),
    )


def candidates(state: State) -> Iterable[Any]:
    """Legal and illegal actions: every card by the mover, a card by another seat, bad deals."""
    n = state.config.players
    if state.phase is Phase.PLAY:
        mover = to_move(state).seats[0]
        yield from (Play(mover, card) for card in DECK)
        other = (mover + 1) % n
        yield Play(other, state.hands[other][0] if state.hands[other] else DECK[0])
        yield Deal(state.hands)
    elif state.phase is Phase.DEAL:
        deal = GAME.sample_chance(state, random.Random(state.round))
        hands = list(deal.hands)
        yield Deal(tuple(hands[:-1]))  # a hand short
        hands[0] = (*hands[0][1:], hands[1][0])  # a card twice, one missing
        yield Deal(tuple(hands))
        yield Play(state.leader, DECK[0])
    else:
        yield Play(0, DECK[0])


CopasMachine = playout_machine(GAME, configs(), candidates)
TestCopasMachine = CopasMachine.TestCase
TestCopasMachine.settings = settings(settings(), max_examples=40, stateful_step_count=400)


def play_from(state: State, rng: random.Random, max_steps: int = 5000) -> State:
    """Play random legal actions from *state* to the end of the match, checking every step."""
    steps = play_random(GAME, None, rng, start=state, max_steps=max_steps)
    return GAME.apply(*steps[-1])


class TestWholeMatches:
    def test_fixed_seeds_all_player_counts(self) -> None:
        """COPAS-20, COPAS-21: whole random matches for 3, 4 and 5 players end with a burst seat."""
        for players in (3, 4, 5):
            for seed in (1, 2):
                steps = play_random(GAME, Config(players=players), random.Random(seed))
                last = GAME.apply(*steps[-1])
                result = GAME.outcome(last)
                assert result is not None and result.rule == "COPAS-21"
                assert max(last.scores) >= 51 and result.losers
                assert len(steps) > 100

    @settings(max_examples=15)
    @given(config=configs(), seed=st.integers(0, 2**32 - 1))
    def test_generated_options(self, config: Config, seed: int) -> None:
        """COPAS-16: whole matches under generated options keep every invariant."""
        steps = play_random(GAME, config, random.Random(seed))
        assert GAME.outcome(GAME.apply(*steps[-1])) is not None

    @settings(max_examples=60)
    @given(
        config=configs(),
        data=st.data(),
        seed=st.integers(0, 2**32 - 1),
    )
    def test_late_starts(self, config: Config, data: st.DataObject, seed: int) -> None:
        """COPAS-17/COPAS-18/COPAS-20: from any scores below 51 and any pending seat (a match
        resumed at the deal of round 2), the match plays out with every invariant (bonus
        rounds and bursts come quickly)."""
        n = config.players
        scores = tuple(data.draw(st.lists(st.integers(0, 50), min_size=n, max_size=n)))
        pending = data.draw(st.none() | st.integers(0, n - 1))
        start = attrs.evolve(GAME.new_game(config), round=2, scores=scores, pending=pending)
        assert GAME.well_formed(start)
        end = play_from(start, random.Random(seed))
        assert end.phase is Phase.OVER and max(end.scores) >= 51
        assert all(a >= b for a, b in zip(end.scores, scores, strict=True))


def test_a_resumed_bonus_round_with_fewer_cards_books_the_copas_dealt() -> None:
    """COPAS-18 under COPAS-V1 (a match resumed with a pending seat, one card each): the
    pending seat taking every trick books its 10 and the copas dealt (not 20); the checks
    of every step agree with the rules (a case Hypothesis found)."""
    config = Config(players=3, all_cards=AllCards.OTHERS_TEN,
                    bonus_other_ten=BonusOtherTen.NEW_BONUS, copas_lead=CopasLead.ANY,
                    bonus_all_cards=BonusAllCards.TWENTY, cards_each=1)
    start = attrs.evolve(GAME.new_game(config), round=2, scores=(0, 0, 0), pending=1)
    end = play_from(start, random.Random(0))
    assert end.phase is Phase.OVER and max(end.scores) >= 51


def states_of_a_match(config: Config, seed: int) -> list[State]:
    return [step.before for step in steps(GAME, uniform, random.Random(seed), config=config,
                                          max_steps=200)]


class TestTargeted:
    @settings(max_examples=30)
    @given(config=configs(), seed=st.integers(0, 10**6), data=st.data())
    def test_hidden_cards_do_not_leak(self, config: Config, seed: int,
                                      data: st.DataObject) -> None:
        """COPAS-6: states differing only in other seats' hidden cards look the same."""
        states = [s for s in states_of_a_match(config, seed) if s.phase is Phase.PLAY]
        state = data.draw(st.sampled_from(states))
        n = config.players
        seat = data.draw(st.integers(0, n - 1))
        a, b = data.draw(st.sampled_from([(x, y) for x in range(n) for y in range(n)
                                          if x < y and seat not in (x, y)]))
        k = min(len(state.hands[a]), len(state.hands[b]))
        hands = list(state.hands)
        pool = list(hands[a]) + list(hands[b])
        random.Random(seed).shuffle(pool)
        size_a = len(hands[a])
        hands[a] = tuple(sorted(pool[:size_a], key=lambda c: c.index))
        hands[b] = tuple(sorted(pool[size_a:], key=lambda c: c.index))
        other = attrs.evolve(state, hands=tuple(hands))
        # Only a state legal play can reach enters the rules: a swap that gives a seat the
        # suit it has shown to be void in (COPAS-11) is no such state.
        assume(GAME.well_formed(other))
        assert k >= 0
        assert observe(state, seat) == observe(other, seat)
        assert observe(state, None) == observe(other, None)
        assert GAME.dumps(observe(state, seat)) == GAME.dumps(observe(other, seat))

    @settings(max_examples=30)
    @given(config=configs(), seed=st.integers(0, 10**6))
    def test_legal_actions_sorted_and_nonempty(self, config: Config, seed: int) -> None:
        """COPAS-12: at every play node some card is legal; the list is in canonical order."""
        for state in states_of_a_match(config, seed):
            mover = to_move(state)
            actions = legal_actions(state)
            if mover.kind is MoverKind.SEAT:
                texts = [canonical_json(GAME.to_json(a)) for a in actions]
                assert actions and texts == sorted(texts)
                assert legal_actions(state, mover.seats[0]) == actions
            else:
                assert actions == ()

    @given(hand=st.lists(st.sampled_from(DECK), unique=True, max_size=13),
           trick=st.lists(st.sampled_from(DECK), min_size=0, max_size=4, unique=True))
    def test_legal_cards_definition(self, hand: list[Card], trick: list[Card]) -> None:
        """COPAS-11: legal_cards is the led suit when held, else the whole hand."""
        h, t = tuple(hand), tuple(trick)
        result = legal_cards(h, t)
        if t and any(c.suit is t[0].suit for c in h):
            assert result == tuple(c for c in h if c.suit is t[0].suit)
        else:
            assert result == h
