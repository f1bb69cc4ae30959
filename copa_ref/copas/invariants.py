"""Copas step invariants, each named after the rule it guards.

Each is ``(before, action, after) -> None`` and raises
:class:`~copa_ref.core.errors.InvariantViolation` naming its rule when an implementation (ours, or a
foreign engine's reported states) breaks it. They recompute what they check from the
transition itself, independently of :mod:`copa_ref.copas.rules`.
"""

from __future__ import annotations

from collections.abc import Callable

from copa_ref.copas.state import (
    Action,
    AllCards,
    BonusAllCards,
    Card,
    Deal,
    Phase,
    Play,
    RankOrder,
    State,
    Suit,
)
from copa_ref.core import require

__all__ = [
    "STEP_INVARIANTS",
    "inv_all_cards",
    "inv_bonus_round",
    "inv_card_conservation",
    "inv_dealer_rotation",
    "inv_equal_hands",
    "inv_first_lead",
    "inv_follow_suit",
    "inv_match_end",
    "inv_pending_books_nothing",
    "inv_round_scores",
    "inv_scores_never_decrease",
    "inv_trick_winner",
    "inv_turn_order",
]

_ORDER = "23456QJK7A"
_PLAIN = "234567JQKA"


def _all_cards(state: State) -> list[Card]:
    return (
        [c for h in state.hands for c in h]
        + list(state.trick)
        + [c for t in state.tricks for c in t.cards]
    )


def _deck(players: int) -> set[Card]:
    return {c for c in Card if not (players == 3 and c.value == "2p")}


def _round_ended(before: State, after: State) -> bool:
    return before.phase is Phase.PLAY and after.phase is not Phase.PLAY


def _copas(state: State) -> list[int]:
    count = [0] * state.config.players
    for t in state.tricks:
        count[t.winner] += sum(1 for c in t.cards if c.suit is Suit.COPAS)
    return count


def _taker(after: State) -> int | None:
    if any(after.hands):
        return None
    winners = {t.winner for t in after.tricks}
    return winners.pop() if len(winners) == 1 else None


def _booked(before: State, after: State) -> list[int]:
    return [a - b for a, b in zip(after.scores, before.scores, strict=True)]


def inv_card_conservation(before: State, action: Action, after: State) -> None:
    """COPAS-1: every card of the deck exactly once across hands, the trick and taken tricks."""
    if after.phase is Phase.DEAL and not after.tricks and not any(after.hands):
        return
    cards = _all_cards(after)
    require(len(cards) == len(set(cards)), "COPAS-1", "a card is in two places")
    config = after.config
    if config.cards_each is None:
        require(set(cards) == _deck(config.players), "COPAS-1", "cards lost or invented")
        return
    # COPAS-V1: the cards dealt, and no other card, stay in play; the rest are set aside.
    require(len(cards) == config.players * config.cards_each
            and set(cards) <= _deck(config.players), "COPAS-1", "cards lost or invented")
    if not isinstance(action, Deal):
        require(set(cards) == set(_all_cards(before)), "COPAS-1", "cards lost or invented")


def inv_turn_order(before: State, action: Action, after: State) -> None:
    """COPAS-9: the seat that played was the one after the last card of the trick."""
    if isinstance(action, Play):
        n = before.config.players
        require(
            action.seat == (before.leader + len(before.trick)) % n,
            "COPAS-9",
            f"seat {action.seat} played out of turn",
        )
        require(action.card in before.hands[action.seat], "COPAS-10", "card not held")


def inv_follow_suit(before: State, action: Action, after: State) -> None:
    """COPAS-11: a seat that did not follow suit held no card of the led suit at that moment."""
    if isinstance(action, Play) and before.trick:
        led = before.trick[0].suit
        if action.card.suit is not led:
            require(
                all(c.suit is not led for c in before.hands[action.seat]),
                "COPAS-11",
                f"seat {action.seat} revoked: played {action.card} holding {led.value}",
            )


def inv_trick_winner(before: State, action: Action, after: State) -> None:
    """COPAS-13: a finished trick goes to the highest card of the led suit, who leads next."""
    if not isinstance(action, Play) or len(before.trick) + 1 < before.config.players:
        return
    n = before.config.players
    order = _PLAIN if after.config.rank_order is RankOrder.PLAIN else _ORDER
    cards = (*before.trick, action.card)
    led = cards[0].suit
    best = max(
        (k for k in range(n) if cards[k].suit is led),
        key=lambda k: order.index(cards[k].value[0]),
    )
    winner = (before.leader + best) % n
    last = after.tricks[-1]
    require(last.cards == cards, "COPAS-13", "the finished trick is not the cards played")
    require(last.winner == winner, "COPAS-13", f"trick went to {last.winner}, not {winner}")
    if after.phase is Phase.PLAY:
        require(after.leader == winner, "COPAS-13", "the trick's winner does not lead next")


def inv_equal_hands(before: State, action: Action, after: State) -> None:
    """COPAS-14: at the start of every trick all hands have the same size."""
    if after.phase is Phase.PLAY and not after.trick:
        sizes = {len(h) for h in after.hands}
        require(len(sizes) == 1, "COPAS-14", f"unequal hands at a trick's start: {sizes}")


def inv_first_lead(before: State, action: Action, after: State) -> None:
    """COPAS-8: after a deal, the shuffler (the dealer's right) leads."""
    if isinstance(action, Deal):
        n = after.config.players
        require(after.leader == (after.dealer + 1) % n, "COPAS-8", "wrong first leader")
        size = {3: 13, 4: 10, 5: 8}[n] if after.config.cards_each is None else (
            after.config.cards_each)
        require(all(len(h) == size for h in after.hands), "COPAS-6", "unequal deal")


def inv_scores_never_decrease(before: State, action: Action, after: State) -> None:
    """COPAS-16: booked minus points never decrease; they change only at a round's end."""
    booked = _booked(before, after)
    require(all(b >= 0 for b in booked), "COPAS-16", f"scores decreased: {booked}")
    if not _round_ended(before, after):
        require(not any(booked), "COPAS-16", "points booked in the middle of a round")


def inv_round_scores(before: State, action: Action, after: State) -> None:
    """COPAS-16: a plain round books each seat its copas, 10 in all (COPAS-V1: the copas
    dealt)."""
    if not _round_ended(before, after):
        return
    booked = _booked(before, after)
    require(list(after.last_round) == booked, "COPAS-16", "last_round is not what was booked")
    copas = _copas(after)
    dealt = 10 if after.config.cards_each is None else sum(
        1 for c in _all_cards(after) if c.suit is Suit.COPAS)
    require(sum(copas) == dealt, "COPAS-16", f"{sum(copas)} copas taken in a round")
    if before.pending is None and _taker(after) is None and 10 not in copas:
        require(booked == copas, "COPAS-16", f"booked {booked} for copas {copas}")
        require(sum(booked) == dealt, "COPAS-16", f"a round booked {sum(booked)} points")


def inv_pending_books_nothing(before: State, action: Action, after: State) -> None:
    """COPAS-17: the seat that took all ten copas is not booked them; a bonus round follows.

    Under the default readings a round that creates a pending ten books nothing to anyone,
    so nobody can burst while a ten is pending (COPAS-Q9).
    """
    if not _round_ended(before, after):
        return
    copas = _copas(after)
    p = after.pending
    if p is None:
        return
    require(copas[p] == 10 and p != before.pending, "COPAS-17", "pending without ten copas")
    booked = _booked(before, after)
    require(booked[p] == 0, "COPAS-17", f"seat {p} was booked its pending ten")
    if after.config.all_cards is not AllCards.OTHERS_TEN_AND_BONUS:
        require(not any(booked), "COPAS-17", f"a round creating a pending ten booked {booked}")


def inv_bonus_round(before: State, action: Action, after: State) -> None:
    """COPAS-18: in the bonus round the pending ten are erased (no copas) or booked (10 + …)."""
    if not _round_ended(before, after) or before.pending is None:
        return
    p = before.pending
    copas = _copas(after)
    booked = _booked(before, after)
    taker = _taker(after)
    others_ten = after.config.all_cards is not AllCards.BONUS_ONLY
    if taker is None or not others_ten:
        if copas[p] == 0:
            require(booked[p] == 0, "COPAS-18", "the pending ten were not erased")
        else:
            require(booked[p] == 10 + copas[p], "COPAS-18", f"seat {p} booked {booked[p]}")
    else:
        twenty = after.config.bonus_all_cards is BonusAllCards.TWENTY
        if taker != p:
            # COPAS-19: another seat took every card, the pending seat none: it books 10
            expected = 10
        elif not copas[p]:
            # COPAS-V1: no copa dealt, none taken: the pending ten are erased
            expected = 0
        else:
            # COPAS-Q14: taking every trick of its bonus round, it took every copa dealt
            # again: the pending 10 and those (20 with the whole deck), or 10 only
            expected = 10 + copas[p] if twenty else 10
        require(booked[p] == expected, "COPAS-18", f"seat {p} booked {booked[p]}")


def inv_all_cards(before: State, action: Action, after: State) -> None:
    """COPAS-19: when one seat took every card, every other seat books 10 (default reading)."""
    if not _round_ended(before, after):
        return
    taker = _taker(after)
    if taker is None or after.config.all_cards is AllCards.BONUS_ONLY:
        return
    booked = _booked(before, after)
    for s in range(after.config.players):
        if s != taker:
            require(booked[s] >= 10, "COPAS-19", f"seat {s} booked {booked[s]}, not 10")
            if s != before.pending:
                require(booked[s] == 10, "COPAS-19", f"seat {s} booked {booked[s]}, not 10")


def inv_match_end(before: State, action: Action, after: State) -> None:
    """COPAS-20: the match ends exactly after a round in which some seat reached 51."""
    if _round_ended(before, after):
        burst = max(after.scores) >= 51
        require((after.phase is Phase.OVER) == burst, "COPAS-20", "match end at the wrong time")
    else:
        require(after.phase is not Phase.OVER, "COPAS-20", "match ended in a round")


def inv_dealer_rotation(before: State, action: Action, after: State) -> None:
    """COPAS-7: after a round the dealer's right deals the next one."""
    n = after.config.players
    if _round_ended(before, after) and after.phase is Phase.DEAL:
        require(after.dealer == (before.dealer + 1) % n, "COPAS-7", "dealer did not rotate")
        require(after.round == before.round + 1, "COPAS-7", "round number did not advance")
    elif not _round_ended(before, after):
        require(after.dealer == before.dealer, "COPAS-7", "dealer changed within a round")


STEP_INVARIANTS: tuple[Callable[[State, Action, State], None], ...] = (
    inv_card_conservation,
    inv_turn_order,
    inv_follow_suit,
    inv_trick_winner,
    inv_equal_hands,
    inv_first_lead,
    inv_scores_never_decrease,
    inv_round_scores,
    inv_pending_books_nothing,
    inv_bonus_round,
    inv_all_cards,
    inv_match_end,
    inv_dealer_rotation,
)
"""Every step invariant, in rule order."""
