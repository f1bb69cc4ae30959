"""Copas values: cards, the config, the state, the actions and the observation.

Every class is a frozen attrs class of tuples, ints and enums (no validators: states are
checked by :func:`copa_ref.copas.rules.check_state` where they enter).
"""

from __future__ import annotations

import enum

import attrs

from copa_ref.core.codec import SOLVER_OPTION
from copa_ref.core.entry import Checked

__all__ = [
    "RANKS",
    "SUITS",
    "Action",
    "AllCards",
    "BonusAllCards",
    "BonusOtherTen",
    "Card",
    "Config",
    "CopasLead",
    "Deal",
    "Observation",
    "Phase",
    "Play",
    "RankOrder",
    "State",
    "Suit",
    "Trick",
]


class Suit(enum.Enum):
    """The four suits (COPAS-1), by their one-letter codes."""

    PAUS = "p"
    """Paus, clubs (♣)."""
    ESPADAS = "e"
    """Espadas, swords or spades (♠)."""
    COPAS = "c"
    """Copas, cups or hearts (♥): the penalty cards (COPAS-3)."""
    OUROS = "o"
    """Ouros, coins or diamonds (♦)."""


RANKS = "23456QJK7A"
"""The rank codes from the weakest to the strongest, as printed (COPAS-2)."""

SUITS = "peco"
"""The suit codes in the order the text lists the suits."""

_PLAIN = "234567JQKA"


class Card(enum.Enum):
    """One of the 40 cards (COPAS-1); its value is the two-character code, rank then suit.

    Each member also carries ``suit`` (a :class:`Suit`), ``rank`` (its strength 0..9 in the
    printed order of COPAS-2), ``plain`` (its strength in the plain order, COPAS-Q1) and
    ``index`` (its place in the canonical order, sorted by code).
    """

    suit: Suit
    rank: int
    plain: int
    index: int

    def __init__(self, code: str) -> None:
        self.suit = Suit(code[1])
        self.rank = RANKS.index(code[0])
        self.plain = _PLAIN.index(code[0])
        self.index = -1  # set below, once all members exist

    def __repr__(self) -> str:
        return f"Card({self.value!r})"

    def __str__(self) -> str:
        return str(self.value)

    C2p = "2p"
    C3p = "3p"
    C4p = "4p"
    C5p = "5p"
    C6p = "6p"
    CQp = "Qp"
    CJp = "Jp"
    CKp = "Kp"
    C7p = "7p"
    CAp = "Ap"
    C2e = "2e"
    C3e = "3e"
    C4e = "4e"
    C5e = "5e"
    C6e = "6e"
    CQe = "Qe"
    CJe = "Je"
    CKe = "Ke"
    C7e = "7e"
    CAe = "Ae"
    C2c = "2c"
    C3c = "3c"
    C4c = "4c"
    C5c = "5c"
    C6c = "6c"
    CQc = "Qc"
    CJc = "Jc"
    CKc = "Kc"
    C7c = "7c"
    CAc = "Ac"
    C2o = "2o"
    C3o = "3o"
    C4o = "4o"
    C5o = "5o"
    C6o = "6o"
    CQo = "Qo"
    CJo = "Jo"
    CKo = "Ko"
    C7o = "7o"
    CAo = "Ao"


for _i, _card in enumerate(sorted(Card, key=lambda c: c.value)):
    _card.index = _i
del _i, _card


class Phase(enum.Enum):
    """Where a match stands."""

    DEAL = "deal"
    """Chance deals the next round (COPAS-6)."""
    PLAY = "play"
    """A seat plays a card to the trick (COPAS-9)."""
    OVER = "over"
    """The match is over (COPAS-20)."""


class RankOrder(enum.Enum):
    """Which order of the cards decides tricks (COPAS-2, COPAS-Q1)."""

    PRINTED = "printed"
    """2 < 3 < 4 < 5 < 6 < Q < J < K < 7 < A, as the text prints it (default)."""
    PLAIN = "plain"
    """2 < 3 < 4 < 5 < 6 < 7 < J < Q < K < A, the house order of the 52-card family."""


class CopasLead(enum.Enum):
    """Whether copas may be led at any time (COPAS-15, COPAS-Q4)."""

    ANY = "any"
    """Any card may be led (default: the text states no restriction)."""
    BROKEN = "broken"
    """House rule: no copa may be led until a copa was played in an earlier trick, unless the
    leader holds only copas."""


class AllCards(enum.Enum):
    """How the all-cards rule and the all-ten-copas rule combine (COPAS-19, COPAS-Q6)."""

    OTHERS_TEN = "others_ten"
    """The others book 10, the taker nothing, no bonus round (default)."""
    OTHERS_TEN_AND_BONUS = "others_ten_and_bonus"
    """The others book 10, and the taker's ten are pending for a bonus round."""
    BONUS_ONLY = "bonus_only"
    """Only the all-ten-copas rule: the taker's ten are pending, the others book nothing."""


class BonusOtherTen(enum.Enum):
    """A different seat takes all ten copas in a bonus round (COPAS-17, COPAS-Q5)."""

    NEW_BONUS = "new_bonus"
    """Its ten are pending in turn; another bonus round follows (default)."""
    BOOK = "book"
    """It books its 10 at once."""


class BonusAllCards(enum.Enum):
    """The pending seat takes every trick of its bonus round (COPAS-18, COPAS-19, COPAS-Q14)."""

    TWENTY = "twenty"
    """It took all ten copas again: 10 + 10 = 20, "die Runde ist für ihn dann 20 Minuspunkte
    wert"; every other seat books 10 by the all-cards rule (default)."""
    PENDING_TEN = "pending_ten"
    """The all-cards rule books the round's own cards as nothing for it, as for any all-cards
    taker: it books only the pending 10; every other seat books 10."""


@attrs.frozen(kw_only=True)
class Config:
    """The variant options; ``Config()`` is the default reading (exactly the text).

    The house rules (``rank_order``, ``copas_lead``, ``end_when_copas_out``) stand in for the
    lost "Besonderheiten" (COPAS-15) and "Varianten" (COPAS-22); each is off by default and
    has its source in the ambiguity register.
    """

    players: int = 4
    """3, 4 or 5 seats (COPAS-4)."""
    first_dealer: int = 0
    """The seat that deals the first round (COPAS-5, COPAS-Q8)."""
    all_cards: AllCards = AllCards.OTHERS_TEN
    """The reading of the all-cards rule (COPAS-19)."""
    bonus_other_ten: BonusOtherTen = BonusOtherTen.NEW_BONUS
    """A different seat taking all ten copas in a bonus round (COPAS-17)."""
    rank_order: RankOrder = RankOrder.PRINTED
    """The order of the cards (COPAS-2)."""
    copas_lead: CopasLead = CopasLead.ANY
    """House rule: copas may not be led until broken (COPAS-15)."""
    end_when_copas_out: bool = False
    """House rule: the round ends once all ten copas are out (COPAS-14)."""
    bonus_all_cards: BonusAllCards = BonusAllCards.TWENTY
    """The pending seat taking every trick of its bonus round (COPAS-18)."""
    cards_each: int | None = attrs.field(default=None, metadata=SOLVER_OPTION)
    """``None``: the whole deck is dealt, 13, 10 or 8 cards each (COPAS-6); a number from 1
    up to that: each seat is dealt only that many and the rest of the deck is set aside,
    unseen (the solver variant COPAS-V1, COPAS-Q17), a deal small enough to solve exactly."""


@attrs.frozen
class Trick:
    """A finished trick: who led it, the cards in the order played, who took it."""

    leader: int
    """The seat that led the trick."""
    cards: tuple[Card, ...]
    """The cards, the leader's first, then in play order."""
    winner: int
    """The seat that took the trick (COPAS-13)."""


@attrs.frozen(kw_only=True)
class State(Checked):
    """A position of a whole Copas match (its checked mark: :class:`~copa_ref.core.entry.Checked`,
    no field)."""

    config: Config
    """The variant options."""
    phase: Phase
    """Deal, play or over."""
    round: int
    """The round being dealt or played, from 1."""
    dealer: int
    """The dealer of this round (COPAS-5)."""
    scores: tuple[int, ...]
    """Booked minus points per seat."""
    pending: int | None
    """The seat whose ten copas await their bonus round (COPAS-17), or ``None``."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's hand, sorted by card code (hidden; empty between rounds)."""
    leader: int
    """The seat that leads (or led) the trick in progress."""
    trick: tuple[Card, ...]
    """The cards of the trick in progress, the leader's first."""
    tricks: tuple[Trick, ...]
    """This round's finished tricks (public)."""
    last_round: tuple[int, ...]
    """The points booked to each seat at the end of the previous round (empty before)."""



@attrs.frozen
class Deal:
    """The chance action that starts a round: every seat's hand, in seat order (COPAS-6)."""

    hands: tuple[tuple[Card, ...], ...]
    """One hand per seat."""


@attrs.frozen
class Play:
    """A seat plays a card to the trick (COPAS-9 to COPAS-12)."""

    seat: int
    """The seat that plays."""
    card: Card
    """The card played."""


Action = Deal | Play
"""A Copas action: the deal (chance) or a card play."""


@attrs.frozen(kw_only=True)
class Observation:
    """What one seat may know (or, with ``seat`` ``None``, what a spectator sees)."""

    config: Config
    """The variant options."""
    seat: int | None
    """The observing seat, ``None`` for the public view."""
    phase: Phase
    """Deal, play or over."""
    round: int
    """The round number."""
    dealer: int
    """The dealer of this round."""
    scores: tuple[int, ...]
    """Booked minus points per seat."""
    pending: int | None
    """The seat whose ten copas are pending, or ``None``."""
    hand: tuple[Card, ...]
    """The observing seat's own hand (empty in the public view)."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    leader: int
    """The seat that leads (or led) the trick in progress."""
    trick: tuple[Card, ...]
    """The trick in progress."""
    tricks: tuple[Trick, ...]
    """This round's finished tricks."""
    last_round: tuple[int, ...]
    """Points booked at the end of the previous round."""
