"""Kopa rules, one class per rule; every test names the rule it pins."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import attrs
import pytest

from copa_ref.core import IllegalActionError, InvalidStateError, MalformedInputError, MoverKind
from copa_ref.games import GAMES
from copa_ref.kopa import (
    GAME,
    Card,
    Config,
    Deal,
    DeclinedDraw,
    FalsePass,
    Pass,
    Phase,
    Play,
    State,
    Suit,
    action_space,
    apply,
    chance_step,
    legal_actions,
    new_game,
    observe,
    outcome,
    render,
    sample_chance,
    to_move,
    well_formed,
)
from copa_ref.kopa.rules import (
    DECK,
    check_state,
    deal_shape,
    eight_ready,
    legal_cards,
    next_down,
    next_up,
    round_changes,
    start_cards,
)
from tests.kopa.helpers import (
    RUN_HANDS,
    TWO_HANDS,
    cards,
    dealt,
    play_script,
    restocked,
    two,
)
from tests.support import assert_malformed, assert_refused


def refused(state: State, action: object, rule: str) -> IllegalActionError:
    """Expect a refusal of *action* under *rule*, leaving *state* unchanged."""
    return assert_refused(GAME, state, action, rule)


def first_deal(players: int = 3, seed: int = 0, **config: object) -> State:
    state = new_game(Config(players=players, **config))  # type: ignore[arg-type]
    return apply(state, sample_chance(state, random.Random(seed)))


def codes(actions: tuple[object, ...]) -> list[str]:
    return [a.card.value if isinstance(a, Play) else "-" for a in actions]


# Seat 0 opens S1, seat 1 S15, seat 2 O1; then S2, S14, O2: the Sable and Or piles run.
OPENING = "S1 S15 O1 S2 S14 O2"


@pytest.mark.rule("KOPA-1")
class TestDeck:
    def test_sixty_cards(self) -> None:
        """KOPA-1: 60 distinct cards, four suits of 1 to 15, coded suit then number."""
        assert len(DECK) == 60 == len({c.value for c in DECK})
        assert {c.suit for c in DECK} == set(Suit)
        assert Card("O15").suit is Suit.OR and Card("O15").number == 15
        assert [c.value for c in DECK] == sorted(c.value for c in DECK)

    def test_invalid_non_card_in_deal(self) -> None:
        """KOPA-1: a deal naming something that is no card is not even shaped right."""
        hands = list(RUN_HANDS)
        hands[0] = (*hands[0][:-1], "S16")  # type: ignore[assignment]
        assert_malformed(GAME, new_game(), Deal(tuple(hands)))

    def test_invalid_non_card_play(self) -> None:
        """KOPA-1: playing something that is no card is not even shaped right."""
        assert_malformed(GAME, dealt(), Play(0, "S1"))  # type: ignore[arg-type]
        assert_malformed(GAME, dealt(), Play(True, Card("S1")))  # type: ignore[arg-type]


@pytest.mark.rule("KOPA-2")
class TestPlayers:
    @pytest.mark.parametrize("players", [0, 1, 6])
    def test_invalid_player_count(self, players: int) -> None:
        """KOPA-2: only 2 to 5 players."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(players=players))
        assert info.value.rule == "KOPA-2"

    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_two_to_five(self, players: int) -> None:
        """KOPA-2: two to five players, three by default."""
        assert len(new_game(Config(players=players)).hands) == players
        assert Config().players == 3


@pytest.mark.rule("KOPA-3")
class TestSeats:
    def test_default_first_dealer_is_the_last_seat(self) -> None:
        """KOPA-3: the first dealer is the last seat, so that seat 0 leads."""
        for n in (2, 3, 4, 5):
            state = new_game(Config(players=n))
            assert state.dealer == n - 1 and state.turn == 0

    def test_chosen_first_dealer(self) -> None:
        """KOPA-3: Config.first_dealer chooses the first dealer."""
        state = new_game(Config(first_dealer=0))
        assert state.dealer == 0 and state.turn == 1

    def test_invalid_first_dealer(self) -> None:
        """KOPA-3: the first dealer must be a seat."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(first_dealer=3))
        assert info.value.rule == "KOPA-3"


@pytest.mark.rule("KOPA-4")
class TestDeal:
    @pytest.mark.parametrize(("players", "size"), [(3, 20), (4, 15), (5, 12)])
    def test_sampled_deal_is_a_partition(self, players: int, size: int) -> None:
        """KOPA-4: 20, 15 or 12 cards each, together exactly the deck; none aside."""
        state = new_game(Config(players=players))
        assert to_move(state).kind is MoverKind.CHANCE
        deal = sample_chance(state, random.Random(7))
        assert all(len(h) == size for h in deal.hands)
        assert sorted(c.index for h in deal.hands for c in h) == list(range(60))
        after = apply(state, deal)
        assert after.phase is Phase.PLAY and after.stock == ()
        assert deal_shape(players) == (players, size)

    def test_sampling_is_replayable(self) -> None:
        """KOPA-4: the same seed gives the same deal; the deal replays exactly from JSON."""
        state = new_game()
        a = sample_chance(state, random.Random(3))
        assert a == sample_chance(state, random.Random(3))
        assert apply(state, a) == apply(state, GAME.action_from_json(GAME.to_json(a)))

    def test_deal_in_any_order_is_sorted(self) -> None:
        """KOPA-4: a hand may be listed in any order; the state keeps it sorted by code."""
        state = dealt(tuple(tuple(reversed(h)) for h in RUN_HANDS))
        assert all(list(h) == sorted(h, key=lambda c: c.value) for h in state.hands)

    def test_invalid_duplicate_card(self) -> None:
        """KOPA-4: a card dealt twice is refused."""
        hands = list(RUN_HANDS)
        hands[0] = (*hands[0][:-1], hands[1][0])
        refused(new_game(), Deal(tuple(hands)), "KOPA-4")

    def test_invalid_wrong_number_of_hands(self) -> None:
        """KOPA-4: one hand per seat."""
        refused(new_game(), Deal(RUN_HANDS[:2]), "KOPA-4")

    def test_invalid_uneven_hands(self) -> None:
        """KOPA-4: all cards dealt evenly."""
        hands = list(RUN_HANDS)
        hands[0], hands[1] = (*hands[0], hands[1][0]), hands[1][1:]
        refused(new_game(), Deal(tuple(hands)), "KOPA-4")

    def test_invalid_hand_not_a_tuple(self) -> None:
        """KOPA-4: a deal of the wrong shape is not even shaped right (KOPA-Q17)."""
        assert_malformed(GAME, new_game(), Deal([list(h) for h in RUN_HANDS]))  # type: ignore[arg-type]
        hands = list(RUN_HANDS)
        hands[1] = list(hands[1])  # type: ignore[call-overload]
        assert_malformed(GAME, new_game(), Deal(tuple(hands)))

    def test_invalid_play_or_pass_before_deal(self) -> None:
        """KOPA-4: nothing is played before the round is dealt."""
        refused(new_game(), Play(0, Card("S1")), "KOPA-4")
        refused(new_game(), Pass(0), "KOPA-4")

    def test_invalid_malformed_action(self) -> None:
        """KOPA-4: an object that is no action is not even shaped right, at any node."""
        assert_malformed(GAME, new_game(), "deal")
        assert_malformed(GAME, dealt(), {"type": "play"})


@pytest.mark.rule("KOPA-5")
class TestFirstPlayer:
    @pytest.mark.parametrize("dealer", [0, 1, 2])
    def test_dealers_left_begins(self, dealer: int) -> None:
        """KOPA-5: the player to the dealer's left (dealer + 1) begins."""
        state = dealt(config=Config(first_dealer=dealer))
        assert to_move(state).seats == ((dealer + 1) % 3,)

    def test_opening_is_a_1_or_a_15(self) -> None:
        """KOPA-5: on the empty table only 1s and 15s can be played (or a pass)."""
        state = first_deal(seed=4)
        plays = [a for a in legal_actions(state) if isinstance(a, Play)]
        assert all(a.card.number in (1, 15) for a in plays)
        hand = state.hands[state.turn]
        assert len(plays) == sum(1 for c in hand if c.number in (1, 15))


@pytest.mark.rule("KOPA-6")
class TestTurnOrder:
    def test_clockwise(self) -> None:
        """KOPA-6: the turn passes to seat + 1, after a card or a pass."""
        state = apply(dealt(), Play(0, Card("S1")))
        assert to_move(state).seats == (1,)
        state = apply(state, Pass(1))
        assert to_move(state).seats == (2,)

    def test_invalid_out_of_turn(self) -> None:
        """KOPA-6: a seat that is not to act may not play or pass."""
        state = dealt()
        refused(state, Play(1, Card("S15")), "KOPA-6")
        refused(state, Pass(2), "KOPA-6")
        assert_malformed(GAME, state, Pass(True))  # type: ignore[arg-type]

    def test_invalid_deal_during_play(self) -> None:
        """KOPA-6: no deal while a seat is to act."""
        refused(dealt(), Deal(RUN_HANDS), "KOPA-6")


@pytest.mark.rule("KOPA-7")
class TestOwnHand:
    def test_invalid_card_not_held(self) -> None:
        """KOPA-7: a card the seat does not hold is refused."""
        refused(dealt(), Play(0, Card("S15")), "KOPA-7")

    def test_card_leaves_the_hand(self) -> None:
        """KOPA-7: a card played leaves the hand."""
        state = apply(dealt(), Play(0, Card("S1")))
        assert Card("S1") not in state.hands[0] and len(state.hands[0]) == 19


@pytest.mark.rule("KOPA-8")
class TestStartPile:
    def test_ones_and_fifteens_start_piles(self) -> None:
        """KOPA-8: a 1 starts its up-pile, a 15 its down-pile."""
        state = play_script(dealt(), "S1 S15 O1")
        assert state.piles[0] == cards("S1") and state.piles[1] == cards("S15")
        assert state.piles[6] == cards("O1")
        assert start_cards(3) == cards("V15")

    def test_invalid_pile_started_with_another_card(self) -> None:
        """KOPA-8: a pile starts with its 1 or 15 only (not with the example's Gules 2)."""
        err = refused(apply(dealt(), Play(0, Card("S1"))), Play(1, Card("S14")), "KOPA-8")
        assert "S15" in str(err)
        refused(dealt(), Play(0, Card("G2")), "KOPA-8")


@pytest.mark.rule("KOPA-9")
class TestBuildUp:
    def test_next_card_up(self) -> None:
        """KOPA-9: on an up-pile the next number of the suit goes on top, up to 7."""
        assert next_up(Card("S3")) == cards("S4")
        assert next_up(Card("S7")) == ()
        state = play_script(dealt(), OPENING)
        assert Play(0, Card("S3")) in legal_actions(state)

    def test_up_pile_ends_at_seven(self) -> None:
        """KOPA-9: after the 7 an up-pile takes nothing (the 8 lies across, KOPA-13)."""
        state = play_script(dealt(), "S1 S15 O1 S2 - O2 S3 - O3 S4 - O4 S5 - O5 S6 - O6 S7")
        assert state.piles[0][-1] == Card("S7")
        assert all(c.suit is not Suit.SABLE or c.number >= 9
                   for c in legal_cards(state.hands[1], state.piles, state.eights))


@pytest.mark.rule("KOPA-12", "KOPA-13")
class TestMemos:
    def test_remembered_answers_are_the_rules(self) -> None:
        """KOPA-12, KOPA-13: the table's memos (the last table, each suit's piles and 8, the
        last hand) answer what the rules compute afresh, along random rounds."""
        from copa_ref.kopa import rules

        def fresh(state: State) -> tuple[Card, ...]:
            take = [c for i in range(8) for c in rules.pile_accepts(i, state.piles[i])]
            take += [rules.card_of(r, 8) for r in range(4) if rules.eight_ready(
                state.piles[2 * r], state.piles[2 * r + 1]) and rules.card_of(r, 8)
                not in state.eights]
            return tuple(c for c in state.hands[state.turn] if c in take)

        rng = random.Random(4)
        for players in (2, 3, 5):
            state = first_deal(players, seed=players)
            for _ in range(150):
                if state.phase is not Phase.PLAY:
                    break
                assert legal_cards(state.hands[state.turn], state.piles, state.eights) == (
                    fresh(state))
                state = apply(state, rng.choice(legal_actions(state)))


@pytest.mark.rule("KOPA-10")
class TestBuildDown:
    def test_next_card_down(self) -> None:
        """KOPA-10: on a down-pile the next number down goes on top, to 9."""
        assert next_down(Card("S10")) == cards("S9")
        assert next_down(Card("S9")) == ()
        state = play_script(dealt(), OPENING + " S3")
        assert Play(1, Card("S13")) in legal_actions(state)


@pytest.mark.rule("KOPA-11")
class TestSameSuit:
    def test_invalid_other_suit(self) -> None:
        """KOPA-11: a card that follows another suit's pile, not its own, is refused."""
        state = play_script(dealt(), "S1 S15 O1 V1 - O2 S2 - O3")
        err = refused(state, Play(0, Card("V3")), "KOPA-11")
        assert "S2" in str(err) and "V1" in str(err)


@pytest.mark.rule("KOPA-12")
class TestNoSkipping:
    def test_invalid_skip(self) -> None:
        """KOPA-12: a card that skips numbers is refused."""
        state = play_script(dealt(), OPENING)
        err = refused(state, Play(0, Card("S4")), "KOPA-12")
        assert "S3" in str(err)
        refused(apply(state, Play(0, Card("S3"))), Play(1, Card("S12")), "KOPA-12")


@pytest.mark.rule("KOPA-13")
class TestEight:
    def test_eight_across_seven_and_nine(self) -> None:
        """KOPA-13: the 8 is legal once its 7 and 9 are down, and lies across them."""
        script = ("S1 S15 O1 S2 S14 O2 S3 S13 O3 S4 S12 O4 S5 S11 O5 S6 S10 O6 S7 S9")
        state = play_script(dealt(), script)
        assert eight_ready(state.piles[0], state.piles[1])
        assert Play(2, Card("S8")) in legal_actions(state)
        state = apply(state, Play(2, Card("S8")))
        assert state.eights == cards("S8")

    def test_invalid_eight_too_early(self) -> None:
        """KOPA-13: an 8 before its 7 and 9 are down is refused."""
        state = play_script(dealt(), "S1 S15")
        refused(state, Play(2, Card("S8")), "KOPA-13")


@pytest.mark.rule("KOPA-14")
class TestArrangement:
    def test_piles_in_the_texts_order(self) -> None:
        """KOPA-14: Sable, Vert, Gules, Or; each suit's 1 beside its 15."""
        assert [Card(f"{s}{n}").pile for s in "SVGO" for n in (1, 15)] == list(range(8))
        state = play_script(dealt(), "S1 S15 O1")
        assert observe(state, None).piles == state.piles


@pytest.mark.rule("KOPA-15")
class TestFailedTurn:
    def test_pass_without_a_card_costs_one(self) -> None:
        """KOPA-15: a pass with no legal card charges one point (no stock to draw from)."""
        state = restocked(apply(two(), Play(0, Card("S1"))))
        assert not legal_cards(state.hands[1], state.piles, state.eights)
        after = apply(state, Pass(1))
        assert after.penalties == (0, 1) and after.turn == 0

    def test_pass_is_always_legal(self) -> None:
        """KOPA-15: a pass is always among the legal actions (by default)."""
        assert Pass(0) in legal_actions(dealt())


@pytest.mark.rule("KOPA-16")
class TestFalseClaim:
    def test_false_pass_costs_five(self) -> None:
        """KOPA-16: a pass while holding a legal card costs 1 + 4."""
        state = apply(dealt(), Pass(0))
        assert state.penalties == (5, 0, 0)

    def test_invalid_false_pass_when_refused(self) -> None:
        """KOPA-16: under false_pass=refused such a pass is refused."""
        state = dealt(config=Config(false_pass=FalsePass.REFUSED))
        refused(state, Pass(0), "KOPA-16")
        assert Pass(0) not in legal_actions(state)


@pytest.mark.rule("KOPA-17")
class TestStock:
    def test_two_players_deal_three_hands(self) -> None:
        """KOPA-17: two players: three lists of 20, the third the stock (top first)."""
        state = two()
        assert [len(h) for h in state.hands] == [20, 20]
        assert state.stock == TWO_HANDS[2]
        assert observe(state, 0).stock_size == 20
        assert deal_shape(2) == (3, 20)
        deal = sample_chance(new_game(Config(players=2)), random.Random(1))
        assert [len(h) for h in deal.hands] == [20, 20, 20]

    def test_invalid_two_player_deal_without_stock(self) -> None:
        """KOPA-17: a two-player deal lists two hands and the stock."""
        refused(new_game(Config(players=2)), Deal(TWO_HANDS[:2]), "KOPA-17")
        hands = (TWO_HANDS[0], TWO_HANDS[1][:-1], (*TWO_HANDS[2], TWO_HANDS[1][-1]))
        refused(new_game(Config(players=2)), Deal(hands), "KOPA-17")


@pytest.mark.rule("KOPA-18")
class TestDraw:
    def test_unplayable_draw_is_kept_with_a_point(self) -> None:
        """KOPA-18: a drawn card that cannot be played is kept; one point; turn passes."""
        state = apply(two(), Play(0, Card("S1")))
        after = apply(state, Pass(1))
        assert Card("O2") in after.hands[1] and after.stock == TWO_HANDS[2][1:]
        assert after.penalties == (0, 1) and after.turn == 0 and after.phase is Phase.PLAY

    def test_playable_draw_may_be_played(self) -> None:
        """KOPA-18: a playable drawn card may be played at once (no penalty)."""
        state = restocked(apply(two(), Play(0, Card("S1"))), "O15 O2")
        state = attrs.evolve(state, hands=(state.hands[0], state.hands[1]))
        after = apply(state, Pass(1))
        assert after.phase is Phase.DRAWN and after.drawn == Card("O15") and after.turn == 1
        assert legal_actions(after) == (Play(1, Card("O15")), Pass(1))
        played = apply(after, Play(1, Card("O15")))
        assert played.penalties == (0, 0) and played.turn == 0 and played.piles[7] == cards("O15")

    def test_keeping_a_playable_draw(self) -> None:
        """KOPA-18: keeping a playable drawn card costs one point, or none if free."""
        for config, cost in ((Config(players=2), 1),
                             (Config(players=2, declined_draw=DeclinedDraw.FREE), 0)):
            state = restocked(apply(two(config), Play(0, Card("S1"))), "O15 O2")
            kept = apply(apply(state, Pass(1)), Pass(1))
            assert kept.penalties == (0, cost) and Card("O15") in kept.hands[1]

    def test_invalid_other_card_after_draw(self) -> None:
        """KOPA-18: after a draw only the drawn card may be played."""
        state = restocked(apply(two(), Play(0, Card("S1"))), "O15 S15")
        after = apply(state, Pass(1))
        assert Card("S9") in after.hands[1]
        refused(after, Play(1, Card("S9")), "KOPA-18")

    def test_false_pass_draws_and_costs_four(self) -> None:
        """KOPA-18/KOPA-16: a pass while a card is playable still draws, and costs 4 more."""
        state = apply(two(), Pass(0))
        assert state.penalties == (5, 0) and Card("O2") in state.hands[0]


@pytest.mark.rule("KOPA-19")
class TestRoundEnd:
    def test_round_ends_when_a_hand_is_empty(self) -> None:
        """KOPA-19: the round ends the moment a hand is empty."""
        state = two()
        rng = random.Random(2)
        while state.phase is not Phase.OVER:
            mover = state.turn
            plays = [a for a in legal_actions(state) if isinstance(a, Play)]
            state = apply(state, plays[0] if plays and mover == 0 else Pass(mover)
                          if mover == 1 else rng.choice(legal_actions(state)))
        assert state.hands[0] == () and state.turn == 0


@pytest.mark.rule("KOPA-20")
class TestScoring:
    def test_round_changes(self) -> None:
        """KOPA-20: the winner gains one point per card in the other hands; penalties are
        subtracted; the stock does not count."""
        hands = (cards("S1 S2"), (), cards("O4"))
        assert round_changes(hands, 1, (0, 3, 1), cards("G1 G2")) == (0, 0, -1)
        assert round_changes(hands, 1, (0, 0, 0), ()) == (0, 3, 0)

    def test_two_player_round_scored(self) -> None:
        """KOPA-20: seat 0 plays out its hand; it gains seat 1's cards minus its penalties."""
        state = two()
        while state.phase is Phase.PLAY or state.phase is Phase.DRAWN:
            plays = [a for a in legal_actions(state) if isinstance(a, Play)]
            state = apply(state, plays[0] if state.turn == 0 else Pass(1))
        gain = len(state.hands[1])
        assert state.scores == (gain, -state.penalties[1]) == state.last_round


@pytest.mark.rule("KOPA-21")
class TestNextRound:
    def test_deal_passes_clockwise(self) -> None:
        """KOPA-21: the next round is dealt by the dealer's left; penalties start again."""
        state = dealt(config=Config(target=30))
        while state.phase is not Phase.DEAL:
            plays = [a for a in legal_actions(state) if isinstance(a, Play)]
            state = apply(state, plays[0] if plays else Pass(state.turn))
        assert (state.dealer, state.round, state.turn) == (0, 2, 1)
        after = apply(state, sample_chance(state, random.Random(1)))
        assert after.penalties == (0, 0, 0) and after.turn == 1


@pytest.mark.rule("KOPA-22")
class TestMatchEnd:
    def test_reaching_the_target_ends_the_match(self) -> None:
        """KOPA-22: a seat at 20 or more after a round ends the match and wins."""
        state = dealt(scores=(19, 0, 0))
        while state.phase is Phase.PLAY:
            plays = [a for a in legal_actions(state) if isinstance(a, Play)]
            state = apply(state, plays[0] if plays else Pass(state.turn))
        result = outcome(state)
        assert state.phase is Phase.OVER and result is not None
        assert result.rule == "KOPA-22" and max(state.scores) >= 20
        assert result.winners == (state.scores.index(max(state.scores)),)

    def test_target_thirty(self) -> None:
        """KOPA-22: with target 30, 20 points do not end the match."""
        assert new_game(Config(target=30)).config.target == 30
        state = dealt(config=Config(target=30), scores=(29, 0, 0))
        state = attrs.evolve(state, scores=(20, 0, 0))
        assert well_formed(state) and outcome(state) is None

    def test_invalid_target(self) -> None:
        """KOPA-22: the target is 20 or 30."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(target=25))
        assert info.value.rule == "KOPA-22"

    def test_invalid_action_after_the_end(self) -> None:
        """KOPA-22: every action is refused once the match is over."""
        state = dealt(scores=(19, 0, 0))
        while state.phase is Phase.PLAY:
            plays = [a for a in legal_actions(state) if isinstance(a, Play)]
            state = apply(state, plays[0] if plays else Pass(state.turn))
        refused(state, Pass(state.turn), "KOPA-22")
        refused(state, Play(0, Card("S1")), "KOPA-22")
        refused(state, Deal(RUN_HANDS), "KOPA-22")
        assert legal_actions(state) == () and to_move(state).is_over


@pytest.mark.rule("KOPA-7", "KOPA-17", "KOPA-18")
class TestObserve:
    def test_own_hand_only(self) -> None:
        """KOPA-7: a seat sees its own hand and the sizes of the others, never their cards."""
        state = first_deal()
        obs = observe(state, 2)
        assert obs.hand == state.hands[2] and obs.hand_sizes == (20, 20, 20)
        text = GAME.dumps(obs)
        for seat in (0, 1):
            for card in state.hands[seat]:
                assert f'"{card.value}"' not in text
        assert observe(state, None).hand == ()

    def test_other_hands_and_stock_do_not_leak(self) -> None:
        """KOPA-17: swapping hidden cards between others' hands or the stock changes no
        other seat's view and no public view; the seat's own view does change."""
        state = apply(two(), Play(0, Card("S1")))
        h = list(state.hands)
        swapped = attrs.evolve(state, hands=(h[0], tuple(sorted(
            (*h[1][1:], state.stock[0]), key=lambda c: c.index))),
            stock=(h[1][0], *state.stock[1:]))
        assert observe(state, 0) == observe(swapped, 0)
        assert observe(state, None) == observe(swapped, None)
        assert observe(state, 1) != observe(swapped, 1)

    def test_drawn_card_only_for_the_drawer(self) -> None:
        """KOPA-18: the drawn card is in the drawer's view only."""
        state = restocked(apply(two(), Play(0, Card("S1"))), "O15 O2")
        after = apply(state, Pass(1))
        assert observe(after, 1).drawn == Card("O15")
        assert observe(after, 0).drawn is None and observe(after, None).drawn is None


@pytest.mark.rule("KOPA-1", "KOPA-9")
class TestStateChecks:
    def test_states_of_play_are_well_formed(self) -> None:
        """KOPA-1: states made by play are well formed."""
        assert well_formed(new_game()) and well_formed(first_deal(5)) and well_formed(two())

    def test_lost_card_is_invalid(self) -> None:
        """KOPA-1: a state missing a card is refused by check_state."""
        state = first_deal()
        broken = attrs.evolve(state, hands=(state.hands[0][1:], *state.hands[1:]))
        assert not well_formed(broken)
        with pytest.raises(InvalidStateError) as info:
            check_state(broken)
        assert info.value.rule == "KOPA-1"

    def test_broken_pile_is_invalid(self) -> None:
        """KOPA-9: a pile that is no run is an invalid state."""
        state = play_script(dealt(), "S1 S15 O1")
        hands = (tuple(c for c in state.hands[0] if c is not Card("S3")), *state.hands[1:])
        broken = attrs.evolve(state, hands=hands, piles=(cards("S1 S3"), *state.piles[1:]))
        with pytest.raises(InvalidStateError) as info:
            check_state(broken)
        assert info.value.rule == "KOPA-9"

    def test_malformed_state(self) -> None:
        """KOPA-1: a state with a non-card is malformed."""
        broken = attrs.evolve(first_deal(), stock=("S1",))  # type: ignore[arg-type]
        with pytest.raises(MalformedInputError):
            check_state(broken)
        assert not well_formed(broken)


@pytest.mark.rule("KOPA-1", "KOPA-2", "KOPA-3", "KOPA-6")
class TestCodec:
    def test_initial_state_json(self) -> None:
        """KOPA-3: the initial state encodes as the spec's example."""
        assert GAME.dumps(new_game()) == (
            '{"config":{"declined_draw":"penalty","false_pass":"penalty","first_dealer":null,'
            '"players":3,"target":20},"dealer":2,"drawn":null,"eights":[],'
            '"hands":[[],[],[]],"last_round":[],"penalties":[0,0,0],"phase":"deal",'
            '"piles":[[],[],[],[],[],[],[],[]],"round":1,"scores":[0,0,0],"stock":[],'
            '"turn":0}')

    def test_actions_json(self) -> None:
        """KOPA-6: a play is {"type":"play","seat":1,"card":"S2"}; a pass {"type":"pass"}."""
        assert GAME.dumps(Play(1, Card("S2"))) == '{"card":"S2","seat":1,"type":"play"}'
        assert GAME.dumps(Pass(0)) == '{"seat":0,"type":"pass"}'
        deal = sample_chance(new_game(), random.Random(1))
        data = json.loads(GAME.dumps(deal))
        assert data["type"] == "deal" and len(data["hands"]) == 3
        assert GAME.action_from_json(data) == deal

    def test_round_trips(self) -> None:
        """KOPA-1: states, configs and observations round-trip through JSON."""
        state = play_script(two(), "S1 - S2")
        assert GAME.state_from_json(GAME.to_json(state)) == state
        config = Config(players=5, target=30, first_dealer=1, false_pass=FalsePass.REFUSED)
        assert GAME.config_from_json(GAME.to_json(config)) == config
        obs = observe(state, 1)
        assert GAME.converter.structure(GAME.to_json(obs), type(obs)) == obs

    @pytest.mark.parametrize(
        "data",
        [
            {"type": "play", "seat": 1, "card": "S16"},
            {"type": "play", "seat": 1, "card": "X1"},
            {"type": "play", "seat": "1", "card": "S1"},
            {"type": "play", "seat": 1},
            {"type": "pass", "seat": 1, "extra": 0},
            {"type": "pass", "seat": True},
            {"type": "draw", "seat": 1},
            {"type": "deal", "hands": [["S1", "Z9"]]},
        ],
    )
    def test_invalid_json_is_malformed(self, data: object) -> None:
        """KOPA-1: an unknown card code or a misshapen action is a MalformedInputError."""
        with pytest.raises(MalformedInputError):
            GAME.action_from_json(data)

    def test_bad_state_json(self) -> None:
        """KOPA-2: a decoded state is checked."""
        data = GAME.to_json(new_game())
        data["config"]["players"] = 7
        with pytest.raises(InvalidStateError):
            GAME.state_from_json(data)


@pytest.mark.rule("KOPA-4", "KOPA-6", "KOPA-17")
class TestSpaces:
    def test_action_space(self) -> None:
        """KOPA-6: every play by every seat and every pass, sorted by canonical JSON."""
        space = action_space(Config())
        assert len(space) == 3 * 61
        texts = [GAME.dumps(a) for a in space]
        assert texts == sorted(texts) and len(set(texts)) == len(texts)
        state = first_deal()
        assert set(legal_actions(state)) <= set(space)

    def test_chance_step_builds_a_deal(self) -> None:
        """KOPA-4: the deal one card at a time: 60 steps of uniform choices, then the Deal."""
        state = new_game()
        first = chance_step(state, ())
        assert isinstance(first, tuple) and len(first) == 60
        assert sum(p for _, p in first) == 1 and first[0][1] == Fraction(1, 60)
        order = list(range(60))
        random.Random(5).shuffle(order)
        step = chance_step(state, tuple(order[:59]))
        assert isinstance(step, tuple) and step == ((order[59], Fraction(1)),)
        deal = chance_step(state, tuple(order))
        assert isinstance(deal, Deal)
        assert apply(state, deal).phase is Phase.PLAY
        with pytest.raises(MalformedInputError):
            chance_step(state, (0, 0))
        with pytest.raises(IllegalActionError):
            chance_step(dealt(), ())

    def test_chance_step_two_players(self) -> None:
        """KOPA-17: with two players every third card goes to the stock."""
        state = new_game(Config(players=2))
        deal = chance_step(state, tuple(range(60)))
        assert isinstance(deal, Deal) and [len(h) for h in deal.hands] == [20, 20, 20]
        assert deal.hands[2] == tuple(DECK[k] for k in range(2, 60, 3))


@pytest.mark.rule("KOPA-2", "KOPA-18", "KOPA-20", "KOPA-22")
class TestRegistry:
    def test_registered(self) -> None:
        """KOPA-2: the game is in the registry with its facts."""
        assert GAMES["kopa"] is GAME
        assert GAME.prefix == "KOPA" and GAME.facts.hidden_information
        assert GAME.facts.min_players == 2 and GAME.facts.max_players == 5

    def test_render_and_demo(self) -> None:
        """The demo tells a seeded match round by round, deterministically, and says who
        plays it."""
        lines = list(GAME.demo(5, rounds=0))
        assert lines == list(GAME.demo(5, rounds=0))
        assert "simple player" in lines[0]
        assert any("goes out after" in line for line in lines)
        assert "match over" in lines[-2] and "KOPA-22" in lines[-2]
        assert lines[-1].startswith("result: ") and lines[-1].endswith("(KOPA-22).")

    @pytest.mark.parametrize("players", [3, 4, 5])
    def test_simple_players_matches_end(self, players: int) -> None:
        """KOPA-22: with three to five simple players (a legal card whenever there is one)
        the match reaches the target, the default demo's included (KOPA-Q14)."""
        for seed in (1, 2, 3):
            last = list(GAME.demo(seed, players=players, rounds=0))[-2]
            assert last.startswith("match over"), (players, seed, last)

    def test_two_simple_players_fall_below_zero(self) -> None:
        """KOPA-18, KOPA-20: with two players the draws' penalty points outweigh a round's
        gain; the demo stops and says why (KOPA-Q14)."""
        lines = list(GAME.demo(1, players=2, rounds=0))
        stop = next(i for i, line in enumerate(lines) if line.startswith("stopped after"))
        last = " ".join(line.strip() for line in lines[stop:-1])
        assert last.startswith("stopped after 100 rounds") and "KOPA-Q14" in last
        assert "draws" in last
        assert "Sable" in render(first_deal())


def test_the_rules_build_a_state_as_its_class_does() -> None:
    # The rules' own builder (its slots written directly) gives the object State(...) gives:
    # equal, the same hash and text, every field set to the very value, no checked mark.
    from copa_ref.core.entry import CHECKED
    from copa_ref.kopa import rules

    state = first_deal(2, seed=3)
    fields = {field.name: getattr(state, field.name) for field in attrs.fields(State)}
    built, made = rules._state(**fields), State(**fields)
    assert type(built) is State and built == made and hash(built) == hash(made)
    assert repr(built) == repr(made)
    assert all(getattr(built, name) is value for name, value in fields.items())
    assert getattr(built, CHECKED, None) is None
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.round = 2  # type: ignore[misc]
