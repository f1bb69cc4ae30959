"""Deliberately broken copies of contracted Kopa functions, with the same contracts.

CrossHair must report a counterexample on each: proof that the CrossHair run on the real
functions is not vacuous.
"""

from __future__ import annotations

from copa_ref.kopa.rules import card_of
from copa_ref.kopa.state import Card


def next_up(top: Card) -> tuple[Card, ...]:
    """KOPA-12, broken: an up-pile may skip a number (the example's Vert 4 on the Vert 1).

    :pre: top.number < 8
    :post: all(c.suit is top.suit and c.number == top.number + 1 <= 7 for c in __return__)
    """
    n = top.number
    return (card_of(top.row, min(n + 2, 7)),) if n < 7 else ()


def eight_ready(up: tuple[Card, ...], down: tuple[Card, ...]) -> bool:
    """KOPA-13, broken: the 8 may be laid once its 7 *or* its 9 is down.

    :post: __return__ == (len(up) > 0 and up[-1].number == 7 and len(down) > 0 and down[-1].number == 9)
    """  # noqa: E501 - a contract is one line
    return (bool(up) and up[-1].number == 7) or (bool(down) and down[-1].number == 9)


def round_changes(hands: tuple[tuple[Card, ...], ...], winner: int,
                  penalties: tuple[int, ...], stock: tuple[Card, ...]) -> tuple[int, ...]:
    """KOPA-20, broken: the winner also scores the two-player stock.

    :pre: 2 <= len(hands) <= 5 and len(penalties) == len(hands) and 0 <= winner < len(hands)
    :pre: all(p >= 0 for p in penalties)
    :post: __return__[winner] == sum(len(h) for h in hands) - len(hands[winner]) - penalties[winner]
    :post: all(__return__[s] == -penalties[s] for s in range(len(hands)) if s != winner)
    """
    gain = len(stock)
    for s in range(len(hands)):
        if s != winner:
            gain += len(hands[s])
    return tuple([(gain if s == winner else 0) - penalties[s] for s in range(len(hands))])
