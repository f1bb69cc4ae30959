"""Common misreadings of HOPPER that are not ``Config`` options.

Each :class:`~copa_ref.core.misreading.Misreading` replaces a rule function in a private copy of
:mod:`copa_ref.hopper.rules` (see :mod:`copa_ref.core.misreading`); the conformance runner
replays them to explain a failure ("your engine plays as if …").
"""

from __future__ import annotations

from copa_ref.core import Misreading
from copa_ref.hopper import rules
from copa_ref.hopper.state import BLACK, Claim, Config, Ending, TrayCup

__all__ = [
    "MISREADINGS",
    "black_joins_at_four",
    "close_up_moving_the_last_cup",
    "counter_clockwise",
    "drop_bean_claimed_beans_to_box",
    "last_cup_bonus_added",
    "replenish_one_bean",
    "replenish_while_holding",
]


def drop_bean_claimed_beans_to_box(tray: tuple[TrayCup, ...], cup: int | None, loose: int
                                   ) -> tuple[tuple[TrayCup, ...], int, bool]:
    """HOPPER-19 misread: a claimed cup's four beans leave the game (into the box)."""
    tray, loose, claimed = rules.drop_bean(tray, cup, loose)
    return tray, loose - 4 if claimed else loose, claimed


def replenish_one_bean(hand: int, loose: int) -> tuple[int, int]:
    """HOPPER-10 misread: an empty-handed shooter takes one loose bean, not all of them."""
    if hand == 0 and loose > 0:
        return 1, loose - 1
    return hand, loose


def replenish_while_holding(hand: int, loose: int) -> tuple[int, int]:
    """HOPPER-10 misread: every shooter takes up the loose beans, empty-handed or not."""
    return hand + loose, 0


def counter_clockwise(hands: tuple[int, ...], loose: int, seat: int) -> int:
    """HOPPER-4 misread: the turn passes to ``seat - 1`` (skipping as HOPPER-11 says)."""
    n = len(hands)
    for step in range(1, n + 1):
        candidate = (seat - step) % n
        if hands[candidate] > 0 or loose > 0:
            return candidate
    return seat


def close_up_moving_the_last_cup(tray: tuple[TrayCup, ...], cup: int) -> tuple[TrayCup, ...]:
    """HOPPER-9 misread: the gap is filled by moving the tray's last cup into it."""
    cups = list(tray)
    for i, (name, _) in enumerate(cups):
        if name == cup:
            last = cups.pop()
            if i < len(cups):
                cups[i] = last
            return tuple(cups)
    return tray


def black_joins_at_four(config: Config, tray: tuple[TrayCup, ...], claims: tuple[Claim, ...]
                        ) -> tuple[TrayCup, ...]:
    """HOPPER-14 misread: the black cup joins when 4 cups are left, not 3."""
    if config.ending is Ending.END_2 and len(tray) == 4 and len(tray) + len(claims) == 16:
        return (*tray, (BLACK, 0))
    return tray


def last_cup_bonus_added(claims: tuple[Claim, ...], players: int, finished: bool
                         ) -> tuple[int, ...]:
    """HOPPER-16 misread: the last cup's 3 points come on top of its value."""
    scores = list(rules.points(claims, players, finished))
    if finished and claims:
        seat, cup = claims[-1]
        scores[seat] += rules.cup_value(cup)
    return tuple(scores)


MISREADINGS: tuple[Misreading, ...] = (
    Misreading(rule="HOPPER-19", slug="claimed-beans-to-box",
               description="a claimed cup's four beans are taken out of the game instead of "
                           "being put back into play as loose beans",
               replacements={"drop_bean": drop_bean_claimed_beans_to_box}),
    Misreading(rule="HOPPER-10", slug="replenish-one-bean",
               description="a player who runs out takes one loose bean, not all of them",
               replacements={"replenish": replenish_one_bean}),
    Misreading(rule="HOPPER-10", slug="replenish-while-holding",
               description="every shooter takes up the loose beans, even with beans in hand",
               replacements={"replenish": replenish_while_holding}),
    Misreading(rule="HOPPER-4", slug="counter-clockwise",
               description="the turn passes to the right (seat - 1) instead of clockwise",
               replacements={"next_turn": counter_clockwise}),
    Misreading(rule="HOPPER-9", slug="close-up-moving-last-cup",
               description="the gap of a claimed cup is filled by moving the last cup into it "
                           "instead of shifting the others closer",
               replacements={"close_up": close_up_moving_the_last_cup}),
    Misreading(rule="HOPPER-14", slug="black-cup-at-four",
               description="the black cup joins when four cups are left, not three",
               replacements={"black_joins": black_joins_at_four}),
    Misreading(rule="HOPPER-16", slug="last-cup-bonus-added",
               description="the last cup scores 3 on top of its value instead of 3 in all",
               replacements={"points": last_cup_bonus_added}),
)
"""HOPPER's common misreadings, each naming the rule it misreads."""
