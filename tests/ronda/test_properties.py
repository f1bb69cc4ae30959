"""RONDA properties: a state machine over generated configs and player counts, checking
every invariant after every step and ``legal_actions`` against ``apply`` on legal and
near-miss actions; whole random games; the observation's leak tests both ways; the public
memory never wrong.

Every step is checked with ``tests.support.check_step``: all step invariants of
``copa_ref.ronda.invariants`` (RONDA-15 conservation, RONDA-3 arrangement, RONDA-4 turn
order, RONDA-5 at most two lifted, RONDA-7 only open cups change, RONDA-10/17 the maximum,
RONDA-10/18 the black cup, RONDA-12 out of the game, RONDA-11 penalties, RONDA-13 the
winner), well-formedness and the JSON round trip.

RONDA has no bound on its length (RONDA-Q14): the machine caps a run at its step count and
starts some runs from a position reached by up to 1,500 unchecked random actions, so that
late positions (a full black cup, penalties, groups out of the game) are reached.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from copa_ref.ronda import (
    GAME,
    Action,
    Add,
    Again,
    Arrange,
    Config,
    Keep,
    Lift,
    Phase,
    State,
    Stop,
    observe,
    remember,
    to_move,
)
from copa_ref.ronda.state import COUNTS, PLACES
from tests.support import (
    assert_legal_iff_accepted,
    check_step,
    choose,
    play_random,
)

configs = st.builds(
    Config,
    players=st.integers(2, 5),
    beans_per_player=st.sampled_from([9, 10]),
    relift_after_match=st.booleans(),
    max_beans=st.sampled_from([4, 5]),
    penalty_beans=st.booleans(),
    solver_beans=st.sampled_from([None, None, 1, 2, 8]),
)


def candidates(state: State) -> Iterator[Action]:
    """Legal actions and near misses: every lift by every seat (places -1 .. 10), adds and
    keeps on open and covered cups, stops, agains, arrangements good and bad."""
    n = state.config.players
    yield Arrange((*COUNTS[:-1], 5))
    if state.phase is Phase.SET_UP:
        return  # a chance node: only refusals are candidates (P-4)
    yield Arrange(COUNTS)
    for seat in range(n):
        for cup in range(-1, PLACES + 1):
            yield Lift(seat, cup)
        for cup in (*state.lifted, 0, 9):
            yield Add(seat, cup)
            yield Keep(seat, cup)
        yield Stop(seat)
        yield Again(seat)


def advance(state: State, steps: int, rng: random.Random) -> State:
    """Up to *steps* unchecked random actions (stopping before the end)."""
    for _ in range(steps):
        if to_move(state).is_over:
            break
        after = GAME.apply(state, GAME.random_action(state, rng))
        if to_move(after).is_over:
            break
        state = after
    return state


class RondaMachine(RuleBasedStateMachine):
    """Legal random steps from a generated config (and a random head start); every invariant
    after each, and legal-iff-accepted at every decision node."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State = GAME.new_game(Config())

    @initialize(config=configs, head=st.sampled_from([0, 0, 200, 800, 1500]),
                seed=st.integers(0, 2**16))
    def start(self, config: Config, head: int, seed: int) -> None:
        self.state = advance(GAME.new_game(config), head, random.Random(seed))
        GAME.check_state(self.state)

    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        if to_move(self.state).is_over:
            return
        assert_legal_iff_accepted(GAME, self.state, candidates(self.state))
        action = choose(GAME, self.state, data.draw)
        self.state = check_step(GAME, self.state, action)

    @invariant()
    def well_formed(self) -> None:
        assert GAME.well_formed(self.state)


TestRondaMachine = RondaMachine.TestCase
TestRondaMachine.settings = settings(settings(), max_examples=80, stateful_step_count=80)


class TestWholeGames:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_whole_games_keep_every_invariant(self, players: int) -> None:
        """RONDA-13, RONDA-15: whole random games for 2 to 5 players keep every invariant
        and end with one winner, the first without beans."""
        for config in (Config(players=players),
                       Config(players=players, relift_after_match=True, max_beans=4,
                              penalty_beans=False)):
            steps = play_random(GAME, config, random.Random(players))
            final = GAME.apply(*steps[-1])
            result = GAME.outcome(final)
            assert result is not None and result.rule == "RONDA-13"
            assert final.supplies[result.winners[0]] == 0

    @settings(max_examples=10)
    @given(config=configs, seed=st.integers(0, 2**32 - 1))
    def test_generated_configs(self, config: Config, seed: int) -> None:
        """RONDA-16, RONDA-17, RONDA-18: whole games under generated options, unchecked, end,
        and their last 300 steps keep every invariant."""
        steps = play_random(GAME, config, random.Random(seed), check=False)
        for before, action in steps[-300:]:
            check_step(GAME, before, action)

    def test_late_events_occur(self) -> None:
        """RONDA-10, RONDA-11, RONDA-12: random games reach the middle, penalties and groups
        out of the game."""
        seen: set[str] = set()
        for seed in range(6):
            for before, action in play_random(GAME, Config(), random.Random(seed),
                                              check=False):
                after = GAME.apply(before, action)
                if after.black > before.black:
                    seen.add("middle")
                if after.black < before.black:
                    seen.add("penalty")
                if after.out > before.out:
                    seen.add("out")
        assert seen == {"middle", "penalty", "out"}


def states_of(config: Config, seed: int, limit: int = 600) -> list[State]:
    rng = random.Random(seed)
    state = GAME.new_game(config)
    states = []
    while not to_move(state).is_over and len(states) < limit:
        states.append(state)
        state = GAME.apply(state, GAME.random_action(state, rng))
    return states


def _seen_places(state: State) -> set[int]:
    return set(state.lifted) | ({state.shown[0]} if state.shown else set())


class TestWhatIsSeen:
    @settings(max_examples=40)
    @given(config=configs, seed=st.integers(0, 10**6), data=st.data())
    def test_covered_cups_do_not_leak(self, config: Config, seed: int,
                                      data: st.DataObject) -> None:
        """RONDA-14: two states that differ only under covered cups observe the same, for
        every seat and the public view."""
        states = [s for s in states_of(config, seed) if s.cups]
        state = data.draw(st.sampled_from(states))
        covered = [c for c in range(PLACES) if c not in _seen_places(state)]
        beans = [state.cups[c] for c in covered]
        shuffled = data.draw(st.permutations(beans))
        cups = list(state.cups)
        for place, b in zip(covered, shuffled, strict=True):
            cups[place] = b
        other = attrs.evolve(state, cups=tuple(cups))
        assert GAME.well_formed(other)
        for seat in (None, *range(config.players)):
            assert observe(state, seat) == observe(other, seat)
            assert GAME.dumps(observe(state, seat)) == GAME.dumps(observe(other, seat))

    @settings(max_examples=40)
    @given(config=configs, seed=st.integers(0, 10**6), data=st.data())
    def test_what_is_seen_shows(self, config: Config, seed: int,
                                data: st.DataObject) -> None:
        """RONDA-14: the other way: two states that differ under a lifted cup, or in what the
        last lift showed, observe differently."""
        states = [s for s in states_of(config, seed) if _seen_places(s)]
        if not states:
            return
        state = data.draw(st.sampled_from(states))
        place = data.draw(st.sampled_from(sorted(_seen_places(state))))
        others = []  # the swaps that leave a state the rules accept (the entry checks it)
        for partner in range(PLACES):
            if state.cups[partner] == state.cups[place] or partner in _seen_places(state):
                continue
            cups = list(state.cups)
            cups[place], cups[partner] = cups[partner], cups[place]
            shown = state.shown
            if shown is not None and shown[0] == place:
                shown = (place, cups[place])
            swapped = attrs.evolve(state, cups=tuple(cups), shown=shown)
            if GAME.well_formed(swapped):
                others.append(swapped)
        if not others:
            return
        other = others[0]
        for seat in (None, *range(config.players)):
            assert observe(state, seat) != observe(other, seat)

    @settings(max_examples=15)
    @given(config=configs, seed=st.integers(0, 10**6))
    def test_memory_is_never_wrong(self, config: Config, seed: int) -> None:
        """RONDA-14: the public memory (``remember``) matches the hidden cups wherever it
        knows something, and knows every place that was ever lifted."""
        rng = random.Random(seed)
        state = GAME.new_game(config)
        memory = None
        lifted: set[int] = set()
        for _ in range(800):
            if to_move(state).is_over:
                break
            action = GAME.random_action(state, rng)
            state = GAME.apply(state, action)
            memory = remember(memory, action, observe(state, None))
            if isinstance(action, Lift):
                lifted.add(action.cup)
            assert all(b is None or b == state.cups[c] for c, b in enumerate(memory))
            assert {c for c, b in enumerate(memory) if b is not None} == lifted

    def test_every_seat_sees_the_same(self) -> None:
        """RONDA-14: the observation is the same for every seat and for the public view."""
        for state in states_of(Config(players=4), 3, 300):
            public = observe(state, None)
            assert all(attrs.evolve(observe(state, s), seat=None) == public for s in range(4))
            assert state.phase is Phase.SET_UP or public.circle == sum(state.cups)


class TestLegalActions:
    @settings(max_examples=20)
    @given(config=configs, seed=st.integers(0, 10**6))
    def test_never_a_single_option(self, config: Config, seed: int) -> None:
        """RONDA-5, RONDA-7, RONDA-8: every decision has 2 to 10 options (P-3)."""
        for state in states_of(config, seed, 300):
            legal = GAME.legal_actions(state, None)
            if to_move(state).kind.value == "seat":
                assert 2 <= len(legal) <= 10
                assert all(a.seat == state.turn for a in legal)
                assert isinstance(legal[0], Lift | Add | Keep | Again)
            else:
                assert legal == ()
