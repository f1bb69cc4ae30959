"""The code of Copas's misreadings: the functions a misread copy of
:mod:`copa_ref.copas.rules` is given in place of the reference's.

Each misreading (the reference with one rule read wrongly, as engine authors have read it)
is declared with its rule in ``rules.py``, which builds the catalogue: the runner replays
them to explain a failure ("your engine plays as if …"), the kill-matrix test uses them as
mutants. What stays here is what those declarations refer to, and the kill matrix's lists
by mutant and case (:data:`UNNAMED`, :data:`RARE`). Rule IDs refer to ``specs/copas.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from copa_ref.conformance.vocabulary import Rare
from copa_ref.copas import rules as _rules
from copa_ref.copas.state import (
    AllCards,
    BonusAllCards,
    BonusOtherTen,
    Card,
    Config,
    Phase,
    Play,
    State,
    Suit,
    Trick,
)
from copa_ref.core import IllegalActionError, Outcome, Seat

__all__ = ["RARE", "UNNAMED"]


def _queen_above_jack(card: Card, plain: bool) -> int:
    strength = _rules.strength(card, plain)
    if not plain and card.rank in (5, 6):  # Q and J of the printed order swap places
        return 11 - strength
    return strength


def _discard_can_win(trick: tuple[Card, ...], plain: bool) -> int:
    return max(range(len(trick)), key=lambda i: (_rules.strength(trick[i], plain), -i))


def _clockwise(leader: int, k: int, players: int) -> int:
    return (leader - k) % players


def _dealer_leads(dealer: int, players: int) -> int:
    return dealer


def _no_all_cards(copas: tuple[int, ...], taker: int | None, pending: int | None,
                  all_cards: AllCards, bonus_other_ten: BonusOtherTen,
                  *options: BonusAllCards) -> tuple[tuple[int, ...], int | None]:
    return _rules.round_points(copas, None, pending, all_cards, bonus_other_ten, *options)


def _no_bonus_round(copas: tuple[int, ...], taker: int | None, pending: int | None,
                    all_cards: AllCards, bonus_other_ten: BonusOtherTen,
                    *options: BonusAllCards) -> tuple[tuple[int, ...], int | None]:
    points, new_pending = _rules.round_points(copas, taker, pending, all_cards,
                                              bonus_other_ten, *options)
    if new_pending is None:
        return points, None
    booked = list(points)
    booked[new_pending] = 10
    return tuple(booked), None


def _every_burst_seat_loses(state: State) -> Outcome | None:
    result = _rules.outcome(state)
    if result is None:
        return None
    scores = state.scores
    losers = tuple(Seat(s) for s in range(len(scores)) if scores[s] >= _rules.BURST)
    rest = [s for s in range(len(scores)) if scores[s] < _rules.BURST]
    low = min((scores[s] for s in rest), default=None)
    winners = tuple(Seat(s) for s in rest if scores[s] == low)
    return Outcome(winners=winners, losers=losers, scores=scores, rule=result.rule)


def _first_dealer_ignored(config: Config | None = None) -> State:
    state = _rules.new_game(config)
    n = len(state.hands)
    return State(config=state.config, phase=Phase.DEAL, round=1, dealer=0,
                 scores=state.scores, pending=None, hands=state.hands,
                 leader=_rules.first_leader(0, n), trick=(), tricks=(), last_round=())


def _keeps_two_of_clubs(state: State, action: object) -> State:
    """A three-player deal may hold the two of clubs (some other card is then left out)."""
    from copa_ref.copas.state import Deal

    assert isinstance(action, Deal)
    n = len(state.hands)
    cards = [c for hand in action.hands for c in hand] if isinstance(action.hands, tuple) else []
    if n != 3 or Card.C2p not in cards:
        return _rules._deal(state, action)
    missing = next((c for c in _rules.deck(3) if c not in cards), None)
    if missing is None:
        return _rules._deal(state, action)
    swapped = tuple(tuple(missing if c is Card.C2p else c for c in hand)
                    for hand in action.hands)
    dealt = _rules._deal(state, Deal(swapped))
    hands = tuple(tuple(sorted((Card.C2p if c is missing else c for c in hand),
                               key=lambda c: c.index)) for hand in dealt.hands)
    return State(config=dealt.config, phase=dealt.phase, round=dealt.round,
                 dealer=dealt.dealer, scores=dealt.scores, pending=dealt.pending, hands=hands,
                 leader=dealt.leader, trick=dealt.trick, tricks=dealt.tricks,
                 last_round=dealt.last_round)


# -- The kill matrix's further mutants ------------------------------------------------------

Points = tuple[tuple[int, ...], int | None]


def _accepting_deal(rule: str) -> Callable[[State, Any], State]:
    """A ``_deal`` that deals whatever it is given where the reference refuses under *rule*."""

    def _deal(state: State, action: Any) -> State:
        try:
            return _rules._deal(state, action)
        except IllegalActionError as exc:
            if exc.rule != rule:
                raise
        hands = action.hands
        return State(config=state.config, phase=Phase.PLAY, round=state.round,
                     dealer=state.dealer, scores=state.scores, pending=state.pending,
                     hands=tuple(tuple(sorted(h, key=lambda c: c.index)) for h in hands),
                     leader=_rules.first_leader(state.dealer, len(state.hands)), trick=(),
                     tricks=(), last_round=state.last_round)
    return _deal


def _play_any_card(state: State, action: Play) -> State:
    """A card the seat does not hold is played all the same (it is put into its hand)."""
    hands = state.hands
    seat, card = action.seat, action.card
    if (state.phase is Phase.PLAY and type(seat) is int and 0 <= seat < len(hands)
            and type(card) is Card and card not in hands[seat]):
        hand = tuple(sorted((*hands[seat], card), key=lambda c: c.index))
        hands = (*hands[:seat], hand, *hands[seat + 1:])
        state = State(config=state.config, phase=state.phase, round=state.round,
                      dealer=state.dealer, scores=state.scores, pending=state.pending,
                      hands=hands, leader=state.leader, trick=state.trick,
                      tricks=state.tricks, last_round=state.last_round)
    return _rules._play(state, action)


def _plain_keeps_queen_below_jack(card: Card, plain: bool) -> int:
    strength = _rules.strength(card, plain)
    if plain and card.value[0] in "QJ":  # plain order ...7 J Q K...: swap J and Q back
        return 13 - strength
    return strength


def _two_of_ouros_left_out(players: int) -> Card | None:
    return Card.C2o if players == 3 else None


def _revoke(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> tuple[Card, ...]:
    return hand


def _void_discards_copa(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> tuple[Card, ...]:
    legal = _rules.legal_cards(hand, trick)
    if not trick or any(c.suit is trick[0].suit for c in hand):
        return legal
    copas = tuple(c for c in hand if c.suit is Suit.COPAS)
    return copas or legal


def _dealer_rotates_left(dealer: int, players: int) -> int:
    return (dealer - 1) % players


def _ends_when_copas_out(hand: tuple[Card, ...], tricks: tuple[Trick, ...],
                         config: Config) -> bool:
    return not hand or sum(_rules.copas_taken(tricks, config.players)) == 10


def _house_end_ignored(hand: tuple[Card, ...], tricks: tuple[Trick, ...],
                       config: Config) -> bool:
    return not hand


def _house_lead_ignored(state: State, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    return hand


def _copas_lead_broken(state: State, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    if _rules._copas_broken(state.tricks):
        return hand
    others = tuple(c for c in hand if c.suit is not Suit.COPAS)
    return others or hand


def _copas_to_leader(tricks: tuple[Trick, ...], players: int) -> tuple[int, ...]:
    count = [0] * players
    for t in tricks:
        count[t.leader] += sum(c.suit is Suit.COPAS for c in t.cards)
    return tuple(count)


def _points(adjust: Callable[..., Any]) -> Callable[..., Points]:
    """A ``round_points`` whose result *adjust* changes: ``adjust(copas, taker, pending,
    all_cards, bonus_other_ten, points, new_pending)``."""

    def round_points(copas: tuple[int, ...], taker: int | None, pending: int | None,
                     all_cards: AllCards, bonus_other_ten: BonusOtherTen,
                     *options: Any) -> Points:
        points, new_pending = _rules.round_points(copas, taker, pending, all_cards,
                                                  bonus_other_ten, *options)
        result: Points = adjust(copas, taker, pending, all_cards, bonus_other_ten,
                                list(points), new_pending, *options)
        return result
    return round_points


def _other_ten_booked(copas: Any, taker: Any, pending: Any, all_cards: Any, other: Any,
        points: Any, new: Any, *options: Any) -> Any:
    # A different seat's ten in a bonus round are booked, whatever bonus_other_ten says.
    if pending is not None and new is not None:
        points[new] = 10
        new = None
    return tuple(points), new


def _other_ten_new_bonus(copas: Any, taker: Any, pending: Any, all_cards: Any, other: Any,
        points: Any, new: Any, *options: Any) -> Any:
    # A different seat's ten in a bonus round always give it a bonus round of its own.
    if pending is not None and other is BonusOtherTen.BOOK:
        return _rules.round_points(copas, taker, pending, all_cards, BonusOtherTen.NEW_BONUS,
                                   *options)
    return tuple(points), new


def _pending_books_only_its_copas(copas: Any, taker: Any, pending: Any, all_cards: Any, other: Any,
        points: Any, new: Any, *options: Any) -> Any:
    if pending is not None and copas[pending] > 0:
        points[pending] -= 10
    return tuple(points), new


def _pending_never_erased(copas: Any, taker: Any, pending: Any, all_cards: Any, other: Any,
        points: Any, new: Any, *options: Any) -> Any:
    if pending is not None and copas[pending] == 0 and taker is None:
        points[pending] += 10
    return tuple(points), new


def _pending_ten_again_new_bonus(copas: Any, taker: Any, pending: Any, all_cards: Any, other: Any,
        points: Any, new: Any, *options: Any) -> Any:
    if pending is not None and copas[pending] == 10 and taker is None:
        points[pending] = 0
        new = pending
    return tuple(points), new


def _tied_burst_first_seat_loses(state: State) -> Outcome | None:
    result = _rules.outcome(state)
    if result is None or len(result.losers) < 2:
        return result
    loser = result.losers[0]
    scores = state.scores
    rest = [s for s in range(len(scores)) if s != loser]
    low = min(scores[s] for s in rest)
    return Outcome(winners=tuple(Seat(s) for s in rest if scores[s] == low),
                   losers=(loser,), scores=scores, rule=result.rule)


def _queen_of_spades_counts(tricks: tuple[Trick, ...], players: int) -> tuple[int, ...]:
    """COPAS-3 misread: the queen of espadas is a penalty card too (one point more)."""
    count = list(_rules.copas_taken(tricks, players))
    for t in tricks:
        if Card.CQe in t.cards:
            count[t.winner] += 1
    return tuple(count)


def _bonus_round_keeps_dealer(state: State, hands: tuple[tuple[Card, ...], ...],
                              tricks: tuple[Trick, ...], winner: int) -> State:
    """COPAS-7 misread: after a bonus round the same dealer deals again."""
    after = _rules._end_round(state, hands, tricks, winner)
    if state.pending is None or after.phase is not Phase.DEAL:
        return after
    return attrs.evolve(after, dealer=state.dealer,
                        leader=_rules.first_leader(state.dealer, len(hands)))


# -- The rule book's misreadings ------------------------------------------------------------


def _ten_booked(copas, taker, pending, *readings):  # type: ignore[no-untyped-def]
    """COPAS-17 misread: all ten copas are booked like any others; no bonus round."""
    return tuple(copas), None


def _no_all_cards_taker(hands, tricks):  # type: ignore[no-untyped-def]
    """COPAS-19 misread: taking every trick is no special case."""
    return None


# -- The kill matrix's lists by mutant -----------------------------------------------------

UNNAMED: dict[str, str] = {
    "queen-of-espadas-counts copas/trace/all-tricks-bonus-reading":
        "one seat takes every trick under all_cards=others_ten_and_bonus: with the queen of "
        "espadas counted it holds 11 penalty cards, not all ten copas, so no bonus round "
        "follows; the reports are exactly those of the reference under all_cards=others_ten "
        "(COPAS-Q6), an explanation by another reading of COPAS-19 that replays every report, "
        "and nothing in the case tells the two apart",
}
"""The failing cases of a mutant that cannot name its rule (``"<slug> <case id>"``, or a
slug for all of a mutant's), and why."""


RARE: tuple[Rare, ...] = (
    Rare("clockwise", (("players", 5), ("copas_lead", "broken"))),
    Rare("dealer-leads", (("players", 3), ("bonus_other_ten", "book"))),
    Rare("discard-can-win", (("players", 5), ("end_when_copas_out", True))),
)
"""The mutants (``mutants`` of ``rules.CATALOGUE``) that act only in a rare
situation (a combination of player count and options the corpus never plays): what an
exploration must find beyond the corpus."""
