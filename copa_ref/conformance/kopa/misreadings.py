"""The code of Kopa's misreadings: the functions and tables a misread copy of
:mod:`copa_ref.kopa.rules` is given in place of the reference's (see
:mod:`copa_ref.core.misreading`).

Each misreading is declared with its rule in ``rules.py``, which builds the catalogue: the
runner replays them to explain a failure ("your engine plays as if ..."), the kill-matrix
test uses them as mutants. What stays here is what those declarations refer to, and the
kill matrix's lists by mutant and case (:data:`UNNAMED`, :data:`VACUOUS`, :data:`RARE`).
"""

from __future__ import annotations

from copa_ref.conformance.vocabulary import Rare
from copa_ref.kopa import rules
from copa_ref.kopa.state import Card

__all__ = ["RARE", "UNNAMED", "VACUOUS"]


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


# -- The kill matrix's further mutants ------------------------------------------------------


def _thirteen_deck() -> tuple[Card, ...]:
    return tuple(c for c in rules.DECK if c.number <= 13)


def _four_aside(players: int) -> tuple[int, int]:
    """Four players are dealt 14 each, four cards aside."""
    if players == 2:
        return 3, 20
    return players, 14 if players == 4 else 60 // players


def _no_stock(players: int) -> tuple[int, int]:
    """Two players are dealt 30 each; no stock."""
    return (2, 30) if players == 2 else (players, 60 // players)


def _first_dealer_zero(config: object) -> int:
    return 0


def _dealer_begins(dealer: int, players: int) -> int:
    return dealer


def _counter_clockwise(seat: int, players: int) -> int:
    return (seat - 1) % players


def _holds_anything(hand: tuple[Card, ...], card: Card) -> bool:
    return True


def _up_to_six(top: Card) -> tuple[Card, ...]:
    n = top.number
    return (rules.card_of(top.row, n + 1),) if n < 6 else ()


def _down_to_ten(top: Card) -> tuple[Card, ...]:
    n = top.number
    return (rules.card_of(top.row, n - 1),) if n > 10 else ()


def _any_suit(pile: int, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """A pile takes the next number of any suit."""
    if not cards:
        return rules.start_cards(pile)
    n = cards[-1].number
    step = -1 if pile & 1 else 1
    if not 9 <= n + step <= 15 and not 1 <= n + step <= 7:
        return ()
    return tuple(rules.card_of(r, n + step) for r in range(4))


def _skipping_up(top: Card) -> tuple[Card, ...]:
    return tuple(rules.card_of(top.row, k) for k in range(top.number + 1, 8))


def _arranged_or_first(piles: tuple[tuple[Card, ...], ...]) -> tuple[tuple[Card, ...], ...]:
    """Or at the top of the table, Sable at the bottom."""
    return tuple(piles[2 * r + d] for r in (3, 2, 1, 0) for d in (0, 1))


def _free_pass() -> int:
    return 0


def _claims_accepted(config: object) -> bool:
    return False


def _never_offered(card: Card, piles: object, eights: object) -> bool:
    return False


def _one_card_left(hand: tuple[Card, ...]) -> bool:
    return len(hand) <= 1


def _penalties_kept(hands: tuple[tuple[Card, ...], ...], winner: int,
                    penalties: tuple[int, ...], stock: tuple[Card, ...]) -> tuple[int, ...]:
    gain = sum(len(h) for s, h in enumerate(hands) if s != winner)
    return tuple(gain if s == winner else 0 for s in range(len(hands)))


def _same_dealer(dealer: int, players: int) -> int:
    return dealer


def _beyond_target(scores: tuple[int, ...], target: int) -> bool:
    return max(scores) > target


# -- The rule book's misreadings ------------------------------------------------------------

def _eight_never_laid(up: object, down: object) -> bool:
    return False


# -- The kill matrix's lists by mutant -----------------------------------------------------

UNNAMED: dict[str, str] = {}
"""The failing cases of a mutant that cannot name its rule (``"<slug> <case id>"``, or a
slug for all of a mutant's), and why (the kill-matrix test,
``tests/conformance/test_kill_matrix.py``): none."""

VACUOUS: dict[str, str] = {}
"""Hand-made cases no mutant of their rules fails (the kill-matrix test): none."""


RARE: tuple[Rare, ...] = (
    Rare("drawn-card-kept", (("players", 2), ("false_pass", "refused"))),
    Rare("skipping-up", (("players", 5), ("target", 30))),
    Rare("eight-on-seven-or-nine", (("players", 4), ("declined_draw", "free"))),
)
"""The mutants (``mutants`` of ``rules.CATALOGUE``) that act only in a rare
situation (a combination of player count and options the corpus never plays): what an
exploration must find beyond the corpus."""
