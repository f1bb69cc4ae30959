"""Kopa properties: a state machine over generated configs and 2-5 players, random steps from
resumed scores, and targeted properties.

Every step is checked with ``tests.support.check_step``: all step invariants of
``copa_ref.kopa.invariants`` (KOPA-1 card conservation, KOPA-4/KOPA-5/KOPA-17 the deal and the
first player, KOPA-6 turn order, KOPA-7 own hand, KOPA-8/KOPA-9/KOPA-10 piles are runs,
KOPA-11 own suit's pile, KOPA-12 no skipping, KOPA-13 the 8, KOPA-15/KOPA-16/KOPA-18
penalties, KOPA-18 the draw, KOPA-19 round end, KOPA-20 scores, KOPA-21 next round, KOPA-22
match end), well-formedness and the JSON round trip. At every decision node legal_actions and
apply agree on every card of the deck by the mover, a pass by the mover and by another seat.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from copa_ref.core import MoverKind, canonical_json
from copa_ref.kopa import (
    GAME,
    Config,
    Deal,
    DeclinedDraw,
    FalsePass,
    Pass,
    Phase,
    Play,
    State,
    legal_actions,
    observe,
    to_move,
)
from copa_ref.kopa.demo import simple_player
from copa_ref.kopa.rules import DECK
from tests.support import check_step, playout_machine


@st.composite
def configs(draw: st.DrawFn) -> Config:
    """Any config: every player count and option."""
    players = draw(st.sampled_from([2, 3, 4, 5]))
    return Config(
        players=players,
        target=draw(st.sampled_from([20, 30])),
        first_dealer=draw(st.none() | st.integers(0, players - 1)),
        false_pass=draw(st.sampled_from(FalsePass)),
        declined_draw=draw(st.sampled_from(DeclinedDraw)),
    )


def candidates(state: State) -> Iterable[Any]:
    """Legal and near-miss actions: every card by the mover, passes, a deal at a play node."""
    n = state.config.players
    if state.phase in (Phase.PLAY, Phase.DRAWN):
        mover = state.turn
        yield from (Play(mover, card) for card in DECK)
        yield Pass(mover)
        other = (mover + 1) % n
        yield Pass(other)
        yield Play(other, state.hands[other][0])
        yield Deal(state.hands)
    elif state.phase is Phase.DEAL:
        deal = GAME.sample_chance(state, random.Random(state.round))
        hands = list(deal.hands)
        yield Deal(tuple(hands[:-1]))
        hands[0] = (*hands[0][1:], hands[1][0])
        yield Deal(tuple(hands))
        yield Pass(state.turn)
    else:
        yield Pass(0)


KopaMachine = playout_machine(GAME, configs(), candidates)
TestKopaMachine = KopaMachine.TestCase
TestKopaMachine.settings = settings(settings(), max_examples=20, stateful_step_count=250)


def play_simple(state: State, rng: random.Random, max_steps: int = 1500) -> State:
    """Play mostly simple players (a legal card when there is one, now and then a random
    action) to the end or *max_steps*, checking each step. Matches need not end (KOPA-Q14):
    penalties can drive every score down for ever."""
    for _ in range(max_steps):
        mover = to_move(state)
        if mover.is_over:
            return state
        if mover.kind is MoverKind.CHANCE:
            action = GAME.sample_chance(state, rng)
        else:
            action = simple_player(state, rng) if rng.random() < 0.97 else GAME.random_action(
                state, rng)
        state = check_step(GAME, state, action)
    return state


class TestWholeMatches:
    @settings(max_examples=12)
    @given(config=configs(), data=st.data(), seed=st.integers(0, 2**32 - 1))
    def test_late_starts(self, config: Config, data: st.DataObject, seed: int) -> None:
        """KOPA-20/KOPA-21/KOPA-22: from any scores below the target (a match resumed at the
        deal of round 2), mostly simple players play on with every invariant; a match that
        ends has one winner at the target."""
        n = config.players
        low = config.target - 8
        scores = tuple(data.draw(st.lists(st.integers(low, config.target - 1), min_size=n,
                                          max_size=n)))
        start = attrs.evolve(GAME.new_game(config), round=2, scores=scores)
        assert GAME.well_formed(start)
        end = play_simple(start, random.Random(seed))
        result = GAME.outcome(end)
        assert (result is None) == (max(end.scores) < config.target)
        if result is not None:
            assert result.rule == "KOPA-22" and len(result.winners) == 1
            assert end.scores[result.winners[0]] >= config.target


def states_of_a_match(config: Config, seed: int, limit: int = 150) -> list[State]:
    rng = random.Random(seed)
    state = GAME.new_game(config)
    states = []
    while not to_move(state).is_over and len(states) < limit:
        states.append(state)
        state = GAME.apply(state, GAME.random_action(state, rng))
    return states


class TestTargeted:
    @settings(max_examples=30)
    @given(config=configs(), seed=st.integers(0, 10**6), data=st.data())
    def test_hidden_cards_do_not_leak(self, config: Config, seed: int,
                                      data: st.DataObject) -> None:
        """KOPA-17: states differing only in cards hidden from a seat (the others' hands, the
        stock) look the same to it and to a spectator, and differ to a seat that sees them."""
        states = [s for s in states_of_a_match(config, seed) if s.phase is Phase.PLAY]
        state = data.draw(st.sampled_from(states))
        n = config.players
        seat = data.draw(st.integers(0, n - 1))
        pools = [s for s in range(n) if s != seat]
        hidden = [list(state.hands[s]) for s in pools] + [list(state.stock)]
        flat = [c for part in hidden for c in part]
        rng = random.Random(seed)
        rng.shuffle(flat)
        hands = list(state.hands)
        k = 0
        for s, part in zip(pools, hidden, strict=False):
            hands[s] = tuple(sorted(flat[k:k + len(part)], key=lambda c: c.index))
            k += len(part)
        stock = tuple(flat[k:])
        other = attrs.evolve(state, hands=tuple(hands), stock=stock)
        assert observe(state, seat) == observe(other, seat)
        assert observe(state, None) == observe(other, None)
        assert GAME.dumps(observe(state, seat)) == GAME.dumps(observe(other, seat))
        for s in pools:
            if other.hands[s] != state.hands[s]:
                assert observe(state, s) != observe(other, s)

    @settings(max_examples=30)
    @given(config=configs(), seed=st.integers(0, 10**6))
    def test_legal_actions_sorted_and_nonempty(self, config: Config, seed: int) -> None:
        """KOPA-15: at every decision node some action is legal; the list is canonical."""
        for state in states_of_a_match(config, seed):
            mover = to_move(state)
            actions = legal_actions(state)
            if mover.kind is MoverKind.SEAT:
                texts = [canonical_json(GAME.to_json(a)) for a in actions]
                assert actions and texts == sorted(texts)
                assert legal_actions(state, mover.seats[0]) == actions
            else:
                assert actions == ()
