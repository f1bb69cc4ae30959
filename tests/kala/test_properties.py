"""KALA properties: random legal games under generated configs, every invariant after every
step, ``legal_actions`` and ``apply`` agreeing exactly, and the bounds the rules imply."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from copa_ref.kala import (
    GAME,
    Bonus,
    BonusRule,
    Config,
    EndCheck,
    Harvest,
    HarvestRule,
    Phase,
    Place,
    Sow,
    State,
)
from copa_ref.kala.paths import PATHS, SQUARES
from tests.support import assert_legal_iff_accepted, play_random, playout_machine

configs = st.builds(
    Config,
    first_player=st.sampled_from([0, 1]),
    harvest=st.sampled_from(HarvestRule),
    bonus=st.sampled_from(BonusRule),
    end_check=st.sampled_from(EndCheck),
    store=st.sampled_from([None, None, 4, 8, 28]),
)

ALL_CONFIGS = [
    Config(first_player=f, harvest=h, bonus=b, end_check=e)
    for f, h, b, e in itertools.product((0, 1), HarvestRule, BonusRule, EndCheck)
]


def candidates(state: State) -> Iterator[object]:
    """Legal actions and many near misses: every path of 3..7 squares from either cup, every
    choice for either seat, every placement on the field."""
    for seat in (0, 1):
        for start in state.cups:
            for length in range(3, 8):
                for path in PATHS[(start, length)]:
                    yield Sow(seat, path)
        yield from (Harvest(seat, True), Harvest(seat, False), Bonus(seat, True),
                    Bonus(seat, False))
    yield Sow(state.turn, ((0, 0), (0, 1), (1, 1), (1, 2)))
    for square in SQUARES:
        yield Place(state.turn, square)


KalaMachine = playout_machine(GAME, configs, candidates)
TestKalaMachine = KalaMachine.TestCase


class TestRandomGames:
    @pytest.mark.parametrize("config", ALL_CONFIGS, ids=lambda c: GAME.dumps(c))
    def test_whole_games_keep_every_invariant(self, config: Config) -> None:
        """KALA-1 .. KALA-18: whole random games under every config keep every invariant."""
        for seed in range(6):
            steps = play_random(GAME, config, random.Random(seed))
            final = GAME.apply(*steps[-1])
            assert GAME.outcome(final) is not None

    def test_legal_iff_accepted_along_games(self) -> None:
        """P-4: at every decision node an action is legal iff apply accepts it."""
        for seed, config in enumerate(ALL_CONFIGS[:8]):
            for state, _ in play_random(GAME, config, random.Random(seed), check=False):
                assert_legal_iff_accepted(GAME, state, candidates(state))

    def test_bonus_never_exceeds_six(self) -> None:
        """KALA-13, KALA-14: under the defaults a bonus sows 4 to 6 beans; 5 and the sixth
        bean rule both occur."""
        sizes: set[int] = set()
        awarded = 0
        for seed in range(400):
            for state, action in play_random(GAME, Config(), random.Random(seed), check=False):
                if state.phase is Phase.BONUS_SOW:
                    assert isinstance(action, Sow)
                    beans = state.cup_beans[state.turn]
                    sizes.add(beans)
                    awarded += beans - len(action.path)
        assert sizes <= {4, 5, 6}
        assert {4, 5} <= sizes
        assert awarded > 0

    @given(rng=st.randoms(use_true_random=False), config=configs)
    def test_random_game(self, rng: random.Random, config: Config) -> None:
        """KALA-1 .. KALA-18: a Hypothesis-driven random game keeps every invariant."""
        play_random(GAME, config, rng)

    def test_game_lengths_are_bounded(self) -> None:
        """KALA-17: random games end, and well within 400 decisions."""
        lengths = [len(play_random(GAME, Config(), random.Random(seed), check=False))
                   for seed in range(200)]
        assert max(lengths) < 400
