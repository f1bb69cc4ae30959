"""Deliberately wrong copies of contracted HOPPER functions, with the same contracts.

The CrossHair test runs on these and must report a counterexample for each: proof that the
checks of the real functions are not vacuous. Never imported by the library.
"""

from __future__ import annotations


def drop_bean_losing_the_foursome(tray: tuple[tuple[int, int], ...], cup: int | None,
                                  loose: int) -> tuple[tuple[tuple[int, int], ...], int, bool]:
    """Like ``copa_ref.hopper.rules.drop_bean``, but a foursome's fourth bean vanishes.

    :pre: len(tray) <= 17 and all(0 <= b <= 3 for _, b in tray) and loose >= 0
    :post: sum(b for _, b in __return__[0]) + __return__[1] == sum(b for _, b in tray) + loose + 1
    :post: all(0 <= b <= 3 for _, b in __return__[0])
    """
    if cup is None:
        return tray, loose + 1, False
    cups = list(tray)
    for i, (name, beans) in enumerate(cups):
        if name == cup:
            if beans == 3:
                cups[i] = (name, 0)
                return tuple(cups), loose + beans, True  # the planted bug: one bean lost
            cups[i] = (name, beans + 1)
            return tuple(cups), loose, False
    return tray, loose + 1, False


def replenish_taking_one(hand: int, loose: int) -> tuple[int, int]:
    """Like ``copa_ref.hopper.rules.replenish``, but only one loose bean is taken.

    :pre: hand >= 0 and loose >= 0
    :post: __return__[0] + __return__[1] == hand + loose
    :post: __return__ == ((loose, 0) if hand == 0 else (hand, loose))
    """
    if hand == 0 and loose > 0:
        return 1, loose - 1  # the planted bug: not all the loose beans
    return hand, loose


def next_turn_without_skipping(hands: tuple[int, ...], loose: int, seat: int) -> int:
    """Like ``copa_ref.hopper.rules.next_turn``, but an empty-handed seat is never skipped.

    :pre: 2 <= len(hands) <= 5 and 0 <= seat < len(hands) and all(h >= 0 for h in hands)
    :post: 0 <= __return__ < len(hands)
    :post: implies(any(h > 0 for h in hands) or loose > 0, hands[__return__] > 0 or loose > 0)
    """
    return (seat + 1) % len(hands)  # the planted bug: no skip
