"""HOPPER properties: a state machine over generated configs (2–5 players, both endings,
aiming on and off, both shot models), every invariant after every step, exact chance
outcomes, ``legal_actions`` and ``apply`` agreeing on legal and near-miss actions, and
random whole games to both ends.

Neither ending bounds the number of shots (HOPPER-Q9), so the machine caps its games: at
most ``STEPS`` rule steps of at most ``BURST`` actions each (the default model ends a game
in about 120-300 actions: about a quarter of the runs reach an end, under both endings);
the whole-game tests cap at ``play_random``'s 100,000 actions, never reached.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, rule

from copa_ref.core import MoverKind, RuleViolation
from copa_ref.hopper import (
    GAME,
    AimedShot,
    Config,
    Ending,
    Land,
    Phase,
    Remainder,
    SeatAccuracy,
    Shoot,
    State,
    apply,
    chance_outcomes,
    to_move,
)
from tests.support import assert_legal_iff_accepted, check_step, play_random, playout_machine

STEPS = 40
"""Rule steps per machine run."""
BURST = 30
"""The most actions one ``burst`` step plays."""

probability = st.fractions(0, 1, max_denominator=12)


@st.composite
def shot_models(draw: st.DrawFn, players: int) -> AimedShot | SeatAccuracy:
    if draw(st.booleans()):
        outside = draw(st.fractions(Fraction(1, 6), Fraction(5, 6), max_denominator=12))
        aimed = draw(st.fractions(0, 1 - outside, max_denominator=12))
        return AimedShot(outside, aimed)
    accuracy = draw(st.lists(st.fractions(Fraction(1, 6), 1, max_denominator=12),
                             min_size=players, max_size=players))
    return SeatAccuracy(tuple(accuracy))


@st.composite
def configs(draw: st.DrawFn) -> Config:
    """Every reading: 2-5 players, 49-100 beans, every remainder, any first player, both
    endings, aiming on and off, both shot models."""
    players = draw(st.integers(2, 5))
    remainder = draw(st.sampled_from(Remainder))
    low = 49 if remainder is not Remainder.BOX else 49 + players - 1
    return Config(
        players=players,
        total_beans=draw(st.integers(low, 100)),
        remainder=remainder,
        first_player=draw(st.integers(0, players - 1)),
        ending=draw(st.sampled_from(Ending)),
        aiming=draw(st.booleans()),
        shot_model=draw(shot_models(players)),
    )


def candidates(state: State) -> Iterator[object]:
    """Legal shots and near misses: every seat (and one too many, one too few) aimed at
    every cup name (and one past either end, and no aim)."""
    n = len(state.hands)
    for seat in range(-1, n + 1):
        for aim in (None, *range(-1, 18)):
            yield Shoot(seat, aim)


def check_outcomes(state: State) -> None:
    """HOPPER-6 at any node: at a chance node every landing the model allows, each with a
    positive ``Fraction``, the landings distinct and summing to exactly 1; elsewhere none."""
    outcomes = chance_outcomes(state)
    if not to_move(state).is_chance:
        assert outcomes == ()
        return
    assert all(type(p) is Fraction and p > 0 for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    landings = [a.cup for a, _ in outcomes]
    assert len(set(landings)) == len(landings)
    assert set(landings) <= {None, *(cup for cup, _ in state.tray)}


def check_chance(state: State) -> None:
    """HOPPER-6 at a chance node: the outcomes sum to exactly 1, each is a legal landing,
    and a landing is accepted iff it names a cup in the tray or outside."""
    check_outcomes(state)
    in_tray = {cup for cup, _ in state.tray}
    for cup in (None, *range(-1, 18)):
        try:
            apply(state, Land(cup))
            accepted = True
        except RuleViolation:
            accepted = False
        assert accepted == (cup is None or cup in in_tray), cup
    for shot in (Shoot(0, None), Shoot(0, 0)):
        with pytest.raises(RuleViolation):
            apply(state, shot)


_Base = playout_machine(GAME, configs(), candidates)


class HopperMachine(_Base):
    """Random games under generated configs: every invariant after every step (HOPPER-1 …
    HOPPER-19), exact chance outcomes at every chance node (HOPPER-6), legal iff accepted
    (P-4), and ``burst`` steps that play a few actions at once so games reach their end.
    The chance outcomes are checked at every state the machine visits."""

    @invariant()
    def outcomes_are_exact(self) -> None:
        if self.state is not None:
            check_outcomes(self.state)

    @rule(data=st.data())
    def chance_is_exact(self, data: st.DataObject) -> None:
        state: State = self.state
        if to_move(state).is_chance:
            check_chance(state)

    @rule(seed=st.integers(0, 2**16), count=st.integers(1, BURST))
    def burst(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        for _ in range(count):
            state: State = self.state
            mover = to_move(state)
            if mover.is_over:
                return
            check_outcomes(state)
            self.state = check_step(GAME, state, GAME.random_action(state, rng))


HopperMachine.TestCase.settings = settings(stateful_step_count=STEPS, max_examples=min(
    settings().max_examples, 40))
TestHopperMachine = HopperMachine.TestCase


class TestRandomGames:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    @pytest.mark.parametrize("ending", list(Ending), ids=lambda e: e.value)
    def test_whole_games(self, players: int, ending: Ending) -> None:
        """HOPPER-1 … HOPPER-19: whole random games to both ends, every invariant after
        every step; End 1 ends by HOPPER-12, End 2 by HOPPER-17 with 19 or 20 points."""
        for seed in range(2):
            config = Config(players=players, ending=ending, aiming=seed == 1)
            steps = play_random(GAME, config, random.Random(seed * 10 + players))
            final = GAME.apply(*steps[-1])
            result = GAME.outcome(final)
            assert result is not None
            if ending is Ending.END_1:
                assert result.rule == "HOPPER-12" and max(result.scores) == 4
            else:
                assert result.rule == "HOPPER-17" and sum(result.scores) in (19, 20)

    def test_legal_iff_accepted_along_games(self) -> None:
        """P-4: at every decision node of whole games, an action is legal iff apply
        accepts it, over legal shots and near misses; the shoot-out included."""
        for seed, ending in enumerate((Ending.END_1, Ending.END_2)):
            config = Config(players=3, ending=ending)
            for state, _ in play_random(GAME, config, random.Random(seed), check=False):
                if to_move(state).kind in (MoverKind.SEAT, MoverKind.ANY):
                    assert_legal_iff_accepted(GAME, state, candidates(state))

    def test_every_node_kind_and_landing(self) -> None:
        """HOPPER-5 … HOPPER-17: random games reach every kind of node and event: seat, any
        and chance nodes, landings outside and in cups, foursomes, the black cup."""
        kinds: Counter[MoverKind] = Counter()
        events: Counter[str] = Counter()
        for seed in range(6):
            config = Config(players=2 + seed % 4, ending=Ending.END_2)
            for state, action in play_random(GAME, config, random.Random(seed), check=False):
                kinds[to_move(state).kind] += 1
                if isinstance(action, Land):
                    events["outside" if action.cup is None else "cup"] += 1
                    if action.cup is not None and dict(state.tray)[action.cup] == 3:
                        events["black" if action.cup == 16 else "foursome"] += 1
                if isinstance(action, Shoot) and state.hands[action.seat] == 0:
                    events["replenish"] += 1
        assert set(kinds) == {MoverKind.SEAT, MoverKind.ANY, MoverKind.CHANCE}
        assert {"outside", "cup", "foursome", "black", "replenish"} <= set(events)

    @given(seed=st.integers(0, 2**32), config=configs())
    @settings(max_examples=min(settings().max_examples, 25))
    def test_random_game(self, seed: int, config: Config) -> None:
        """HOPPER-1 … HOPPER-19: a Hypothesis-driven whole game under a generated config
        keeps every invariant and ends."""
        steps = play_random(GAME, config, random.Random(seed))
        assert GAME.outcome(GAME.apply(*steps[-1])) is not None

    def test_phase_alternates(self) -> None:
        """HOPPER-5: every shot is followed by its landing, every landing by a shot or the
        end."""
        steps = play_random(GAME, Config(ending=Ending.END_2), random.Random(3), check=False)
        for (state, action), (nxt, _) in itertools.pairwise(steps):
            assert isinstance(action, Shoot) == (state.phase is Phase.AIM)
            if isinstance(action, Land):
                assert nxt.phase in (Phase.AIM, Phase.LAND)
