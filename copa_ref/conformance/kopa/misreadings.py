"""Common misreadings of the Kopa rules that are not ``Config`` options.

Each :class:`~copa_ref.core.misreading.Misreading` is tagged with the rule it misreads; the
conformance runner replays a failing case under each of them to explain the failure ("your
engine plays as if ..."). See :mod:`copa_ref.core.misreading`. Several are the worked
example's own habits (KOPA-Q7).
"""

from __future__ import annotations

from copa_ref.conformance.vocabulary import Catalogue, Rare
from copa_ref.core.misreading import Misreading
from copa_ref.kopa import rules
from copa_ref.kopa.state import Card

__all__ = ["CATALOGUE", "MISREADINGS", "MUTANTS", "PICTURED", "RARE", "UNMUTATABLE", "UNNAMED",
           "VACUOUS"]



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


# -- The kill matrix's mutants --------------------------------------------------------------
#
# Kopa mutants for the kill-matrix test: at least one per rule of ``specs/kopa.md``, each
# misreading exactly that rule (a name replaced in a private copy of ``copa_ref.kopa.rules``).
# The corpus must kill every one with its own rule named first.


_BY_SLUG = {m.slug: m for m in MISREADINGS}


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


def _m(rule: str, slug: str, description: str, **replacements: object) -> Misreading:
    return Misreading(rule=rule, slug=slug, description=description, replacements=replacements)


MUTANTS: tuple[Misreading, ...] = (
    _m("KOPA-1", "thirteen-per-suit", "the deck of the 1890s game: 1 to 13 per suit",
       DECK=_thirteen_deck()),
    _m("KOPA-2", "no-two-players", "only 3 to 5 players", PLAYERS=(3, 4, 5)),
    _m("KOPA-3", "seat-0-deals", "seat 0 deals the first round", first_dealer=_first_dealer_zero),
    _m("KOPA-4", "cards-aside-with-four", "four players get 14 each, four cards aside",
       deal_shape=_four_aside),
    _m("KOPA-5", "dealer-begins", "the dealer begins the round", leader=_dealer_begins),
    _m("KOPA-6", "counter-clockwise", "play proceeds counter-clockwise",
       next_seat=_counter_clockwise),
    _m("KOPA-7", "any-card", "a player may play a card from any hand", holds=_holds_anything),
    _BY_SLUG["any-card-starts-a-pile"],
    _m("KOPA-9", "up-to-six", "an up-pile ends at its 6", next_up=_up_to_six),
    _m("KOPA-10", "down-to-ten", "a down-pile ends at its 10", next_down=_down_to_ten),
    _m("KOPA-11", "any-suit", "a card builds on the next number of any suit's pile",
       pile_accepts=_any_suit),
    _m("KOPA-12", "skipping-up", "an up-pile takes any higher number to 7",
       next_up=_skipping_up),
    _BY_SLUG["eight-on-seven-or-nine"],
    _m("KOPA-14", "or-at-the-top", "the table is listed from Or to Sable",
       arrange=_arranged_or_first),
    _m("KOPA-15", "free-pass", "a pass costs nothing", failed_turn_penalty=_free_pass),
    _BY_SLUG["false-pass-costs-one"],
    _m("KOPA-16", "false-claim-accepted", "a false claim is accepted at its price even "
       "under false_pass=refused", pass_refused=_claims_accepted),
    _m("KOPA-17", "no-stock", "two players are dealt 30 each, no stock", deal_shape=_no_stock),
    _m("KOPA-18", "drawn-card-kept", "a drawn card is always kept, even when playable",
       offer_drawn=_never_offered),
    _m("KOPA-19", "last-card-ends", "the round ends when a player is down to one card",
       round_over=_one_card_left),
    _m("KOPA-20", "penalties-not-subtracted", "penalty points are not subtracted",
       round_changes=_penalties_kept),
    _BY_SLUG["stock-scored"],
    _m("KOPA-21", "same-dealer", "the same seat deals every round", next_dealer=_same_dealer),
    _m("KOPA-22", "beyond-the-target", "the match ends only above the target",
       match_over=_beyond_target),
)
"""The mutants, in rule order."""

UNMUTATABLE: dict[str, str] = {}
"""Every Kopa rule has a mutant."""


UNNAMED: dict[str, str] = {}
"""The failing cases of a mutant that cannot name its rule (``"<slug> <case id>"``, or a
slug for all of a mutant's), and why (the kill-matrix test,
``tests/conformance/test_kill_matrix.py``): none."""

VACUOUS: dict[str, str] = {}
"""Hand-made cases no mutant of their rules fails (the kill-matrix test): none."""


# -- The rule book's misreadings ------------------------------------------------------------

def _eight_never_laid(up: object, down: object) -> bool:
    return False


PICTURED: tuple[Misreading, ...] = (
    Misreading(rule="KOPA-13", slug="eight-never-laid",
               description="an 8 is never laid: a suit's 7 and 9 stay open",
               replacements={"eight_ready": _eight_never_laid}),
)
"""Misreadings the rule book uses to find the step where a rule it pictures fires, for
the rules no other misreading of the catalogue covers yet."""


RARE: tuple[Rare, ...] = (
    Rare("drawn-card-kept", (("players", 2), ("false_pass", "refused"))),
    Rare("skipping-up", (("players", 5), ("target", 30))),
    Rare("eight-on-seven-or-nine", (("players", 4), ("declined_draw", "free"))),
)
"""The mutants above that act only in a rare situation (a combination of player count and
options the corpus never plays): what an exploration must find beyond the corpus."""


CATALOGUE = Catalogue(misreadings=MISREADINGS, mutants=MUTANTS, unmutatable=UNMUTATABLE,
                      unnamed=UNNAMED, rare=RARE, vacuous=VACUOUS, pictured=PICTURED)
"""The one catalogue of kopa's misreadings: the explanations, the kill matrix and the rule
book take theirs from it."""
