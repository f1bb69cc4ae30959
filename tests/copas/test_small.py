"""COPAS-V1, the solver variant: fewer cards each (``Config.cards_each``), the rest of the
deck set aside; one deal small enough for exact solvers; the JSON that leaves the option out
at its default (P-8)."""

from __future__ import annotations

import random

import pytest

from copa_ref.copas import GAME, Config, Deal, Phase, State, new_game
from copa_ref.copas.rules import chance_step, check_state
from copa_ref.core import IllegalActionError, InvalidStateError, MalformedInputError, MoverKind
from tests.copas.helpers import cards, dealt, play_script

SMALL = Config(players=3, cards_each=2)
# Seat 0 deals, seat 1 leads: seat 0 takes the copas trick, seat 2 the other.
HANDS = (cards("2e Ac"), cards("2c 3e"), cards("3c Ae"))


def deal_tree(state: State) -> int:
    """The nodes of one deal: from *state* to the end of its round (positions not merged)."""
    if GAME.to_move(state).kind is not MoverKind.SEAT:
        return 1
    return 1 + sum([deal_tree(GAME.apply(state, a)) for a in GAME.legal_actions(state, None)])


@pytest.mark.rule("COPAS-6")
class TestFewerCards:
    def test_deal_of_the_smaller_size(self) -> None:
        """COPAS-6 (COPAS-V1): each seat is dealt ``cards_each`` cards; the rest of the deck
        is set aside."""
        state = dealt(HANDS, SMALL)
        assert state.phase is Phase.PLAY
        assert [len(h) for h in state.hands] == [2, 2, 2]
        check_state(state)

    @pytest.mark.parametrize("size", [1, 3, 13])
    def test_invalid_deal_size(self, size: int) -> None:
        """COPAS-6: under COPAS-V1 a deal of any other size is refused, the whole deck too."""
        deck = [c for c in GAME.sample_chance(new_game(Config(players=3)),
                                              random.Random(1)).hands]
        hands = tuple(h[:size] for h in deck)
        with pytest.raises(IllegalActionError) as info:
            GAME.apply(new_game(SMALL), Deal(hands))
        assert info.value.rule == "COPAS-6"

    @pytest.mark.parametrize(("players", "each"), [(3, 0), (3, 14), (4, 11), (5, 9), (4, -1)])
    def test_invalid_cards_each(self, players: int, each: int) -> None:
        """COPAS-6: 1 up to the full hand (13, 10, 8); anything else is refused."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(players=players, cards_each=each))
        assert info.value.rule == "COPAS-6"

    def test_cards_each_not_an_integer(self) -> None:
        """A size that is no integer is malformed, naming the option."""
        with pytest.raises(MalformedInputError, match="cards_each"):
            new_game(Config(cards_each="2"))  # type: ignore[arg-type]

    def test_sample_and_step_deal_the_smaller_size(self) -> None:
        """COPAS-6 (COPAS-V1): ``sample_chance`` deals ``cards_each`` to every seat, and
        ``chance_step`` makes the deal after ``players × cards_each`` cards."""
        state = new_game(SMALL)
        deal = GAME.sample_chance(state, random.Random(7))
        assert [len(h) for h in deal.hands] == [2, 2, 2]
        prefix: tuple[int, ...] = ()
        step = chance_step(state, prefix)
        while not isinstance(step, Deal):
            prefix = (*prefix, step[0][0])
            step = chance_step(state, prefix)
        assert len(prefix) == 6
        assert [len(h) for h in step.hands] == [2, 2, 2]


@pytest.mark.rule("COPAS-16", "COPAS-19", "COPAS-1")
class TestScoringTheSmallerDeal:
    def test_round_books_the_copas_dealt(self) -> None:
        """COPAS-16 (COPAS-V1): a round books the copas dealt, here 3, and the next deal
        follows; the state is valid between rounds."""
        state = play_script(dealt(HANDS, SMALL), "2c 3c Ac  2e 3e Ae")
        assert state.phase is Phase.DEAL
        assert state.last_round == (3, 0, 0)
        assert GAME.state_from_json(GAME.to_json(state)) == state
        state = GAME.apply(state, GAME.sample_chance(state, random.Random(3)))
        check_state(state)

    def test_every_trick_books_the_others_ten(self) -> None:
        """COPAS-19 under COPAS-V1: a seat that took every trick books nothing, the others
        10 each."""
        one = Config(players=3, cards_each=1)
        state = play_script(dealt((cards("Ac"), cards("2c"), cards("3p")), one), "2c 3p Ac")
        assert state.last_round == (0, 10, 10)

    def test_a_card_twice_is_refused_in_a_state(self) -> None:
        """COPAS-1 (COPAS-V1): the cards dealt are each in one place; a card set aside may
        stand in for one (another deal), a card twice may not."""
        data = GAME.to_json(dealt(HANDS, SMALL))
        data["hands"][0] = ["Ac", "Kp"]
        check_state(GAME.state_from_json(data))
        data["hands"][0] = ["2c", "Ac"]
        with pytest.raises(InvalidStateError) as info:
            GAME.state_from_json(data)
        assert info.value.rule == "COPAS-1"


class TestJson:
    def test_default_left_out(self) -> None:
        """P-8: the config JSON leaves the solver variant out at its default."""
        assert "cards_each" not in GAME.to_json(Config())
        assert GAME.config_from_json(GAME.to_json(Config())) == Config()
        assert GAME.config_from_json(GAME.to_json(SMALL)) == SMALL


class TestExactSolving:
    def test_one_deal_tree(self) -> None:
        """COPAS-V1: the whole tree of one deal of 2 cards each (docs/small-configs.md)."""
        assert deal_tree(dealt(HANDS, SMALL)) == 13
        state = new_game(Config(players=3, cards_each=3))
        state = GAME.apply(state, GAME.sample_chance(state, random.Random(0)))
        assert deal_tree(state) == 142
