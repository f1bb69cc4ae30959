"""Kopa values: cards, the config, the state, the actions and the observation.

Every class is a frozen attrs class of tuples, ints and enums (no validators: states are
checked by :func:`copa_ref.kopa.rules.check_state` where they enter).
"""

from __future__ import annotations

import enum

import attrs

from copa_ref.core.entry import Checked

__all__ = [
    "SUITS",
    "Action",
    "Card",
    "Config",
    "Deal",
    "DeclinedDraw",
    "FalsePass",
    "Observation",
    "Pass",
    "Phase",
    "Play",
    "State",
    "Suit",
]


class Suit(enum.Enum):
    """The four suits (KOPA-1), by their one-letter codes, in the table's order (KOPA-14)."""

    SABLE = "S"
    """Sable (black), the top row of the table."""
    VERT = "V"
    """Vert (green)."""
    GULES = "G"
    """Gules (red)."""
    OR = "O"
    """Or (gold), the bottom row."""


SUITS = "SVGO"
"""The suit codes in the table's order (KOPA-14)."""


class Card(enum.Enum):
    """One of the 60 cards (KOPA-1); its value is the code: suit letter, then 1 to 15.

    Each member also carries ``suit`` (a :class:`Suit`), ``row`` (the suit's place in the
    table's order, 0 for Sable to 3 for Or), ``number`` (1 to 15), ``pile`` (the place of its
    pile on the table, 0 to 7 in the order of KOPA-14, or -1 for an 8) and ``index`` (its
    place in the canonical order, sorted by code).
    """

    suit: Suit
    row: int
    number: int
    pile: int
    index: int

    def __init__(self, code: str) -> None:
        self.suit = Suit(code[0])
        self.row = SUITS.index(code[0])
        self.number = int(code[1:])
        self.pile = -1 if self.number == 8 else 2 * self.row + (self.number > 8)
        self.index = -1  # set below, once all members exist

    __hash__ = object.__hash__
    """A card is its own member (equality is identity), so it hashes by identity, in C: a
    table of cards is hashed often (the remembered answers of ``rules.wanted``)."""

    def __repr__(self) -> str:
        return f"Card({self.value!r})"

    def __str__(self) -> str:
        return str(self.value)

    S1 = "S1"
    S2 = "S2"
    S3 = "S3"
    S4 = "S4"
    S5 = "S5"
    S6 = "S6"
    S7 = "S7"
    S8 = "S8"
    S9 = "S9"
    S10 = "S10"
    S11 = "S11"
    S12 = "S12"
    S13 = "S13"
    S14 = "S14"
    S15 = "S15"
    V1 = "V1"
    V2 = "V2"
    V3 = "V3"
    V4 = "V4"
    V5 = "V5"
    V6 = "V6"
    V7 = "V7"
    V8 = "V8"
    V9 = "V9"
    V10 = "V10"
    V11 = "V11"
    V12 = "V12"
    V13 = "V13"
    V14 = "V14"
    V15 = "V15"
    G1 = "G1"
    G2 = "G2"
    G3 = "G3"
    G4 = "G4"
    G5 = "G5"
    G6 = "G6"
    G7 = "G7"
    G8 = "G8"
    G9 = "G9"
    G10 = "G10"
    G11 = "G11"
    G12 = "G12"
    G13 = "G13"
    G14 = "G14"
    G15 = "G15"
    O1 = "O1"
    O2 = "O2"
    O3 = "O3"
    O4 = "O4"
    O5 = "O5"
    O6 = "O6"
    O7 = "O7"
    O8 = "O8"
    O9 = "O9"
    O10 = "O10"
    O11 = "O11"
    O12 = "O12"
    O13 = "O13"
    O14 = "O14"
    O15 = "O15"


for _i, _card in enumerate(sorted(Card, key=lambda c: c.value)):
    _card.index = _i
del _i, _card


class Phase(enum.Enum):
    """Where a match stands."""

    DEAL = "deal"
    """Chance deals the next round (KOPA-4)."""
    PLAY = "play"
    """A seat plays a card or passes (KOPA-6)."""
    DRAWN = "drawn"
    """Two players: the seat that drew a playable card decides whether to play it (KOPA-18)."""
    OVER = "over"
    """The match is over (KOPA-22)."""


class FalsePass(enum.Enum):
    """A pass while holding a playable card (KOPA-16, KOPA-Q3)."""

    PENALTY = "penalty"
    """Allowed, and charged four more points (default)."""
    REFUSED = "refused"
    """Refused under KOPA-16."""


class DeclinedDraw(enum.Enum):
    """Two players: keeping a playable drawn card (KOPA-18, KOPA-Q6)."""

    PENALTY = "penalty"
    """Costs the one point of a turn without a card (default)."""
    FREE = "free"
    """Costs nothing."""


@attrs.frozen(kw_only=True)
class Config:
    """The variant options; ``Config()`` is the default reading."""

    players: int = 3
    """2 to 5 seats (KOPA-2); two play the variant with a stock (KOPA-17)."""
    target: int = 20
    """The score that ends the match: 20, or 30 for a longer game (KOPA-22)."""
    first_dealer: int | None = None
    """The seat that deals the first round; ``None``: the last seat (KOPA-3, KOPA-Q9)."""
    false_pass: FalsePass = FalsePass.PENALTY
    """A pass while a card is playable (KOPA-16)."""
    declined_draw: DeclinedDraw = DeclinedDraw.PENALTY
    """Two players: the cost of keeping a playable drawn card (KOPA-18)."""


@attrs.frozen(kw_only=True)
class State(Checked):
    """A position of a whole Kopa match (its checked mark: :class:`~copa_ref.core.entry.Checked`,
    no field)."""

    config: Config
    """The variant options."""
    phase: Phase
    """Deal, play, drawn or over."""
    round: int
    """The round being dealt or played, from 1."""
    dealer: int
    """The dealer of this round (KOPA-3, KOPA-21)."""
    turn: int
    """The seat to act; at a deal the seat that will lead; when over, the last round's winner."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's hand, sorted by card code (hidden)."""
    stock: tuple[Card, ...]
    """Two players: the stock, top card first (hidden; KOPA-17)."""
    drawn: Card | None
    """The card just drawn, in the ``drawn`` phase (KOPA-18); else ``None``."""
    piles: tuple[tuple[Card, ...], ...]
    """The eight piles in the order of KOPA-14, each in the order laid."""
    eights: tuple[Card, ...]
    """The 8s laid across their 7 and 9 (KOPA-13), in suit order."""
    penalties: tuple[int, ...]
    """Penalty points of the round in progress (or just scored) per seat (KOPA-15, KOPA-16)."""
    scores: tuple[int, ...]
    """Match scores per seat (KOPA-20)."""
    last_round: tuple[int, ...]
    """Each seat's score change at the end of the previous round (empty before)."""


@attrs.frozen
class Deal:
    """The chance action that starts a round: every seat's hand in seat order, and with two
    players the stock, top card first (KOPA-4, KOPA-17)."""

    hands: tuple[tuple[Card, ...], ...]
    """One list per seat (and the stock)."""


@attrs.frozen
class Play:
    """A seat plays a card to its place on the table (KOPA-6 to KOPA-13)."""

    seat: int
    """The seat that plays."""
    card: Card
    """The card played."""


@attrs.frozen
class Pass:
    """A seat claims it cannot play (KOPA-15); with two players it draws (KOPA-18), and after
    a playable draw it keeps the card."""

    seat: int
    """The seat that passes."""


Action = Deal | Play | Pass
"""A Kopa action: the deal (chance), a card play or a pass."""


@attrs.frozen(kw_only=True)
class Observation:
    """What one seat may know (or, with ``seat`` ``None``, what a spectator sees)."""

    config: Config
    """The variant options."""
    seat: int | None
    """The observing seat, ``None`` for the public view."""
    phase: Phase
    """Deal, play, drawn or over."""
    round: int
    """The round number."""
    dealer: int
    """The dealer of this round."""
    turn: int
    """The seat to act."""
    hand: tuple[Card, ...]
    """The observing seat's own hand (empty in the public view)."""
    drawn: Card | None
    """The card the observing seat just drew, in the ``drawn`` phase; else ``None``."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    stock_size: int
    """How many cards the stock holds."""
    piles: tuple[tuple[Card, ...], ...]
    """The eight piles (KOPA-14)."""
    eights: tuple[Card, ...]
    """The 8s laid."""
    penalties: tuple[int, ...]
    """Penalty points of the round per seat."""
    scores: tuple[int, ...]
    """Match scores per seat."""
    last_round: tuple[int, ...]
    """Score changes at the end of the previous round."""
