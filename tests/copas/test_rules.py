"""Copas rules, one class per rule or transition; every test names the rule it pins."""

from __future__ import annotations

import itertools
import json
import random

import attrs
import pytest

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
    Suit,
    Trick,
    apply,
    legal_actions,
    new_game,
    observe,
    outcome,
    render,
    sample_chance,
    to_move,
    well_formed,
)
from copa_ref.copas.rules import (
    DECK,
    check_state,
    copas_taken,
    deck,
    legal_cards,
    round_points,
    trick_winner,
)
from copa_ref.core import (
    IllegalActionError,
    InvalidStateError,
    MalformedInputError,
    MoverKind,
)
from copa_ref.games import GAMES
from tests.copas.helpers import (
    TEN_COPAS_HANDS,
    TEN_COPAS_SCRIPT,
    cards,
    dealt,
    play_out_suit_deal,
    play_script,
    suit_hands,
)
from tests.support import assert_malformed, assert_refused

OTHERS_TEN = AllCards.OTHERS_TEN


def refused(state: State, action: object, rule: str) -> IllegalActionError:
    """Expect a refusal of *action* under *rule*, leaving *state* unchanged."""
    return assert_refused(GAME, state, action, rule)


def first_deal(players: int = 4, seed: int = 0, **config: object) -> State:
    state = new_game(Config(players=players, **config))  # type: ignore[arg-type]
    return apply(state, sample_chance(state, random.Random(seed)))


@pytest.mark.rule("COPAS-1")
class TestDeck:
    def test_forty_cards(self) -> None:
        """COPAS-1: 40 distinct cards, four suits by ten ranks, coded rank then suit."""
        assert len(DECK) == 40 == len({c.value for c in DECK})
        assert {c.suit for c in DECK} == set(Suit)
        assert Card("Qc").suit is Suit.COPAS
        assert [c.value for c in DECK] == sorted(c.value for c in DECK)

    def test_invalid_non_card_in_deal(self) -> None:
        """COPAS-1: a deal naming something that is no card is not even shaped right."""
        hands = list(suit_hands())
        hands[0] = (*hands[0][:-1], "Ap")  # type: ignore[assignment]
        assert_malformed(GAME, new_game(), Deal(tuple(hands)))

    def test_invalid_non_card_play(self) -> None:
        """COPAS-1: playing something that is no card is not even shaped right."""
        state = dealt(suit_hands())
        assert_malformed(GAME, state, Play(1, "Ae"))  # type: ignore[arg-type]
        assert_malformed(GAME, state, Play(True, Card("Ae")))  # type: ignore[arg-type]


@pytest.mark.rule("COPAS-2")
class TestOrder:
    def test_printed_order(self) -> None:
        """COPAS-2: 2 < 3 < 4 < 5 < 6 < Q < J < K < 7 < A."""
        order = ["2", "3", "4", "5", "6", "Q", "J", "K", "7", "A"]
        for low, high in itertools.pairwise(order):
            trick = cards(f"{low}e {high}e")
            assert trick_winner(trick, plain=False) == 1

    def test_plain_order_option(self) -> None:
        """COPAS-2: the plain house order puts the 7 below the jack and the queen above it."""
        assert trick_winner(cards("7e Je"), plain=True) == 1
        assert trick_winner(cards("Je Qe"), plain=True) == 1
        assert trick_winner(cards("7e Je"), plain=False) == 0

    def test_plain_order_in_play(self) -> None:
        """COPAS-2: Config.rank_order decides tricks in a match."""
        state = dealt(suit_hands(), Config(rank_order=RankOrder.PLAIN))
        assert state.config.rank_order is RankOrder.PLAIN


@pytest.mark.rule("COPAS-3")
class TestCopasPenalty:
    def test_only_copas_count(self) -> None:
        """COPAS-3: only cards of the suit Copas count."""
        tricks = (Trick(0, cards("Ap Ac 2c Ae"), 0), Trick(0, cards("Ao Ko Qo Jo"), 2))
        assert copas_taken(tricks, 4) == (2, 0, 0, 0)


@pytest.mark.rule("COPAS-4")
class TestPlayers:
    @pytest.mark.parametrize("players", [2, 6, 0])
    def test_invalid_player_count(self, players: int) -> None:
        """COPAS-4: only 3, 4 or 5 players."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(players=players))
        assert info.value.rule == "COPAS-4"

    def test_three_players_without_two_of_clubs(self) -> None:
        """COPAS-4: with three players the two of clubs is left out."""
        assert len(deck(3)) == 39 and Card.C2p not in deck(3)
        assert len(deck(4)) == len(deck(5)) == 40

    def test_invalid_two_of_clubs_three_players(self) -> None:
        """COPAS-4: a three-player deal containing the two of clubs is refused."""
        pool = list(deck(3))
        hands = (tuple(pool[:13]), tuple(pool[13:26]), (*pool[26:38], Card.C2p))
        refused(new_game(Config(players=3)), Deal(hands), "COPAS-4")


@pytest.mark.rule("COPAS-5")
class TestSeats:
    def test_invalid_first_dealer(self) -> None:
        """COPAS-5: the first dealer must be a seat."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(first_dealer=4))
        assert info.value.rule == "COPAS-5"

    def test_shuffler_is_dealers_right(self) -> None:
        """COPAS-5: the shuffler (the dealer's right, seat + 1) is recorded as first leader."""
        state = new_game(Config(first_dealer=3))
        assert state.dealer == 3 and state.leader == 0


@pytest.mark.rule("COPAS-6")
class TestDeal:
    @pytest.mark.parametrize(("players", "size"), [(3, 13), (4, 10), (5, 8)])
    def test_sampled_deal_is_a_partition(self, players: int, size: int) -> None:
        """COPAS-6: 13, 10 or 8 cards each, together exactly the deck."""
        state = new_game(Config(players=players))
        assert to_move(state).kind is MoverKind.CHANCE
        deal = sample_chance(state, random.Random(7))
        assert all(len(h) == size for h in deal.hands)
        assert sorted(c.index for h in deal.hands for c in h) == [c.index for c in deck(players)]
        after = apply(state, deal)
        assert after.phase is Phase.PLAY

    def test_sampling_is_replayable(self) -> None:
        """COPAS-6: the same generator seed gives the same deal; the deal replays exactly."""
        state = new_game()
        a = sample_chance(state, random.Random(3))
        assert a == sample_chance(state, random.Random(3))
        assert apply(state, a) == apply(state, GAME.action_from_json(GAME.to_json(a)))

    def test_deal_in_any_order_is_sorted(self) -> None:
        """COPAS-6: a hand may be listed in any order; the state keeps it sorted by code."""
        hands = tuple(tuple(reversed(h)) for h in suit_hands())
        state = dealt(hands)
        assert all(list(h) == sorted(h, key=lambda c: c.value) for h in state.hands)

    def test_invalid_duplicate_card(self) -> None:
        """COPAS-6: a card dealt twice is refused."""
        hands = list(suit_hands())
        hands[0] = (*hands[0][:-1], hands[1][0])
        refused(new_game(), Deal(tuple(hands)), "COPAS-6")

    def test_invalid_wrong_number_of_hands(self) -> None:
        """COPAS-6: one hand per seat."""
        refused(new_game(), Deal(suit_hands()[:3]), "COPAS-6")

    def test_invalid_unequal_hands(self) -> None:
        """COPAS-6: everyone gets the same number of cards."""
        hands = list(suit_hands())
        hands[0], hands[1] = (*hands[0], hands[1][0]), hands[1][1:]
        refused(new_game(), Deal(tuple(hands)), "COPAS-6")

    def test_invalid_hand_not_a_tuple(self) -> None:
        """COPAS-6: a deal of the wrong shape is not even shaped right (COPAS-Q10)."""
        assert_malformed(GAME, new_game(), Deal([list(h) for h in suit_hands()]))  # type: ignore[arg-type]
        hands = list(suit_hands())
        hands[2] = list(hands[2])  # type: ignore[call-overload]
        assert_malformed(GAME, new_game(), Deal(tuple(hands)))

    def test_invalid_play_before_deal(self) -> None:
        """COPAS-6: no card is played before the round is dealt."""
        refused(new_game(), Play(1, Card("Ae")), "COPAS-6")

    def test_invalid_malformed_action(self) -> None:
        """COPAS-Q10: an object that is no action is not even shaped right, at any node."""
        assert_malformed(GAME, new_game(), "deal")
        assert_malformed(GAME, dealt(suit_hands()), {"type": "play"})


@pytest.mark.rule("COPAS-7")
class TestRotation:
    def test_dealer_rotates_to_the_right(self) -> None:
        """COPAS-7: after a round the dealer's right deals, and a new round begins."""
        state = play_out_suit_deal(dealt(suit_hands()))
        assert state.phase is Phase.DEAL
        assert (state.dealer, state.round, state.leader) == (1, 2, 2)

    def test_bonus_round_rotates_too(self) -> None:
        """COPAS-7: the bonus round is dealt by the next dealer as usual."""
        state = play_script(dealt(TEN_COPAS_HANDS), TEN_COPAS_SCRIPT)
        assert state.pending == 1 and state.dealer == 1 and state.round == 2


@pytest.mark.rule("COPAS-8")
class TestFirstLead:
    @pytest.mark.parametrize("dealer", [0, 1, 2, 3])
    def test_shuffler_leads(self, dealer: int) -> None:
        """COPAS-8: the shuffler, to the dealer's right (dealer + 1), leads the first trick."""
        state = dealt(suit_hands(), Config(first_dealer=dealer))
        assert to_move(state).seats == ((dealer + 1) % 4,)


@pytest.mark.rule("COPAS-9")
class TestTurnOrder:
    def test_counter_clockwise(self) -> None:
        """COPAS-9: play goes on with seat + 1."""
        state = dealt(suit_hands())
        state = apply(state, Play(1, Card("Ae")))
        assert to_move(state).seats == (2,)

    def test_invalid_out_of_turn(self) -> None:
        """COPAS-9: a seat that is not to move may not play."""
        state = dealt(suit_hands())
        refused(state, Play(2, Card("Ac")), "COPAS-9")
        assert_malformed(GAME, state, Play(True, Card("Ae")))  # True is not a seat

    def test_invalid_deal_during_play(self) -> None:
        """COPAS-9: no deal while a seat is to play."""
        refused(dealt(suit_hands()), Deal(suit_hands()), "COPAS-9")


@pytest.mark.rule("COPAS-10")
class TestOwnHand:
    def test_invalid_card_not_held(self) -> None:
        """COPAS-10: a card the seat does not hold is refused."""
        refused(dealt(suit_hands()), Play(1, Card("Ap")), "COPAS-10")


@pytest.mark.rule("COPAS-11")
class TestFollowSuit:
    def test_only_led_suit_is_legal(self) -> None:
        """COPAS-11: a seat holding the led suit may play only that suit."""
        state = dealt(TEN_COPAS_HANDS)
        state = play_script(state, "2e 3p 2o")
        assert {a.card.value for a in legal_actions(state)} == {"3e", "4e"}  # type: ignore[union-attr]

    def test_invalid_revoke(self) -> None:
        """COPAS-11: playing another suit while holding the led suit is refused."""
        state = play_script(dealt(TEN_COPAS_HANDS), "2e 3p 2o")
        err = refused(state, Play(0, Card("2p")), "COPAS-11")
        assert "3e" in str(err)

    def test_legal_cards_helper(self) -> None:
        """COPAS-11: legal_cards keeps exactly the led suit when the hand has it."""
        hand = cards("2p 3e Ae")
        assert legal_cards(hand, cards("Qe")) == cards("3e Ae")


@pytest.mark.rule("COPAS-12")
class TestDiscard:
    def test_void_may_play_anything(self) -> None:
        """COPAS-12: a seat void in the led suit may play any card, copas included."""
        state = apply(dealt(suit_hands()), Play(1, Card("Ae")))
        assert len(legal_actions(state)) == 10
        assert legal_cards(cards("2p Ac"), cards("Qe")) == cards("2p Ac")

    def test_leader_may_lead_anything(self) -> None:
        """COPAS-12: by default the leader may lead any card."""
        state = dealt(TEN_COPAS_HANDS)
        assert len(legal_actions(state)) == 10
        assert legal_actions(state, 2) == ()


@pytest.mark.rule("COPAS-13")
class TestTrick:
    def test_highest_of_led_suit_wins_and_leads(self) -> None:
        """COPAS-13: the highest card of the led suit takes the trick and leads the next."""
        state = play_script(dealt(TEN_COPAS_HANDS), "2e 3p 2o 3e")
        assert state.tricks[-1].winner == 0 and state.leader == 0
        assert to_move(state).seats == (0,)

    def test_discards_never_win(self) -> None:
        """COPAS-13: an ace of another suit does not beat a led two."""
        assert trick_winner(cards("2e Ap Ac Ao"), plain=False) == 0


@pytest.mark.rule("COPAS-14")
class TestRoundEnd:
    def test_round_ends_when_cards_are_out(self) -> None:
        """COPAS-14: the round is scored automatically after the last card."""
        state = dealt(suit_hands())
        for _ in range(39):
            state = apply(state, legal_actions(state)[0])
            assert state.phase is Phase.PLAY
        state = apply(state, legal_actions(state)[0])
        assert state.phase is Phase.DEAL and len(state.tricks) == 10

    def test_end_when_copas_out_option(self) -> None:
        """COPAS-14: with end_when_copas_out the round ends with the trick of the last copa."""
        state = dealt(suit_hands(), Config(end_when_copas_out=True))
        state = play_out_suit_deal(state)
        # The leader (seat 1) takes every trick; seat 2 discards a copa each time: all ten
        # copas are out only with the tenth trick.
        assert len(state.tricks) == 10
        hands = list(TEN_COPAS_HANDS)
        state = dealt(tuple(hands), Config(end_when_copas_out=True))
        state = play_script(state, TEN_COPAS_SCRIPT)
        assert state.phase is Phase.DEAL and state.pending == 1


@pytest.mark.rule("COPAS-15")
class TestHouseRules:
    def test_invalid_copas_lead_before_broken(self) -> None:
        """COPAS-15: under copas_lead=broken a copa may not be led before one was played."""
        config = Config(copas_lead=CopasLead.BROKEN)
        state = dealt(TEN_COPAS_HANDS, config)
        refused(state, Play(1, Card("Ac")), "COPAS-15")
        assert Play(1, Card("Ac")) not in legal_actions(state)

    def test_copas_lead_allowed_when_broken_or_only_copas(self) -> None:
        """COPAS-15: a copa may be led once broken, or when the leader holds only copas."""
        config = Config(copas_lead=CopasLead.BROKEN)
        # Seat 2 leads with a hand of copas only (dealer 1).
        state = dealt(suit_hands(), config, round=2, dealer=1, leader=2)
        assert len(legal_actions(state)) == 10
        state = play_script(dealt(TEN_COPAS_HANDS, config), TEN_COPAS_SCRIPT.rsplit(" Ap", 1)[0])
        assert Play(1, Card("Ac")) in legal_actions(state)

    def test_default_adds_no_special_rule(self) -> None:
        """COPAS-15: by default copas may be led at any time."""
        state = dealt(TEN_COPAS_HANDS)
        assert Play(1, Card("Ac")) in legal_actions(state)


@pytest.mark.rule("COPAS-16")
class TestScoring:
    def test_plain_round(self) -> None:
        """COPAS-16: one minus point per copa, 10 in all."""
        assert round_points((3, 3, 4, 0), None, None, OTHERS_TEN, BonusOtherTen.NEW_BONUS) == (
            (3, 3, 4, 0),
            None,
        )

    def test_whole_round_books_copas(self) -> None:
        """COPAS-16: after a played round the scores grow by the copas taken."""
        state = new_game()
        rng = random.Random(11)
        while state.round == 1:
            state = GAME.apply(state, GAME.random_action(state, rng))
        assert sum(state.scores) == 10 or state.pending is not None or 30 in state.scores
        assert state.last_round == state.scores


@pytest.mark.rule("COPAS-17", "COPAS-18")
class TestBonusRound:
    def test_all_ten_copas_are_pending(self) -> None:
        """COPAS-17: all ten copas are not booked; the taker's bonus round follows."""
        state = play_script(dealt(TEN_COPAS_HANDS), TEN_COPAS_SCRIPT)
        assert state.pending == 1 and state.scores == (0, 0, 0, 0)
        assert round_points((0, 10, 0, 0), None, None, OTHERS_TEN, BonusOtherTen.NEW_BONUS) == (
            (0, 0, 0, 0),
            1,
        )

    def test_other_seat_takes_ten_in_bonus_round(self) -> None:
        """COPAS-17: in a bonus round another seat's ten copas are pending in turn (default),
        or booked (bonus_other_ten=book); the pending seat's ten are erased."""
        state = play_script(dealt(TEN_COPAS_HANDS, pending=0), TEN_COPAS_SCRIPT)
        assert state.pending == 1 and state.scores == (0, 0, 0, 0)
        config = Config(bonus_other_ten=BonusOtherTen.BOOK)
        state = play_script(dealt(TEN_COPAS_HANDS, config, pending=0), TEN_COPAS_SCRIPT)
        assert state.pending is None and state.scores == (0, 10, 0, 0)

    def test_pending_erased(self) -> None:
        """COPAS-18: no copas in the bonus round erase the pending ten."""
        assert round_points((0, 4, 6, 0), None, 0, OTHERS_TEN, BonusOtherTen.NEW_BONUS) == (
            (0, 4, 6, 0),
            None,
        )

    def test_pending_booked_with_new_copas(self) -> None:
        """COPAS-18: otherwise 10 plus one per new copa; 20 for all ten again."""
        new = BonusOtherTen.NEW_BONUS
        assert round_points((3, 4, 3, 0), None, 0, OTHERS_TEN, new) == ((13, 4, 3, 0), None)
        assert round_points((0, 10, 0, 0), None, 1, OTHERS_TEN, new) == ((0, 20, 0, 0), None)
        state = play_script(dealt(TEN_COPAS_HANDS, pending=1), TEN_COPAS_SCRIPT)
        assert state.pending is None and state.scores == (0, 20, 0, 0)

    def test_pending_seat_takes_every_trick(self) -> None:
        """COPAS-18 with COPAS-19 (COPAS-Q14): the pending seat that takes every trick took
        all ten again and books 20 by default, 10 under ``pending_ten``; the others 10."""
        new = BonusOtherTen.NEW_BONUS
        assert Config().bonus_all_cards is BonusAllCards.TWENTY
        assert round_points((0, 10, 0, 0), 1, 1, OTHERS_TEN, new) == ((10, 20, 10, 10), None)
        assert round_points((0, 10, 0, 0), 1, 1, OTHERS_TEN, new, BonusAllCards.PENDING_TEN) == (
            (10, 10, 10, 10), None)
        # Another seat taking every trick erases the pending ten: the pending seat books 10.
        assert round_points((0, 10, 0, 0), 1, 0, OTHERS_TEN, new) == ((10, 0, 10, 10), None)


@pytest.mark.rule("COPAS-19")
class TestAllCards:
    def test_others_book_ten(self) -> None:
        """COPAS-19: a seat taking every card books nothing; every other seat books 10."""
        state = play_out_suit_deal(dealt(suit_hands()))
        assert state.scores == (10, 0, 10, 10) and state.pending is None

    def test_pending_seat_takes_all_cards(self) -> None:
        """COPAS-19 with COPAS-18: a pending seat taking every card took all ten again and
        books 20 (10 under bonus_all_cards=pending_ten); the others 10 each."""
        state = play_out_suit_deal(dealt(suit_hands(), pending=1))
        assert state.scores == (10, 20, 10, 10) and state.pending is None
        config = Config(bonus_all_cards=BonusAllCards.PENDING_TEN)
        state = play_out_suit_deal(dealt(suit_hands(), config, pending=1))
        assert state.scores == (10, 10, 10, 10) and state.pending is None

    def test_pending_erased_when_another_takes_all(self) -> None:
        """COPAS-19: another seat taking every card erases the pending ten; 10 by COPAS-19."""
        state = play_out_suit_deal(dealt(suit_hands(), pending=0))
        assert state.scores == (10, 0, 10, 10)

    def test_other_readings(self) -> None:
        """COPAS-19: the readings others_ten_and_bonus and bonus_only."""
        config = Config(all_cards=AllCards.OTHERS_TEN_AND_BONUS)
        state = play_out_suit_deal(dealt(suit_hands(), config))
        assert state.scores == (10, 0, 10, 10) and state.pending == 1
        config = Config(all_cards=AllCards.BONUS_ONLY)
        state = play_out_suit_deal(dealt(suit_hands(), config))
        assert state.scores == (0, 0, 0, 0) and state.pending == 1


@pytest.mark.rule("COPAS-20")
class TestMatchEnd:
    def test_burst_ends_the_match(self) -> None:
        """COPAS-20: a seat reaching 51 at a round's end bursts; the match is over."""
        state = play_out_suit_deal(dealt(suit_hands(), scores=(45, 0, 0, 0)))
        assert state.phase is Phase.OVER and to_move(state).is_over
        assert state.scores == (55, 0, 10, 10)
        assert legal_actions(state) == ()

    def test_fifty_does_not_burst(self) -> None:
        """COPAS-20: 50 is not yet a burst."""
        state = play_out_suit_deal(dealt(suit_hands(), scores=(40, 0, 0, 0)))
        assert state.phase is Phase.DEAL

    def test_invalid_action_after_the_match(self) -> None:
        """COPAS-20: nothing is played or dealt after the match."""
        state = play_out_suit_deal(dealt(suit_hands(), scores=(45, 0, 0, 0)))
        refused(state, Play(2, Card("Ac")), "COPAS-20")
        refused(state, Deal(suit_hands()), "COPAS-20")


@pytest.mark.rule("COPAS-21")
class TestOutcome:
    def over(self, scores: tuple[int, ...]) -> State:
        """A match over with *scores*, after a round played from a match resumed at the
        deal of round 2 (a state that legal play could produce: the outcome reads a state
        only once it passed its checks). The round is the first of seeded deals whose
        booking leaves every seat below 51 before it."""
        for seed in range(1000):
            start = attrs.evolve(new_game(Config(players=len(scores))), round=2)
            state = apply(start, sample_chance(start, random.Random(seed)))
            while state.phase is Phase.PLAY:
                state = apply(state, legal_actions(state)[0])
            before = [s - b for s, b in zip(scores, state.last_round, strict=True)]
            if all(0 <= b < 51 for b in before):
                return attrs.evolve(state, phase=Phase.OVER, round=2, dealer=start.dealer,
                                    scores=scores)
        raise AssertionError(f"no round of 1000 books {scores} from totals below 51")

    def test_loser_and_winner(self) -> None:
        """COPAS-21: the burst seat loses, the fewest minus points win."""
        result = outcome(self.over((55, 0, 10, 10)))
        assert result is not None
        assert (result.losers, result.winners, result.rule) == ((0,), (1,), "COPAS-21")

    def test_several_burst(self) -> None:
        """COPAS-21: of several burst seats, the one with the most points loses."""
        result = outcome(self.over((52, 53, 10, 10)))
        assert result is not None and result.losers == (1,) and result.winners == (2, 3)

    def test_ties(self) -> None:
        """COPAS-21: tied highest all lose; everyone tied means nobody wins."""
        result = outcome(self.over((55, 55, 3)))
        assert result is not None and result.losers == (0, 1) and result.winners == (2,)
        result = outcome(self.over((52, 52, 52)))
        assert result is not None and result.winners == ()

    def test_no_outcome_while_playing(self) -> None:
        """COPAS-21: no result while the match goes on."""
        assert outcome(new_game()) is None


@pytest.mark.rule("COPAS-22")
class TestVariants:
    def test_defaults_are_the_text(self) -> None:
        """COPAS-22: the default config adds no variant or house rule."""
        config = Config()
        assert (config.players, config.first_dealer) == (4, 0)
        assert config.rank_order is RankOrder.PRINTED
        assert config.copas_lead is CopasLead.ANY
        assert config.end_when_copas_out is False
        assert config.all_cards is AllCards.OTHERS_TEN
        assert config.bonus_other_ten is BonusOtherTen.NEW_BONUS


@pytest.mark.rule("COPAS-6")
class TestObserve:
    def test_own_hand_only(self) -> None:
        """COPAS-6: a seat sees its own hand and the sizes of the others, never their cards."""
        state = first_deal()
        obs = observe(state, 2)
        assert obs.hand == state.hands[2]
        assert obs.hand_sizes == (10, 10, 10, 10)
        text = GAME.dumps(obs)
        for seat in (0, 1, 3):
            for card in state.hands[seat]:
                assert f'"{card.value}"' not in text
        assert observe(state, None).hand == ()

    def test_other_hands_do_not_leak(self) -> None:
        """COPAS-6: swapping cards between other seats' hands leaves an observation unchanged."""
        state = play_script(dealt(TEN_COPAS_HANDS), "2e 3p 2o 3e 4e")
        h = list(state.hands)
        swapped = attrs.evolve(state, hands=(h[0], h[1], h[3], h[2]))
        assert observe(state, 0) == observe(swapped, 0)
        assert observe(state, None) == observe(swapped, None)
        assert observe(state, 2) != observe(swapped, 2)


@pytest.mark.rule("COPAS-1", "COPAS-11")
class TestStateChecks:
    def test_new_and_dealt_states_are_well_formed(self) -> None:
        """COPAS-1: states made by play are well formed."""
        assert well_formed(new_game()) and well_formed(first_deal(5))

    def test_lost_card_is_invalid(self) -> None:
        """COPAS-1: a state missing a card is refused by check_state."""
        state = first_deal()
        broken = attrs.evolve(state, hands=(state.hands[0][1:], *state.hands[1:]))
        assert not well_formed(broken)
        with pytest.raises(InvalidStateError) as info:
            check_state(broken)
        assert info.value.rule in ("COPAS-1", "COPAS-14")

    def test_revoke_in_history_is_invalid(self) -> None:
        """COPAS-11: a taken trick showing a revoke is an invalid state."""
        state = play_script(dealt(TEN_COPAS_HANDS), "2e 3p 2o 3e")
        t = state.tricks[0]
        # Pretend seat 0 discarded 2p while it kept the 3e in hand.
        hands = list(state.hands)
        hands[0] = tuple(sorted((*hands[0], Card("3e")), key=lambda c: c.value))
        hands[0] = tuple(c for c in hands[0] if c is not Card("2p"))
        broken = attrs.evolve(state, hands=tuple(hands),
                              tricks=(Trick(t.leader, cards("2e 3p 2o 2p"), 1),))
        with pytest.raises(InvalidStateError) as info:
            check_state(broken)
        assert info.value.rule in ("COPAS-11", "COPAS-13")

    def test_malformed_state(self) -> None:
        """COPAS-1: a state with a non-card is malformed."""
        state = first_deal()
        broken = attrs.evolve(state, trick=("Ae",))  # type: ignore[arg-type]
        with pytest.raises(MalformedInputError):
            check_state(broken)
        assert not well_formed(broken)


@pytest.mark.rule("COPAS-1", "COPAS-4", "COPAS-5", "COPAS-9")
class TestCodec:
    def test_initial_state_json(self) -> None:
        """COPAS-5: the initial state encodes as the spec's example."""
        text = GAME.dumps(new_game())
        assert text == (
            '{"config":{"all_cards":"others_ten","bonus_all_cards":"twenty",'
            '"bonus_other_ten":"new_bonus","copas_lead":"any","end_when_copas_out":false,"first_dealer":0,"players":4,'
            '"rank_order":"printed"},"dealer":0,"hands":[[],[],[],[]],"last_round":[],'
            '"leader":1,"pending":null,"phase":"deal","round":1,"scores":[0,0,0,0],'
            '"trick":[],"tricks":[]}'
        )

    def test_actions_json(self) -> None:
        """COPAS-9: a play is {"type":"play","seat":1,"card":"Qc"}."""
        assert GAME.dumps(Play(1, Card("Qc"))) == '{"card":"Qc","seat":1,"type":"play"}'
        deal = sample_chance(new_game(), random.Random(1))
        data = json.loads(GAME.dumps(deal))
        assert data["type"] == "deal" and len(data["hands"]) == 4
        assert GAME.action_from_json(data) == deal

    def test_round_trips(self) -> None:
        """COPAS-1: states, configs and observations round-trip through JSON."""
        script = " ".join(TEN_COPAS_SCRIPT.split()[:10])
        state = play_script(dealt(TEN_COPAS_HANDS, pending=2), script)
        assert GAME.state_from_json(GAME.to_json(state)) == state
        config = Config(players=5, copas_lead=CopasLead.BROKEN, end_when_copas_out=True)
        assert GAME.config_from_json(GAME.to_json(config)) == config
        obs = observe(state, 1)
        assert GAME.converter.structure(GAME.to_json(obs), type(obs)) == obs

    @pytest.mark.parametrize(
        "data",
        [
            {"type": "play", "seat": 1, "card": "8c"},
            {"type": "play", "seat": 1, "card": "Xx"},
            {"type": "play", "seat": "1", "card": "Qc"},
            {"type": "play", "seat": 1},
            {"type": "play", "seat": 1, "card": "Qc", "extra": 0},
            {"type": "pass", "seat": 1},
            {"type": "deal", "hands": [["Qc", "Zz"]]},
        ],
    )
    def test_invalid_json_is_malformed(self, data: object) -> None:
        """COPAS-1: an unknown card code or a misshapen action is a MalformedInputError."""
        with pytest.raises(MalformedInputError):
            GAME.action_from_json(data)

    def test_bad_state_json(self) -> None:
        """COPAS-4: a decoded state is checked."""
        data = GAME.to_json(new_game())
        data["config"]["players"] = 7
        with pytest.raises(InvalidStateError):
            GAME.state_from_json(data)


@pytest.mark.rule("COPAS-22")
class TestRegistry:
    def test_registered(self) -> None:
        """COPAS-22: the game is in the registry with its facts."""
        assert GAMES["copas"] is GAME
        assert GAME.prefix == "COPAS" and GAME.facts.hidden_information
        assert GAME.facts.min_players == 3 and GAME.facts.max_players == 5

    def test_render_and_demo(self) -> None:
        """The demo tells a seeded match trick by trick, deterministically."""
        lines = list(GAME.demo(5, rounds=0))
        assert lines == list(GAME.demo(5, rounds=0))
        assert any("trick 1:" in line for line in lines)
        assert "match over" in lines[-2] and "COPAS-20" in lines[-2]
        assert lines[-1].startswith("result: ") and "COPAS-21" in lines[-1]
        assert "seat 0" in render(first_deal())
