"""Copas rules as pure functions: a whole match of the Portuguese trick-taking game.

Copas is an imperfect-information game (hidden hands) with chance (the deal of every round),
for 3, 4 or 5 players who act one at a time, counter-clockwise (seat + 1). A match is a
sequence of rounds, each dealt by a chance action (:class:`~copa_ref.copas.state.Deal`) and
played trick by trick (:class:`~copa_ref.copas.state.Play`); after the last card the round is
scored and the match end checked automatically (no action). Rule IDs (``COPAS-n``) refer to
``specs/copas.md``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from fractions import Fraction
from operator import attrgetter
from typing import cast

from copa_ref.copas.state import (
    Action,
    AllCards,
    BonusAllCards,
    BonusOtherTen,
    Card,
    Config,
    CopasLead,
    Deal,
    Observation,
    Phase,
    Play,
    RankOrder,
    State,
    Suit,
    Trick,
)
from copa_ref.core import (
    CHANCE,
    NOBODY,
    IllegalActionError,
    InvalidStateError,
    MalformedInputError,
    Outcome,
    Seat,
    StateChecks,
    ToMove,
    check_rng,
    rule,
    shuffled,
)
from copa_ref.core.codec import excerpt
from copa_ref.core.entry import CHECKED, slot_builder
from copa_ref.core.fields import check_bool, check_instance, check_int, check_seat, check_tuple

__all__ = [
    "BURST",
    "DECK",
    "apply",
    "check_config",
    "check_state",
    "copas_taken",
    "dealt",
    "deck",
    "first_leader",
    "hand_size",
    "left_out",
    "legal_actions",
    "legal_cards",
    "new_game",
    "next_dealer",
    "num_players",
    "observe",
    "outcome",
    "render",
    "round_over",
    "round_points",
    "sample_chance",
    "seat_at",
    "strength",
    "to_move",
    "trick_winner",
    "well_formed",
]

BURST = 51
"""A seat with this many booked minus points or more bursts (COPAS-20)."""

DECK: tuple[Card, ...] = tuple(sorted(Card, key=lambda c: c.index))
"""The 40 cards (COPAS-1), in canonical order (sorted by code)."""

_DECK_3: tuple[Card, ...] = tuple(c for c in DECK if c is not Card.C2p)
_HAND_SIZE = {3: 13, 4: 10, 5: 8}
_COPAS = Suit.COPAS
# The phases and options as module constants: the rules read them on every card, and a
# global name reads faster than an Enum member read from its class.
_PLAY, _DEAL, _OVER = Phase.PLAY, Phase.DEAL, Phase.OVER
_BROKEN_LEAD = CopasLead.BROKEN
_PLAIN_ORDER = RankOrder.PLAIN

# One Play object per (seat, card), so that legal_actions builds nothing in the hot path.
_PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, card) for card in DECK) for seat in range(5)
)


_index: Callable[[Card], int] = attrgetter("index")
"""A card's place in the canonical order (the sort key of hands; an ``attrgetter`` sorts in C)."""

_state = slot_builder(State)
"""``State(...)`` as the rules build it at every step, without the class's ``__init__`` (the
same object, its slots written directly: :func:`~copa_ref.core.entry.slot_builder`)."""


def left_out(players: int) -> Card | None:
    """The card left out of the deck for *players* seats: the two of clubs with three
    (COPAS-4), none otherwise."""
    # COPAS-4: with three players the two of clubs is left out.
    return Card.C2p if players == 3 else None


def deck(players: int) -> tuple[Card, ...]:
    """The deck for *players* seats, in canonical order (COPAS-1, COPAS-4).

    With three players the two of clubs (``2p``) is left out.
    """
    # COPAS-4: with three players the two of clubs is left out.
    return _DECK_3 if players == 3 else DECK


def hand_size(players: int) -> int:
    """Cards per hand: 13, 10 or 8 for 3, 4 or 5 players (COPAS-6)."""
    return _HAND_SIZE[players]


def dealt(config: Config) -> int:
    """Cards dealt to each seat: :func:`hand_size`, or fewer under the solver variant
    ``Config.cards_each`` (COPAS-6, COPAS-V1)."""
    return _HAND_SIZE[config.players] if config.cards_each is None else config.cards_each


def strength(card: Card, plain: bool) -> int:
    """The card's strength within its suit: the printed order, or the plain one (COPAS-2).

    :post: 0 <= __return__ <= 9
    """
    # COPAS-2: 2 < 3 < 4 < 5 < 6 < Q < J < K < 7 < A (or the plain house order).
    return card.plain if plain else card.rank


def seat_at(leader: int, k: int, players: int) -> int:
    """The seat that plays the *k*-th card (from 0) of a trick led by *leader* (COPAS-9)."""
    # COPAS-9: play runs counter-clockwise, seat + 1.
    return (leader + k) % players


def first_leader(dealer: int, players: int) -> int:
    """The seat that leads a round's first trick: the shuffler, right of the dealer (COPAS-8)."""
    # COPAS-8: the shuffler, to the dealer's right, leads the first trick.
    return (dealer + 1) % players


def next_dealer(dealer: int, players: int) -> int:
    """The dealer of the next round: the player to the dealer's right (COPAS-7)."""
    # COPAS-7: the player to the dealer's right deals the next round.
    return (dealer + 1) % players


def round_over(hand: tuple[Card, ...], tricks: tuple[Trick, ...], config: Config) -> bool:
    """Whether the trick just taken ends the round: no card is left in *hand* (every hand is
    as empty), or, under the house rule, all ten copas are out (COPAS-14)."""
    # COPAS-14: the round ends when all cards are played (or, as a house rule, once all
    # ten copas are out).
    return not hand or (
        config.end_when_copas_out and sum(copas_taken(tricks, config.players)) == 10)


# -- configuration and set-up ----------------------------------------------------------------


def check_config(config: Config) -> None:
    """Raise for a config no match can be played with.

    :raises MalformedInputError: for fields of the wrong type.
    :raises InvalidStateError: COPAS-4 for a player count other than 3, 4, 5; COPAS-5 for a
        first dealer that is no seat; COPAS-6 for ``cards_each`` outside 1 to a full hand.
    """
    if type(config) is not Config:
        msg = f"expected a Copas Config, got {excerpt(config)}"
        raise MalformedInputError(msg)
    check_int(config.players, "players")
    check_int(config.first_dealer, "first_dealer")
    for name, kind in (("all_cards", AllCards), ("bonus_other_ten", BonusOtherTen),
                       ("bonus_all_cards", BonusAllCards), ("rank_order", RankOrder),
                       ("copas_lead", CopasLead)):
        if type(getattr(config, name)) is not kind:
            msg = f"a Copas option has the wrong type: {name} must be a {kind.__name__}"
            raise MalformedInputError(msg)
    check_bool(config.end_when_copas_out, "end_when_copas_out")
    # COPAS-4: three, four (traditionally) or five players.
    if config.players not in _HAND_SIZE:
        msg = f"Copas is played by 3, 4 or 5 players, not {config.players}"
        raise InvalidStateError("COPAS-4", msg)
    # COPAS-5: the first dealer is a seat.
    if not 0 <= config.first_dealer < config.players:
        msg = f"first_dealer {config.first_dealer} is no seat of {config.players}"
        raise InvalidStateError("COPAS-5", msg)
    # COPAS-6 (COPAS-V1): the whole deck, or fewer cards each, at least one.
    if config.cards_each is not None:
        check_int(config.cards_each, "cards_each")
        if not 1 <= config.cards_each <= _HAND_SIZE[config.players]:
            msg = (f"each of {config.players} seats is dealt 1 to "
                   f"{_HAND_SIZE[config.players]} cards, not {config.cards_each}")
            raise InvalidStateError("COPAS-6", msg)


def num_players(config: Config) -> int:
    """How many seats play (COPAS-4).

    :raises MalformedInputError: for a value that is not a Copas config.
    """
    check_instance(config, Config, "a Copas config")
    return config.players


def new_game(config: Config | None = None) -> State:
    """The state before the first deal: no points, the first dealer to deal (COPAS-5).

    :raises InvalidStateError: COPAS-4/COPAS-5 for an unplayable config.
    """
    if config is None:
        config = Config()
    check_config(config)
    n = config.players
    return _CHECKS.built(_state(
        config=config,
        phase=_DEAL,
        round=1,
        dealer=config.first_dealer,
        scores=(0,) * n,
        pending=None,
        hands=((),) * n,
        leader=first_leader(config.first_dealer, n),
        trick=(),
        tricks=(),
        last_round=(),
    ))


# -- who moves, what is legal --------------------------------------------------------------


_MOVERS = tuple(ToMove.seat(s) for s in range(5))


def to_move(state: State) -> ToMove:
    """Chance at a deal, the seat whose turn it is in a trick, nobody when over (COPAS-9).

    :raises MalformedInputError: for a value that is not a Copas state.
    :raises InvalidStateError: for a Copas state no legal play can produce.
    """
    if type(state) is not State or getattr(state, CHECKED, None) is not _KEY:
        _CHECKS.enter(state)
    return _to_move(state)


def _to_move(state: State) -> ToMove:
    phase = state.phase
    if phase is _PLAY:
        return _MOVERS[seat_at(state.leader, len(state.trick), len(state.hands))]
    if phase is _DEAL:
        return CHANCE
    return NOBODY


def legal_cards(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of *hand* that may be played to *trick* (COPAS-11, COPAS-12).

    A seat holding the led suit must play one of those (follow suit); a seat void in it, or
    the leader, may play any card. The order of *hand* is kept.

    :pre: len(hand) <= 3 and len(trick) <= 2
    :post: all(card in hand for card in __return__)
    :post: len(__return__) > 0 or len(hand) == 0
    :post: not trick or all(c.suit is trick[0].suit for c in __return__) or not any(c.suit is trick[0].suit for c in hand)
    :post: all(c in __return__ for c in hand if not trick or c.suit is trick[0].suit)
    """  # noqa: E501 - a contract is one line
    if not trick:
        # COPAS-12: the leader may lead any card.
        return hand
    led = trick[0].suit
    # COPAS-11: follow suit when able.
    follow = tuple([c for c in hand if c.suit is led])
    # COPAS-12: otherwise discard any card.
    return follow if follow else hand


def _copas_broken(tricks: tuple[Trick, ...]) -> bool:
    for t in tricks:
        for c in t.cards:
            if c.suit is _COPAS:
                return True
    return False


def _lead_cards(state: State, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards *hand* may lead (COPAS-12), under the house rule of COPAS-15 if chosen."""
    if state.config.copas_lead is _BROKEN_LEAD and not _copas_broken(state.tricks):
        # COPAS-15 (house rule): no copa led before copas are broken, unless only copas held.
        others = tuple([c for c in hand if c.suit is not _COPAS])
        if others:
            return others
    return hand


def legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    """The legal card plays, sorted by card code (= canonical JSON); empty at chance nodes.

    :param seat: only this seat's plays (empty unless it is the seat to move).
    :raises MalformedInputError: for a value that is not a Copas state, or a seat that is not
        at the table.
    :raises InvalidStateError: for a Copas state no legal play can produce.
    """
    if type(state) is not State or getattr(state, CHECKED, None) is not _KEY:
        _CHECKS.enter(state)
    if seat is not None:
        check_seat(seat, len(state.hands))
    return _legal_actions(state, seat)


def _legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    if state.phase is not _PLAY:
        return ()
    trick = state.trick
    hands = state.hands
    mover = seat_at(state.leader, len(trick), len(hands))
    if seat is not None and seat != mover:
        return ()
    plays = _PLAYS[mover]
    hand = hands[mover]
    cards = legal_cards(hand, trick) if trick else _lead_cards(state, hand)
    return tuple([plays[c.index] for c in cards])


# -- the pure pieces of a trick and a round ----------------------------------------------------


def trick_winner(trick: tuple[Card, ...], plain: bool) -> int:
    """The position in *trick* of the card that takes it: the highest of the led suit.

    :pre: 1 <= len(trick) <= 4
    :post: trick[__return__].suit is trick[0].suit
    :post: all(c.suit is not trick[0].suit or strength(c, plain) <= strength(trick[__return__], plain) for c in trick)
    """  # noqa: E501 - a contract is one line
    # COPAS-13: the highest card of the led suit takes the trick; discards never win.
    led = trick[0].suit
    best = 0
    top = strength(trick[0], plain)
    for i in range(1, len(trick)):
        card = trick[i]
        if card.suit is led:
            s = strength(card, plain)
            if s > top:
                best, top = i, s
    return best


def copas_taken(tricks: tuple[Trick, ...], players: int) -> tuple[int, ...]:
    """How many copas each seat took in *tricks* (COPAS-16)."""
    count = [0] * players
    for t in tricks:
        for c in t.cards:
            # COPAS-3: the copas are the penalty cards.
            if c.suit is _COPAS:
                count[t.winner] += 1
    return tuple(count)


def round_points(
    copas: tuple[int, ...],
    taker: int | None,
    pending: int | None,
    all_cards: AllCards,
    bonus_other_ten: BonusOtherTen,
    bonus_all_cards: BonusAllCards = BonusAllCards.TWENTY,
) -> tuple[tuple[int, ...], int | None]:
    """The points booked to each seat at the end of a round, and the new pending seat.

    :param copas: the copas each seat took this round (they sum to 10; COPAS-V1: to the
        copas dealt).
    :param taker: the seat that took every card (COPAS-19), if one did.
    :param pending: the seat whose bonus round this is (COPAS-17), if any.
    :param bonus_all_cards: the reading for a pending seat that took every trick (COPAS-Q14).

    :pre: 3 <= len(copas) <= 5 and all(c >= 0 for c in copas) and sum(copas) <= 10
    :pre: taker is None or (0 <= taker < len(copas) and copas[taker] == sum(copas))
    :pre: pending is None or 0 <= pending < len(copas)
    :post: len(__return__[0]) == len(copas) and all(b >= 0 for b in __return__[0])
    :post: pending is not None or taker is not None or 10 in copas or __return__[0] == copas
    :post: __return__[1] is None or (__return__[1] != pending and copas[__return__[1]] == 10 and __return__[0][__return__[1]] == 0)
    :post: pending is None or copas[pending] == 0 or __return__[0][pending] >= 10
    """  # noqa: E501 - a contract is one line
    n = len(copas)
    # COPAS-16: one minus point per copa taken.
    points = list(copas)
    if taker is not None and all_cards is not AllCards.BONUS_ONLY:
        # COPAS-19: all the cards: every other seat books 10, the taker nothing.
        points = [0 if s == taker else 10 for s in range(n)]
    new_pending: int | None = None
    ten: int | None = None
    for s in range(n):
        if copas[s] == 10:
            ten = s
    # COPAS-17: all ten copas are not booked; a bonus round follows (not for the pending
    # seat itself, which books 20 by COPAS-18; not for an all-cards taker by default, who
    # books nothing by COPAS-19).
    all_cards_taker = taker == ten and all_cards is AllCards.OTHERS_TEN
    if ten is not None and ten != pending and not all_cards_taker:
        if pending is not None and bonus_other_ten is BonusOtherTen.BOOK:
            points[ten] = 10
        else:
            points[ten] = 0
            new_pending = ten
    # COPAS-18: the pending seat's ten are erased if it took no copas, else booked.
    if pending is not None and copas[pending] > 0:
        points[pending] += 10
        # COPAS-18: having taken every trick, it took all ten again: 20 (by default).
        if taker == pending and bonus_all_cards is BonusAllCards.TWENTY:
            points[pending] = 10 + copas[pending]
    return tuple(points), new_pending


# -- apply ---------------------------------------------------------------------------------------


def _wrong_node(state: State, what: str) -> IllegalActionError:
    if state.phase is _OVER:
        return IllegalActionError("COPAS-20", f"the match is over; no {what}")
    if state.phase is _DEAL:
        # COPAS-6: every round starts with the deal.
        return IllegalActionError("COPAS-6", f"the round must be dealt first; no {what}")
    return IllegalActionError("COPAS-9", f"a seat is to play a card; no {what}")


def apply(state: State, action: Action) -> State:
    """The state after *action*; the round's scoring follows its last card automatically.

    :raises IllegalActionError: naming the broken rule (COPAS-4, COPAS-6, COPAS-9, COPAS-10,
        COPAS-11, COPAS-15, COPAS-20); the state is unchanged.
    :raises MalformedInputError: for a value that is not a Copas state, or an action whose
        fields do not have exactly their types (COPAS-1: a card is a ``Card``; ``True`` is
        not a seat; a list is not a hand).
    :raises InvalidStateError: for a Copas state no legal play can produce.
    """
    if type(state) is not State or getattr(state, CHECKED, None) is not _KEY:
        _CHECKS.enter(state)
    _check_action(action)
    return _CHECKS.built(_apply(state, action))


def _apply(state: State, action: Action) -> State:
    """:func:`apply` for a checked state and an action of exact types."""
    kind = type(action)
    if kind is Play:
        return _play(state, action)  # type: ignore[arg-type]
    if kind is Deal:
        return _deal(state, action)  # type: ignore[arg-type]
    raise _wrong_node(state, f"{kind.__name__} action")


# The input checks of an action: exact types (a state enters through ``_CHECKS.enter``).


def _check_hand(hand: object, what: str) -> None:
    check_tuple(hand, what, _check_card)


def _check_action(action: object) -> None:
    """*action* is a Copas action whose fields have exactly their types: a
    :class:`~copa_ref.copas.state.Play` of an integer seat and a card, or a
    :class:`~copa_ref.copas.state.Deal` of a tuple of tuples of cards.

    :raises MalformedInputError: otherwise.
    """
    if type(action) is Play and type(action.card) is Card and type(action.seat) is int and (
            0 <= action.seat < 5):
        return  # the common case, without the calls below
    check_instance(action, (Play, Deal), "a Copas action")
    if isinstance(action, Play):
        check_int(action.seat, "seat")
        _check_card(action.card, "card")
    else:
        check_tuple(action.hands, "hands", _check_hand)  # type: ignore[attr-defined]


def _deal(state: State, action: Deal) -> State:
    if state.phase is not _DEAL:
        raise _wrong_node(state, "deal")
    n = len(state.hands)
    hands = action.hands
    # COPAS-6: one hand per seat.
    if len(hands) != n:
        msg = f"a deal lists one hand per seat: {n} hands, got {len(hands)}"
        raise IllegalActionError("COPAS-6", msg)
    size = dealt(state.config)
    out = left_out(n)
    seen: set[int] = set()  # card indices: an int hashes in C, an Enum member in Python
    for seat, hand in enumerate(hands):
        for card in hand:
            # COPAS-4: three players play without the two of clubs.
            if card is out:
                msg = "the two of clubs is left out with three players"
                raise IllegalActionError("COPAS-4", msg)
            # COPAS-6: every card dealt exactly once.
            if card.index in seen:
                msg = f"{card} is dealt twice"
                raise IllegalActionError("COPAS-6", msg)
            seen.add(card.index)
        # COPAS-6: everyone gets the same number of cards: 13, 10 or 8 (COPAS-V1: the
        # config's cards_each).
        if len(hand) != size:
            msg = f"seat {seat} is dealt {len(hand)} cards; with {n} players each gets {size}"
            raise IllegalActionError("COPAS-6", msg)
    if len(seen) != size * n:  # pragma: no cover - sizes and uniqueness imply it
        msg = "the deal is not the whole deck"
        raise IllegalActionError("COPAS-6", msg)
    return _state(
        config=state.config,
        phase=_PLAY,
        round=state.round,
        dealer=state.dealer,
        scores=state.scores,
        pending=state.pending,
        hands=tuple(tuple(sorted(hand, key=_index)) for hand in hands),
        leader=first_leader(state.dealer, n),
        trick=(),
        tricks=(),
        last_round=state.last_round,
    )


def _play(state: State, action: Play) -> State:
    if state.phase is not _PLAY:
        raise _wrong_node(state, "card play")
    seat = action.seat
    card = action.card
    hands = state.hands
    n = len(hands)
    trick = state.trick
    leader = state.leader
    # COPAS-9: counter-clockwise, one card each, starting with the leader.
    mover = seat_at(leader, len(trick), n)
    if seat != mover:
        msg = f"seat {seat} played, but it is seat {mover}'s turn"
        raise IllegalActionError("COPAS-9", msg)
    hand = hands[seat]
    # COPAS-10: a card from one's own hand.
    try:
        at = hand.index(card)
    except ValueError:
        msg = f"seat {seat} does not hold {card}"
        raise IllegalActionError("COPAS-10", msg) from None
    config = state.config
    suit = card.suit
    if trick:
        # COPAS-11: follow suit when able (COPAS-12: otherwise any card).
        if suit is not trick[0].suit and card not in legal_cards(hand, trick):
            held = next(c for c in hand if c.suit is trick[0].suit)
            msg = f"seat {seat} holds {held} of the led suit but played {card}"
            raise IllegalActionError("COPAS-11", msg)
    elif (
        suit is _COPAS
        and config.copas_lead is _BROKEN_LEAD
        and not _copas_broken(state.tricks)
    ):
        # COPAS-15 (house rule): copas may not be led before one has been played.
        for c in hand:
            if c.suit is not _COPAS:
                msg = f"seat {seat} led {card} before copas were broken, holding {c}"
                raise IllegalActionError("COPAS-15", msg)
    new_hand = hand[:at] + hand[at + 1:]
    all_hands = list(hands)  # a list, one entry set, a tuple: cheaper than slices
    all_hands[seat] = new_hand
    hands = tuple(all_hands)
    trick += (card,)
    tricks = state.tricks
    if len(trick) == n:
        # COPAS-13: the highest card of the led suit takes the trick and leads the next.
        winner = seat_at(leader, trick_winner(trick, config.rank_order is _PLAIN_ORDER), n)
        tricks = (*tricks, Trick(leader, trick, winner))
        if round_over(new_hand, tricks, config):
            return _end_round(state, hands, tricks, winner)
        leader, trick = winner, ()
    return _state(
        config=config,
        phase=_PLAY,
        round=state.round,
        dealer=state.dealer,
        scores=state.scores,
        pending=state.pending,
        hands=hands,
        leader=leader,
        trick=trick,
        tricks=tricks,
        last_round=state.last_round,
    )


def _all_cards_taker(hands: tuple[tuple[Card, ...], ...], tricks: tuple[Trick, ...]) -> int | None:
    # COPAS-19: one seat won every card (all cards played, every trick its own).
    if any(hands):
        return None
    first = tricks[0].winner
    for t in tricks:
        if t.winner != first:
            return None
    return first


def _end_round(
    state: State, hands: tuple[tuple[Card, ...], ...], tricks: tuple[Trick, ...], winner: int
) -> State:
    config = state.config
    n = len(hands)
    copas = copas_taken(tricks, n)
    booked, pending = round_points(
        copas,
        _all_cards_taker(hands, tricks),
        state.pending,
        config.all_cards,
        config.bonus_other_ten,
        config.bonus_all_cards,
    )
    # COPAS-16: booked points add up; scores never decrease.
    scores = tuple([a + b for a, b in zip(state.scores, booked, strict=True)])
    # COPAS-20: a seat at 51 or more bursts and the match is over.
    if max(scores) >= BURST:
        return _state(
            config=config,
            phase=_OVER,
            round=state.round,
            dealer=state.dealer,
            scores=scores,
            pending=pending,
            hands=hands,
            leader=winner,
            trick=(),
            tricks=tricks,
            last_round=booked,
        )
    dealer = next_dealer(state.dealer, n)
    return _state(
        config=config,
        phase=_DEAL,
        round=state.round + 1,
        dealer=dealer,
        scores=scores,
        pending=pending,
        hands=hands,
        # COPAS-8: the next round's shuffler leads its first trick.
        leader=first_leader(dealer, n),
        trick=(),
        tricks=tricks,
        last_round=booked,
    )


# -- chance, outcome, observation --------------------------------------------------------------


def sample_chance(state: State, rng: random.Random) -> Deal:
    """Shuffle the deck and deal it one card at a time from the dealer's right (COPAS-6).

    :raises IllegalActionError: COPAS-9 (a seat is to play) or COPAS-20 (the match is over)
        when no deal is due (a ``ValueError``).
    :raises MalformedInputError: for a value that is not a Copas state, or an *rng* that is
        not a ``random.Random``.
    """
    _CHECKS.enter(state)
    check_rng(rng)
    if state.phase is not _DEAL:
        raise _wrong_node(state, "deal is due")
    n = len(state.hands)
    cards = shuffled(rng, deck(n))[:n * dealt(state.config)]
    # One card at a time from the dealer's right: the k-th seat from there gets every n-th
    # card from the k-th on (COPAS-V1: the rest of the deck is set aside).
    hands: list[tuple[Card, ...]] = [()] * n
    for k in range(n):
        hands[(state.dealer + 1 + k) % n] = tuple(sorted(cards[k::n], key=_index))
    return Deal(tuple(hands))


def outcome(state: State) -> Outcome | None:
    """Losers and winners once a seat has burst (COPAS-20, COPAS-21), else ``None``.

    :raises MalformedInputError: for a value that is not a Copas state.
    :raises InvalidStateError: for a Copas state no legal play can produce.
    """
    _CHECKS.enter(state)
    if state.phase is not _OVER:
        return None
    scores = state.scores
    n = len(scores)
    # COPAS-21: of the burst seats, the one(s) with the most points lose.
    top = max(scores)
    losers = tuple(Seat(s) for s in range(n) if scores[s] == top)
    rest = [s for s in range(n) if scores[s] != top]
    # COPAS-21: the seat(s) with the fewest points win; nobody if everyone lost.
    low = min((scores[s] for s in rest), default=None)
    winners = tuple(Seat(s) for s in rest if scores[s] == low)
    return Outcome(winners=winners, losers=losers, scores=scores, rule="COPAS-21")


def observe(state: State, seat: int | None = None) -> Observation:
    """What *seat* may know: the public state and its own hand; ``None``: the public view.

    :raises MalformedInputError: for a value that is not a Copas state, or a seat that is not
        at the table.
    """
    _CHECKS.enter(state)
    check_seat(seat, len(state.hands), optional=True)
    hands = state.hands
    return Observation(
        config=state.config,
        seat=seat,
        phase=state.phase,
        round=state.round,
        dealer=state.dealer,
        scores=state.scores,
        pending=state.pending,
        hand=() if seat is None else hands[seat],
        hand_sizes=tuple(len(h) for h in hands),
        leader=state.leader,
        trick=state.trick,
        tricks=state.tricks,
        last_round=state.last_round,
    )


# -- validity of a whole state -------------------------------------------------------------------


def _check_card(card: object, what: str) -> None:
    # COPAS-1: only the 40 cards exist.
    check_instance(card, Card, "a Copas card", what)


def _check_trick(value: object, what: str) -> None:
    check_instance(value, Trick, "a finished trick", what)
    taken = cast(Trick, value)
    check_int(taken.leader, f"{what}.leader")
    check_int(taken.winner, f"{what}.winner")
    check_tuple(taken.cards, f"{what}.cards", _check_card)


def _shape(state: State) -> None:
    """Every field of *state* has its exact type, its size, and integers within the codec's
    63 bits; the config is one a match can be played with (COPAS-4, COPAS-5). A state has
    one form: its hands are kept sorted by card code (specs/copas.md, "State"; P-8)."""
    check_config(state.config)
    n = state.config.players
    if type(state.phase) is not Phase:
        raise MalformedInputError("phase must be a Copas Phase")
    for name in ("round", "dealer", "leader"):
        check_int(getattr(state, name), name)
    if state.pending is not None:
        check_int(state.pending, "pending")
    check_tuple(state.scores, "scores", check_int, n)
    check_tuple(state.last_round, "last_round", check_int)
    if len(state.last_round) not in (0, n):
        raise MalformedInputError(f"last_round has no entry or one per seat ({n})")
    check_tuple(state.hands, "hands", _check_hand, n)
    check_tuple(state.trick, "trick", _check_card)
    check_tuple(state.tricks, "tricks", _check_trick)
    if any(list(h) != sorted(h, key=_index) for h in state.hands):
        raise MalformedInputError("hands are kept sorted by card code (a state has one form)")


def _fresh(state: State) -> bool:
    """A match before its first deal, or resumed at a deal from its scores: no card out."""
    return (state.phase is _DEAL and not state.tricks and not state.trick
            and not any(state.hands))


def _between_rounds(state: State) -> bool:
    """A round has been scored, and its cards are still on the table (deal or over)."""
    return state.phase is not _PLAY and not _fresh(state)


# The rules a state obeys, in the order of specs/copas.md, one check under each sentence.


@rule("COPAS-1")
def _whole_deck(state: State) -> str | None:
    """Every card of the deck exactly once: in a hand, the trick or a taken trick (COPAS-V1:
    every card dealt, at most once, and the rest set aside)."""
    if _fresh(state):
        return None
    hands, trick, tricks = state.hands, state.trick, state.tricks
    cards = [c for h in hands for c in h] + list(trick) + [c for t in tricks for c in t.cards]
    config = state.config
    if config.cards_each is not None:
        if (len(cards) != len(set(cards)) or len(cards) != config.players * config.cards_each
                or not set(cards) <= set(deck(config.players))):
            return "the cards in play are not the deal of the smaller game"
        return None
    if len(cards) != len(set(cards)) or sorted(cards, key=_index) != list(
            deck(config.players)):
        return "the cards in play are not exactly the deck"
    return None


@rule("COPAS-5")
def _first_dealer(state: State) -> str | None:
    """The first round is dealt by the first dealer."""
    if _fresh(state) and state.round == 1 and state.dealer != state.config.first_dealer:
        return "the first round is dealt by the first dealer"
    return None


@rule("COPAS-7")
def _dealers_and_rounds(state: State) -> str | None:
    """The dealer and the leader are seats; rounds count from 1, and a round has been
    played before any round after the first is dealt."""
    seats = range(state.config.players)
    if state.dealer not in seats or state.leader not in seats or state.round < 1:
        return "dealer, leader or round out of range"
    if _between_rounds(state) and state.phase is _DEAL and state.round == 1:
        return "a finished round before round 1"
    return None


@rule("COPAS-8")
def _shuffler_leads(state: State) -> str | None:
    """At a deal, the shuffler (the dealer's right) is to lead the round's first trick."""
    if state.phase is _DEAL and state.leader != (state.dealer + 1) % state.config.players:
        if _fresh(state):
            return "the shuffler (the dealer's right) leads the round"
        if state.tricks:
            return "the next round's first leader is the dealer's right"
    return None


@rule("COPAS-9")
def _one_card_each(state: State) -> str | None:
    """The trick in progress lacks at least one seat's card."""
    if state.phase is _PLAY and len(state.trick) >= state.config.players:
        return "the trick in progress has a card from every seat"
    return None


@rule("COPAS-11")
def _suit_followed(state: State) -> str | None:
    """A seat that discarded held no card of the led suit, then or later."""
    if _fresh(state):
        return None
    n, hands, trick = state.config.players, state.hands, state.trick
    later: list[list[Card]] = [list(h) for h in hands]
    for k in range(len(trick)):
        later[(state.leader + k) % n].append(trick[k])
    for t in reversed(state.tricks):
        if not t.cards:
            continue
        led = t.cards[0].suit
        for k, c in enumerate(t.cards):
            s = (t.leader + k) % n
            if c.suit is not led and any(x.suit is led for x in later[s]):
                return f"seat {s} discarded {c} while holding the led suit"
        for k, c in enumerate(t.cards):
            later[(t.leader + k) % n].append(c)
    if trick:
        led = trick[0].suit
        for k in range(1, len(trick)):
            s = (state.leader + k) % n
            if trick[k].suit is not led and any(x.suit is led for x in hands[s]):
                return f"seat {s} discarded {trick[k]} while holding the led suit"
    return None


@rule("COPAS-13")
def _tricks_taken(state: State) -> str | None:
    """Each taken trick has a card from each seat, led by the last winner (the first by the
    shuffler), and went to the highest card of the led suit."""
    if _fresh(state):
        return None
    n, config = state.config.players, state.config
    round_dealer = (state.dealer - 1) % n if state.phase is _DEAL else state.dealer
    expected = (round_dealer + 1) % n
    plain = config.rank_order is _PLAIN_ORDER
    for t in state.tricks:
        if len(t.cards) != n or t.leader != expected:
            return "a taken trick has a card from each seat, led by the last winner"
        if t.winner != (t.leader + trick_winner(t.cards, plain)) % n:
            return f"trick {[str(c) for c in t.cards]} went to the wrong seat"
        expected = t.winner
    if state.phase is _PLAY and state.leader != expected:
        return "the trick in progress is not led by the last winner"
    return None


@rule("COPAS-14")
def _round_in_progress(state: State) -> str | None:
    """No trick is in progress between rounds; while a round is played, the hands are equal
    at the start of every trick, and (house rule) it stops once all copas are out."""
    n, config, tricks = state.config.players, state.config, state.tricks
    if state.phase is not _PLAY:
        return "a trick in progress between rounds" if state.trick else None
    size = dealt(config) - len(tricks)
    for k in range(n):
        s = (state.leader + k) % n
        if len(state.hands[s]) != size - (1 if k < len(state.trick) else 0):
            return f"seat {s} holds {len(state.hands[s])} cards"
    if config.end_when_copas_out and sum(copas_taken(tricks, n)) == 10:
        return "the round goes on after all copas are out"
    return None


@rule("COPAS-14")
def _round_ended(state: State) -> str | None:
    """A round ends after its last trick: no card left in hand (but under the house rule
    that ends it once all copas are out)."""
    if not _between_rounds(state):
        return None
    n, config, tricks = state.config.players, state.config, state.tricks
    if not tricks:
        return "a round ended without a trick"
    if any(state.hands) and not (
            config.end_when_copas_out and sum(copas_taken(tricks, n)) == 10):
        return "a round ended with cards in hand"
    return None


@rule("COPAS-16")
def _points_booked(state: State) -> str | None:
    """Booked minus points are never negative."""
    if any(s < 0 for s in state.scores) or any(s < 0 for s in state.last_round):
        return "negative minus points"
    return None


def _rounds_scored(state: State) -> int:
    """How many rounds have been scored: those before the round being dealt or played (and
    that round too once the match is over)."""
    return state.round if state.phase is _OVER else state.round - 1


@functools.cache
def _bookings(players: int, all_cards: AllCards, bonus_other_ten: BonusOtherTen,
              bonus_all_cards: BonusAllCards, whole_deck: bool = True
              ) -> frozenset[tuple[tuple[int, ...], int | None, int | None]]:
    """Every ``(booked, pending after, pending before)`` a round can end with: each way of
    sharing the ten copas (COPAS-V1: the copas dealt, 0 to 10) among the seats, with or
    without an all-cards taker (a seat with all of them), in a plain round or the bonus
    round of any seat (COPAS-16 to COPAS-19)."""
    found: set[tuple[tuple[int, ...], int | None, int | None]] = set()

    def shares(left: int, seats: int) -> list[tuple[int, ...]]:
        if seats == 1:
            return [(left,)]
        return [(k, *rest) for k in range(left + 1) for rest in shares(left - k, seats - 1)]

    for copas in (c for total in ((10,) if whole_deck else range(11))
                  for c in shares(total, players)):
        takers = {s for s in range(players) if copas[s] == sum(copas)}
        for taker in {None, *takers}:
            for before in (None, *range(players)):
                booked, after = round_points(copas, taker, before, all_cards,
                                             bonus_other_ten, bonus_all_cards)
                found.add((booked, after, before))
    return frozenset(found)


@rule("COPAS-16")
def _rounds_booked(state: State) -> str | None:
    """Before the first round is scored no point is booked and no ten is pending; once a
    round is scored (between rounds) its booking is recorded; the totals are the points
    booked: after one round, that round's booking; later, at least the last round's. A
    state resumed at a deal from given totals (no card out, no booking recorded) is
    accepted with them."""
    n, scores, booked = state.config.players, state.scores, state.last_round
    scored = _rounds_scored(state)
    if scored == 0:
        if any(scores) or booked or state.pending is not None:
            return "points booked or a ten pending before the first round is scored"
        return None
    if _between_rounds(state) and len(booked) != n:
        return "a round was scored, but its booking is not recorded"
    if booked:
        before = [s - b for s, b in zip(scores, booked, strict=True)]
        if any(b < 0 for b in before):
            return f"totals {list(scores)} are less than the last round's booking"
        if scored == 1 and any(before):
            return f"after one round the totals {list(scores)} are not its booking"
    return None


@rule("COPAS-16")
def _booking(state: State) -> str | None:
    """The last round's booking, and the pending seat it left, are what the rules book for
    some round (COPAS-16 to COPAS-19): between rounds, for the tricks on the table."""
    booked, config = state.last_round, state.config
    n = config.players
    if not booked or (state.pending is not None and state.pending not in range(n)):
        return None  # no booking recorded; a pending seat that is no seat is COPAS-17's
    first = _rounds_scored(state) == 1  # a round 1 is no bonus round
    if _between_rounds(state):
        copas = copas_taken(state.tricks, n)
        taker = _all_cards_taker(state.hands, state.tricks)
        for before in (None,) if first else (None, *range(n)):
            if round_points(copas, taker, before, config.all_cards, config.bonus_other_ten,
                            config.bonus_all_cards) == (booked, state.pending):
                return None
        return f"the round's tricks do not book {list(booked)} (pending {state.pending})"
    for b, after, before in _bookings(n, config.all_cards, config.bonus_other_ten,
                                      config.bonus_all_cards, config.cards_each is None):
        if b == booked and after == state.pending and (before is None or not first):
            return None
    return f"no round books {list(booked)} leaving pending {state.pending}"


@rule("COPAS-17")
def _pending_seat(state: State) -> str | None:
    """The seat whose ten copas await their bonus round is a seat."""
    if state.pending is not None and state.pending not in range(state.config.players):
        return f"pending seat {state.pending} is no seat"
    return None


@rule("COPAS-20")
def _burst_ends(state: State) -> str | None:
    """The match goes on exactly while nobody has burst: it is over exactly when a seat has
    51 or more, and nobody had before the last round was booked."""
    if (state.phase is _OVER) != (max(state.scores) >= BURST):
        return "the match is over exactly when a seat has 51 or more points"
    if state.last_round and max(
            s - b for s, b in zip(state.scores, state.last_round, strict=True)) >= BURST:
        return "a seat had burst before the last round was booked"
    return None


_CHECKS: StateChecks[State] = StateChecks(
    State, "a Copas state", _shape,
    (_whole_deck, _first_dealer, _dealers_and_rounds, _shuffler_leads, _one_card_each,
     _suit_followed, _tricks_taken, _round_in_progress, _round_ended, _points_booked,
     _rounds_booked, _booking, _pending_seat, _burst_ends),
)
_KEY = _CHECKS.key
"""The mark :data:`_CHECKS` writes on a state it checked or the rules built."""
"""Copas' state checks (:class:`~copa_ref.core.entry.StateChecks`): the shape, then each
rule in the order of the spec; the first rule broken is the one named."""


def check_state(state: State) -> None:
    """Raise the precise error for a state no legal play can produce.

    :raises MalformedInputError: for values of the wrong type or shape.
    :raises InvalidStateError: naming the rule the state breaks.
    """
    _CHECKS.check(state)


def well_formed(state: object) -> bool:
    """Whether *state* could arise from legal play (pure, total, never raises)."""
    return _CHECKS.well_formed(state)


# -- text --------------------------------------------------------------------------------------


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def render(state: State) -> str:
    """A readable picture: round, dealer, scores, hands, the trick in progress."""
    n = len(state.hands)
    lines = [
        f"Copas, round {state.round}, dealer seat {state.dealer}, phase {state.phase.value}",
        "scores: " + " ".join(f"{s}:{p}" for s, p in enumerate(state.scores))
        + (f"  (ten pending for seat {state.pending})" if state.pending is not None else ""),
    ]
    for s in range(n):
        lines.append(f"  seat {s}: {_cards(state.hands[s])}")
    if state.phase is _PLAY:
        lines.append(f"trick led by seat {state.leader}: {_cards(state.trick)}")
        lines.append(f"tricks taken: {len(state.tricks)}")
    return "\n".join(lines)


# -- the action space of the adapters ------------------------------------------------------


def action_space(config: Config) -> tuple[Action, ...]:
    """Every card play that can ever be legal under *config*: each seat playing each card
    of the deck (COPAS-4), sorted by canonical JSON text. The integer action space of the
    OpenSpiel and PettingZoo adapters (the deal is a chance action)."""
    from copa_ref.core import canonical_json, make_converter, register_union

    check_config(config)
    converter = make_converter()
    register_union(converter, Action)
    plays: list[Action] = [Play(seat, card) for seat in range(config.players)
                           for card in deck(config.players)]
    return tuple(sorted(plays, key=lambda a: canonical_json(
        converter.unstructure(a, unstructure_as=Action))))


def chance_step(state: State, prefix: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...] | Deal:
    """The deal one card at a time (COPAS-6): given the indices of the cards dealt so far
    (from the dealer's right, round the table), the next card's outcomes (each card left,
    by its index, equally likely), or, with the deck dealt, the :class:`Deal` they make.

    :raises IllegalActionError: as :func:`sample_chance`, when no deal is due.
    :raises ValueError: when *prefix* is no start of a deal.
    """
    _CHECKS.enter(state)
    if state.phase is not _DEAL:
        raise _wrong_node(state, "deal is due")
    n = len(state.hands)
    left = {card.index: card for card in deck(n)}
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i, index in enumerate(prefix):
        if type(index) is not int or index not in left:
            msg = f"{list(prefix)} is no start of a deal"
            raise ValueError(msg)
        hands[(state.dealer + 1 + i) % n].append(left.pop(index))
    if len(prefix) < n * dealt(state.config):
        share = Fraction(1, len(left))
        return tuple((index, share) for index in sorted(left))
    return Deal(tuple(tuple(sorted(h, key=_index)) for h in hands))
