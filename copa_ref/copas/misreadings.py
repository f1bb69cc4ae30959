"""Common misreadings of the Copas rules that are no ``Config`` option.

Each is the reference with one rule read wrongly (:class:`~copa_ref.core.misreading.Misreading`), as
engine authors have read it: the conformance runner replays them to explain a failure
("your engine plays as if …"), and the kill-matrix test uses them as mutants. Rule IDs refer
to ``specs/copas.md``.
"""

from __future__ import annotations

from copa_ref.copas import rules as _rules
from copa_ref.copas.state import (
    AllCards,
    BonusAllCards,
    BonusOtherTen,
    Card,
    Config,
    Phase,
    State,
)
from copa_ref.core import Misreading, Outcome, Seat

__all__ = ["MISREADINGS"]


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


MISREADINGS: tuple[Misreading, ...] = (
    Misreading(rule="COPAS-2", slug="queen-above-jack",
               description="the queen ranks above the jack (the order of most decks), not "
               "below it as printed", replacements={"strength": _queen_above_jack}),
    Misreading(rule="COPAS-4", slug="three-players-keep-two-of-clubs",
               description="with three players the two of clubs stays in the deck",
               replacements={"_deal": _keeps_two_of_clubs}),
    Misreading(rule="COPAS-5", slug="first-dealer-always-seat-0",
               description="the first round is always dealt by seat 0, whatever first_dealer "
               "says", replacements={"new_game": _first_dealer_ignored}),
    Misreading(rule="COPAS-8", slug="dealer-leads",
               description="the dealer leads the first trick, not the shuffler to his right",
               replacements={"first_leader": _dealer_leads}),
    Misreading(rule="COPAS-9", slug="clockwise",
               description="play runs clockwise (seat - 1), not counter-clockwise",
               replacements={"seat_at": _clockwise}),
    Misreading(rule="COPAS-13", slug="discard-can-win",
               description="the highest card of any suit takes the trick",
               replacements={"trick_winner": _discard_can_win}),
    Misreading(rule="COPAS-17", slug="ten-copas-booked",
               description="all ten copas are booked like any others: no bonus round",
               replacements={"round_points": _no_bonus_round}),
    Misreading(rule="COPAS-19", slug="no-all-cards-rule",
               description="a seat taking every trick books its copas like any other round",
               replacements={"round_points": _no_all_cards}),
    Misreading(rule="COPAS-20", slug="burst-at-30",
               description="the match ends when a seat reaches 30 minus points",
               replacements={"BURST": 30}),
    Misreading(rule="COPAS-20", slug="burst-at-50",
               description="a seat bursts at 50 minus points, not 51",
               replacements={"BURST": 50}),
    Misreading(rule="COPAS-21", slug="every-burst-seat-loses",
               description="every seat at or over the limit loses, not only the highest",
               replacements={"outcome": _every_burst_seat_loses}),
)
"""Common misreadings of the Copas rules (not ``Config`` options), each tagged with its rule."""
