"""Deliberately broken copies of contracted Copas functions, with the same contracts.

CrossHair must report a counterexample on each: proof that the CrossHair run on the real
functions is not vacuous.
"""

from __future__ import annotations

from copa_ref.copas.rules import strength
from copa_ref.copas.state import Card


def trick_winner(trick: tuple[Card, ...], plain: bool) -> int:
    """COPAS-13, broken: the highest card wins whatever its suit (discards can win).

    :pre: 1 <= len(trick) <= 4
    :post: trick[__return__].suit is trick[0].suit
    :post: all(c.suit is not trick[0].suit or strength(c, plain) <= strength(trick[__return__], plain) for c in trick)
    """  # noqa: E501 - a contract is one line
    best = 0
    for i in range(1, len(trick)):
        if strength(trick[i], plain) > strength(trick[best], plain):
            best = i
    return best


def legal_cards(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> tuple[Card, ...]:
    """COPAS-11, broken: a seat may discard although it holds the led suit.

    :pre: len(hand) <= 3 and len(trick) <= 2
    :post: all(card in hand for card in __return__)
    :post: len(__return__) > 0 or len(hand) == 0
    :post: not trick or all(c.suit is trick[0].suit for c in __return__) or not any(c.suit is trick[0].suit for c in hand)
    """  # noqa: E501 - a contract is one line
    return hand
