"""Common misreadings of the Kopa rules that are not ``Config`` options.

Each :class:`~copa_ref.core.misreading.Misreading` is tagged with the rule it misreads; the
conformance runner replays a failing case under each of them to explain the failure ("your
engine plays as if ..."). See :mod:`copa_ref.core.misreading`. Several are the worked
example's own habits (KOPA-Q7).
"""

from __future__ import annotations

from copa_ref.core.misreading import Misreading
from copa_ref.kopa.state import Card

__all__ = ["MISREADINGS"]


def _any_start(pile: int) -> tuple[Card, ...]:
    """Any card of the pile's suit and direction starts it (the example's Gules 2)."""
    row, down = divmod(pile, 2)
    numbers = range(9, 16) if down else range(1, 8)
    suit = "SVGO"[row]
    return tuple(Card(f"{suit}{n}") for n in numbers)


def _eight_on_either(up: tuple[Card, ...], down: tuple[Card, ...]) -> bool:
    """The 8 may be laid once its 7 or its 9 is down."""
    return (bool(up) and up[-1].number == 7) or (bool(down) and down[-1].number == 9)


def _no_extra() -> int:
    """A false claim costs nothing more than a pass."""
    return 0


def _stock_scored(hands: tuple[tuple[Card, ...], ...], winner: int,
                  penalties: tuple[int, ...], stock: tuple[Card, ...]) -> tuple[int, ...]:
    """The winner also scores the two-player stock."""
    gain = len(stock) + sum(len(h) for s, h in enumerate(hands) if s != winner)
    return tuple((gain if s == winner else 0) - penalties[s] for s in range(len(hands)))


MISREADINGS: tuple[Misreading, ...] = (
    Misreading(rule="KOPA-8", slug="any-card-starts-a-pile",
               description="a pile may be started with any card of its half of the suit "
               "(the worked example's 'Gules 2 … starting the Gules building-up sequence')",
               replacements={"start_cards": _any_start}),
    Misreading(rule="KOPA-13", slug="eight-on-seven-or-nine",
               description="an 8 may be laid once its suit's 7 or its 9 is down, not both",
               replacements={"eight_ready": _eight_on_either}),
    Misreading(rule="KOPA-16", slug="false-pass-costs-one",
               description="a pass costs one point even when a card was playable (the +4 "
               "only when someone 'later discovers' it)",
               replacements={"false_claim_penalty": _no_extra}),
    Misreading(rule="KOPA-20", slug="stock-scored",
               description="the round's winner also scores the cards left in the two-player "
               "stock", replacements={"round_changes": _stock_scored}),
)
"""The catalogue, one entry per common misreading."""
