"""Kopa rules as pure functions: a whole match of the 60-card building game.

Kopa is an imperfect-information game (hidden hands and, with two players, a hidden stock)
with chance (the deal of every round), for 2 to 5 players who act one at a time, clockwise
(seat + 1). A match is a sequence of rounds, each dealt by a chance action
(:class:`~copa_ref.kopa.state.Deal`) and played one card or one pass a turn
(:class:`~copa_ref.kopa.state.Play`, :class:`~copa_ref.kopa.state.Pass`); after the play that
empties a hand the round is scored and the match end checked automatically (no action).
Rule IDs (``KOPA-n``) refer to ``specs/kopa.md``.

Every rule lives in one small function that the others call through this module's globals
(so that a misreading can replace exactly one rule; see :mod:`copa_ref.core.misreading`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from operator import attrgetter

from copa_ref.core import (
    CHANCE,
    NOBODY,
    IllegalActionError,
    InvalidStateError,
    MalformedInputError,
    Outcome,
    Seat,
    ToMove,
    canonical_json,
    shuffled,
)
from copa_ref.core.codec import MAX_INT, excerpt
from copa_ref.core.entry import CHECKED, StateChecks, check_rng, rule, slot_builder
from copa_ref.core.fields import check_instance, check_int, check_position, check_tuple
from copa_ref.core.misreading import seam
from copa_ref.kopa.state import (
    SUITS,
    Action,
    Card,
    Config,
    Deal,
    DeclinedDraw,
    FalsePass,
    Observation,
    Pass,
    Phase,
    Play,
    State,
)

__all__ = [
    "DECK",
    "PILE_NAMES",
    "PLAYERS",
    "TARGETS",
    "action_space",
    "apply",
    "arrange",
    "card_of",
    "chance_step",
    "check_config",
    "check_state",
    "deal_shape",
    "draws",
    "eight_ready",
    "failed_turn_penalty",
    "false_claim_penalty",
    "first_dealer",
    "holds",
    "leader",
    "legal_actions",
    "legal_cards",
    "match_over",
    "new_game",
    "next_dealer",
    "next_down",
    "next_seat",
    "next_up",
    "num_players",
    "observe",
    "offer_drawn",
    "outcome",
    "pass_refused",
    "pile_accepts",
    "refusal",
    "render",
    "round_changes",
    "round_over",
    "sample_chance",
    "start_cards",
    "to_move",
    "wanted",
    "well_formed",
]

DECK: tuple[Card, ...] = tuple(sorted(Card, key=lambda c: c.index))
"""The 60 cards (KOPA-1), in canonical order (sorted by code)."""

PLAYERS = (2, 3, 4, 5)
"""The player counts the text allows (KOPA-2)."""

TARGETS = (20, 30)
"""The match targets the text names (KOPA-22)."""

PILE_NAMES = tuple(f"{s} {d}" for s in ("Sable", "Vert", "Gules", "Or") for d in ("up", "down"))
"""The eight places of the table in the order of KOPA-14."""

_DEAL, _PLAY, _DRAWN, _OVER = Phase.DEAL, Phase.PLAY, Phase.DRAWN, Phase.OVER
_REFUSED, _DECLINE_COSTS = FalsePass.REFUSED, DeclinedDraw.PENALTY
"""The phases and option values as module constants (a global name reads faster than an enum
member looked up through its class)."""

_BY_ROW: tuple[tuple[Card, ...], ...] = tuple(
    tuple(Card(f"{s}{n}") for n in range(16) if n) for s in SUITS
)
"""``_BY_ROW[row][number - 1]``: the card of a suit (in table order) and number."""

_PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, card) for card in DECK) for seat in range(5)
)
_PLAY_OF: tuple[dict[Card, Play], ...] = tuple(
    {play.card: play for play in plays} for plays in _PLAYS)
"""``_PLAY_OF[seat][card]``: the play of *card* by *seat* (a lookup by the card's identity
hash, in C, where ``_PLAYS[seat][card.index]`` reads an attribute in Python)."""
_PASSES: tuple[Pass, ...] = tuple(Pass(seat) for seat in range(5))
_PASS_ONLY: tuple[tuple[Action, ...], ...] = tuple((p,) for p in _PASSES)
_MOVERS = tuple(ToMove.seat(s) for s in range(5))


_state = slot_builder(State)
"""``State(...)`` as the rules build it at every step, without the class's ``__init__`` (the same
object, its slots written directly: :func:`~copa_ref.core.entry.slot_builder`)."""


def card_of(row: int, number: int) -> Card:
    """The card of the suit in table row *row* (0 Sable … 3 Or) and *number* (1 to 15)."""
    return _BY_ROW[row][number - 1]


_index: Callable[[Card], int] = attrgetter("index")
"""A card's place in the canonical order (the sort key of hands)."""


# The spec's words for the places of the table (KOPA-14): each suit, in table row order,
# has an up-pile (built up from its 1, KOPA-9) and beside it a down-pile (built down from
# its 15, KOPA-10).


def _up_pile(row: int) -> int:
    """The place of the up-pile of the suit in table row *row*."""
    return 2 * row


def _down_pile(row: int) -> int:
    """The place of the down-pile of the suit in table row *row*, beside its up-pile."""
    return 2 * row + 1


def _is_down_pile(pile: int) -> bool:
    """Whether the place *pile* holds a down-pile (KOPA-10) rather than an up-pile (KOPA-9)."""
    return pile % 2 == 1


_DOWN_PILES = frozenset(p for p in range(8) if _is_down_pile(p))
"""The places of the down-piles (:func:`_is_down_pile`, asked on every pile's answer)."""


def _suit_row(pile: int) -> int:
    """The table row of the suit whose pile is in place *pile*."""
    return pile // 2


def _eight_of(row: int) -> Card:
    """The 8 of the suit in table row *row* (KOPA-13)."""
    return _BY_ROW[row][7]


# -- configuration, seats and set-up (KOPA-2 to KOPA-5, KOPA-21) ---------------------------------


def check_config(config: Config) -> None:
    """Raise for a config no match can be played with.

    :raises MalformedInputError: for fields of the wrong type.
    :raises InvalidStateError: KOPA-2 for a player count other than 2 to 5; KOPA-3 for a first
        dealer that is no seat; KOPA-22 for a target other than 20 or 30.
    """
    if not isinstance(config, Config):
        msg = f"expected a Kopa Config, got {type(config).__name__}"
        raise MalformedInputError(msg)
    check_int(config.players, "players")
    check_int(config.target, "target")
    if config.first_dealer is not None:
        check_int(config.first_dealer, "first_dealer")
    if not isinstance(config.false_pass, FalsePass) or not isinstance(
            config.declined_draw, DeclinedDraw):
        msg = "a Kopa option has the wrong type"
        raise MalformedInputError(msg)
    # KOPA-2: two to five players.
    if config.players not in PLAYERS:
        msg = f"Kopa is played by 2 to 5 players, not {config.players}"
        raise InvalidStateError("KOPA-2", msg)
    # KOPA-3: the first dealer is a seat.
    if config.first_dealer is not None and not 0 <= config.first_dealer < config.players:
        msg = f"first_dealer {config.first_dealer} is no seat of {config.players}"
        raise InvalidStateError("KOPA-3", msg)
    # KOPA-22: the match goes to 20, or 30 for a longer game.
    if config.target not in TARGETS:
        msg = f"the match goes to 20 or 30 points, not {config.target}"
        raise InvalidStateError("KOPA-22", msg)


def num_players(config: Config) -> int:
    """How many seats play (KOPA-2).

    :raises MalformedInputError: for a value that is not a Kopa config.
    """
    check_instance(config, Config, "a Kopa config")
    return config.players


def first_dealer(config: Config) -> int:
    """The dealer of the first round: the configured seat, by default the last (KOPA-3)."""
    # KOPA-3: unstated in the text; the last seat, so that seat 0 leads (KOPA-Q9).
    return config.players - 1 if config.first_dealer is None else config.first_dealer


def next_seat(seat: int, players: int) -> int:
    """The seat that acts after *seat*: play proceeds clockwise, to the left (KOPA-6)."""
    # KOPA-6: play proceeds clockwise.
    return (seat + 1) % players


def leader(dealer: int, players: int) -> int:
    """The seat that begins a round: the dealer's left (KOPA-5)."""
    # KOPA-5: the player to the dealer's left begins.
    return (dealer + 1) % players


def next_dealer(dealer: int, players: int) -> int:
    """The dealer of the next round: the deal passes clockwise (KOPA-21)."""
    # KOPA-21: unstated in the text; the deal passes clockwise (KOPA-Q1).
    return (dealer + 1) % players


def deal_shape(players: int) -> tuple[int, int]:
    """How many lists a deal has and how many cards each: (n, 60 / n), or for two players
    three lists of 20, the third the stock (KOPA-4, KOPA-17)."""
    if players == 2:
        # KOPA-17: deal as if three players were present; the third hand is the stock.
        return 3, 20
    # KOPA-4: all cards dealt evenly; 60 divides by 3, 4 and 5, so none is set aside.
    return players, 60 // players


def new_game(config: Config | None = None) -> State:
    """The state before the first deal: no points, the first dealer to deal (KOPA-3).

    :raises InvalidStateError: KOPA-2/KOPA-3/KOPA-22 for an unplayable config.
    """
    if config is None:
        config = Config()
    check_config(config)
    n = config.players
    dealer = first_dealer(config)
    return _CHECKS.built(State(
        config=config,
        phase=_DEAL,
        round=1,
        dealer=dealer,
        turn=leader(dealer, n),
        hands=((),) * n,
        stock=(),
        drawn=None,
        piles=((),) * 8,
        eights=(),
        penalties=(0,) * n,
        scores=(0,) * n,
        last_round=(),
    ))


# -- the table (KOPA-8 to KOPA-14) --------------------------------------------------------------


def start_cards(pile: int) -> tuple[Card, ...]:
    """The cards that start the pile in place *pile* (0 to 7, KOPA-14): its suit's 1 for an
    up-pile, its 15 for a down-pile (KOPA-8).

    :pre: 0 <= pile < 8
    :post: len(__return__) == 1 and __return__[0].pile == pile
    """
    # KOPA-8: a new sequence starts with a 1 or a 15.
    return (card_of(_suit_row(pile), 15 if _is_down_pile(pile) else 1),)


def next_up(top: Card) -> tuple[Card, ...]:
    """The card that goes on an up-pile showing *top*: the next number of its suit, up to 7
    (KOPA-9, KOPA-11, KOPA-12).

    :pre: top.number < 8
    :post: all(c.suit is top.suit and c.number == top.number + 1 <= 7 for c in __return__)
    """
    # KOPA-9: build up 2, 3, 4, 5, 6 and 7 on the 1; KOPA-11/KOPA-12: the same suit, the
    # next number, nothing skipped.
    n = top.number
    return (_BY_ROW[top.row][n],) if n < 7 else ()


def next_down(top: Card) -> tuple[Card, ...]:
    """The card that goes on a down-pile showing *top*: the next number down of its suit, to
    9 (KOPA-10, KOPA-11, KOPA-12).

    :pre: top.number > 8
    :post: all(c.suit is top.suit and c.number == top.number - 1 >= 9 for c in __return__)
    """
    # KOPA-10: build down 14, 13, 12, 11, 10 and 9 on the 15; KOPA-11/KOPA-12 as above.
    n = top.number
    return (_BY_ROW[top.row][n - 2],) if n > 9 else ()


def pile_accepts(pile: int, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards the pile in place *pile*, holding *cards*, takes now (KOPA-8 to KOPA-12)."""
    if not cards:
        return start_cards(pile)
    top = cards[-1]
    return next_down(top) if pile in _DOWN_PILES else next_up(top)


def eight_ready(up: tuple[Card, ...], down: tuple[Card, ...]) -> bool:
    """Whether a suit's 8 may be laid: its up-pile ends in the 7 and its down-pile in the 9
    (KOPA-13).

    :post: __return__ == (len(up) > 0 and up[-1].number == 7 and len(down) > 0 and down[-1].number == 9)
    """  # noqa: E501 - a contract is one line
    # KOPA-13: no 8 until both the 7 and the 9 of its suit have been played.
    return bool(up) and up[-1].number == 7 and bool(down) and down[-1].number == 9


_SUIT_PLACES = tuple((row, _up_pile(row), _down_pile(row), _eight_of(row)) for row in range(4))
"""Each suit's table row, the places of its up- and down-pile (KOPA-14) and its 8."""

def wanted(piles: tuple[tuple[Card, ...], ...], eights: tuple[Card, ...]) -> tuple[Card, ...]:
    """Every card the table takes now: each pile's next card and each ready 8, suit by suit
    in table order (KOPA-8 to KOPA-13)."""
    takes: tuple[Card, ...] = ()
    for _row, up_place, down_place, eight in _SUIT_PLACES:
        up, down = piles[up_place], piles[down_place]
        takes += pile_accepts(up_place, up) + pile_accepts(down_place, down)
        # KOPA-13: the 8 once its suit's 7 and 9 are both on the table.
        if eight_ready(up, down) and eight not in eights:
            takes += (eight,)
    return takes


def legal_cards(hand: tuple[Card, ...], piles: tuple[tuple[Card, ...], ...],
                eights: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of *hand* that may be played now, in the hand's order: those the table
    takes (:func:`wanted`)."""
    take = frozenset(wanted(piles, eights))
    return tuple(filter(take.__contains__, hand))


_TABLE_ORDER = tuple(place for row in range(4) for place in (_up_pile(row), _down_pile(row)))
"""KOPA-14: the piles as the table lays them out, a suit a row (Sable at the top, then Vert,
Gules and Or), each suit's up-pile beside its down-pile."""


@seam
def arrange(piles: tuple[tuple[Card, ...], ...]) -> tuple[tuple[Card, ...], ...]:
    """The piles as the public view lists them: row by row of the table, each suit's
    up-pile then its down-pile (KOPA-14; presentation, not a rule of play)."""
    # KOPA-14: Sable at the top, then Vert, Gules, Or; each 1 beside its 15.
    return tuple(piles[place] for place in _TABLE_ORDER)


def _place(card: Card, piles: tuple[tuple[Card, ...], ...]) -> int:
    """The place of the pile that takes *card* now (its own pile first), or -1."""
    own = card.pile
    if card in pile_accepts(own, piles[own]):
        return own
    for i in range(8):
        if i != own and card in pile_accepts(i, piles[i]):
            return i
    return -1


def refusal(card: Card, piles: tuple[tuple[Card, ...], ...]) -> IllegalActionError:
    """Why *card* (not an 8) cannot be played on this table: the rule and a one-line reason
    (KOPA-8, KOPA-11, KOPA-12)."""
    own = card.pile
    name = PILE_NAMES[own]
    if not piles[own]:
        # KOPA-8: a pile starts with its 1 or 15 only.
        first = start_cards(own)[0]
        msg = f"{card} cannot start the {name}-pile: it starts with {first}"
        return IllegalActionError("KOPA-8", msg)
    down = _is_down_pile(own)
    for i in range(8):
        if (i != own and _is_down_pile(i) == down and piles[i]
                and abs(piles[i][-1].number - card.number) == 1
                and (card.number > piles[i][-1].number) != down):
            # KOPA-11: only on cards of the same suit.
            msg = (f"{card} follows the {PILE_NAMES[i]}-pile's {piles[i][-1]}, but a card "
                   f"builds only on its own suit; the {name}-pile shows {piles[own][-1]}")
            return IllegalActionError("KOPA-11", msg)
    # KOPA-12: no number may be skipped.
    top = piles[own][-1]
    following = pile_accepts(own, piles[own])
    want = f"its next card is {following[0]}" if following else "it is complete"
    msg = f"{card} skips numbers: the {name}-pile shows {top}; {want}"
    return IllegalActionError("KOPA-12", msg)


# -- turns without a card (KOPA-15, KOPA-16, KOPA-18) -------------------------------------------


@seam
def failed_turn_penalty() -> int:
    """The penalty of a turn that ends without a card played (KOPA-15)."""
    # KOPA-15: if you cannot play on your turn, a one-point penalty.
    return 1


@seam
def false_claim_penalty() -> int:
    """The additional penalty of a pass while a card was playable (KOPA-16)."""
    # KOPA-16: four additional points for a false claim, discovered at once.
    return 4


@seam
def pass_refused(config: Config) -> bool:
    """Whether a pass while a card is playable is refused rather than charged (KOPA-16)."""
    # KOPA-16: "later discovered" read as a claim the table refuses at once (KOPA-Q3).
    return config.false_pass is _REFUSED


def draws(players: int, stock: tuple[Card, ...]) -> bool:
    """Whether a pass draws from the stock: two players and a stock left (KOPA-18)."""
    # KOPA-18: with two players, a player who cannot play draws one card.
    return players == 2 and bool(stock)


def offer_drawn(card: Card, piles: tuple[tuple[Card, ...], ...], eights: tuple[Card, ...]
                ) -> bool:
    """Whether the drawn *card* may be played at once: when it is playable (KOPA-18)."""
    # KOPA-18: if they can play the drawn card, they may do so immediately.
    return card in wanted(piles, eights)


@seam
def holds(hand: tuple[Card, ...], card: Card) -> bool:
    """Whether *card* is in *hand* (KOPA-7)."""
    # KOPA-7: a player plays the cards from their own hand.
    return card in hand


# -- rounds and the match (KOPA-19 to KOPA-22) --------------------------------------------------


@seam
def round_over(hand: tuple[Card, ...]) -> bool:
    """Whether a play leaving *hand* ends the round: the hand is empty (KOPA-19)."""
    # KOPA-19: once a player has played their last card, the round ends immediately.
    return not hand


def round_changes(hands: tuple[tuple[Card, ...], ...], winner: int,
                  penalties: tuple[int, ...], stock: tuple[Card, ...]) -> tuple[int, ...]:
    """Each seat's score change at the end of a round: the winner gains one point per card in
    the other hands (not the stock), every seat loses its penalty points (KOPA-20).

    :pre: 2 <= len(hands) <= 5 and len(penalties) == len(hands) and 0 <= winner < len(hands)
    :pre: all(p >= 0 for p in penalties)
    :post: __return__[winner] == sum(len(h) for h in hands) - len(hands[winner]) - penalties[winner]
    :post: all(__return__[s] == -penalties[s] for s in range(len(hands)) if s != winner)
    """
    # KOPA-20: one point per card still held by opponents; penalties are subtracted; the
    # stock is not held by an opponent (KOPA-Q12).
    gain = 0
    for s in range(len(hands)):
        if s != winner:
            gain += len(hands[s])
    return tuple([(gain if s == winner else 0) - penalties[s] for s in range(len(hands))])


def match_over(scores: tuple[int, ...], target: int) -> bool:
    """Whether the match ends: a seat has reached the target (KOPA-22)."""
    # KOPA-22: the game continues until a player reaches 20 points (or 30).
    return max(scores) >= target


# -- who moves, what is legal --------------------------------------------------------------------


def to_move(state: State) -> ToMove:
    """Chance at a deal, the seat whose turn it is in play, nobody when over (KOPA-6).

    :raises MalformedInputError: for a value that is not a Kopa state.
    """
    if type(state) is not State or getattr(state, CHECKED, None) is not _KEY:
        _check_state(state)  # the common case, a state checked or built before, without it
    return _to_move(state)


def _to_move(state: State) -> ToMove:
    """:func:`to_move` without the entry check (:attr:`~copa_ref.core.game.Game.trusted`)."""
    phase = state.phase
    if phase is _PLAY or phase is _DRAWN:
        return _MOVERS[state.turn]
    if phase is _DEAL:
        return CHANCE
    return NOBODY


def legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    """The legal plays and the pass, sorted by canonical JSON (plays by card code, then the
    pass); empty at chance nodes and when the match is over.

    :param seat: only this seat's actions (empty unless it is the seat to act).
    :raises MalformedInputError: for a value that is not a Kopa state, or a seat that is not
        at the table.
    """
    if seat is not None or type(state) is not State or getattr(state, CHECKED, None) is not _KEY:
        _check_state(state, seat)
    return _legal_actions(state, seat)


def _legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    """:func:`legal_actions` without the entry check (:attr:`~copa_ref.core.game.Game.trusted`)."""
    phase = state.phase
    if phase is not _PLAY and phase is not _DRAWN:
        return ()
    mover = state.turn
    if seat is not None and seat != mover:
        return ()
    if phase is _DRAWN:
        drawn = state.drawn
        if drawn is None:
            # KOPA-18: the drawn phase offers the card just drawn.
            raise InvalidStateError("KOPA-18", "the drawn phase without a drawn card")
        return (_PLAYS[mover][drawn.index], _PASSES[mover])
    cards = legal_cards(state.hands[mover], state.piles, state.eights)
    if not cards:
        return _PASS_ONLY[mover]
    actions: list[Action] = list(map(_PLAY_OF[mover].__getitem__, cards))
    if not pass_refused(state.config):
        actions.append(_PASSES[mover])
    return tuple(actions)


def action_space(config: Config) -> tuple[Action, ...]:
    """Every non-chance action that can ever be legal under *config*: each seat's play of
    each card and each seat's pass, sorted by canonical JSON text."""
    check_config(config)
    actions: list[Play | Pass] = [Play(s, c) for s in range(config.players) for c in DECK]
    actions += [Pass(s) for s in range(config.players)]

    def text(action: Play | Pass) -> str:
        if isinstance(action, Play):
            return canonical_json({"card": action.card.value, "seat": action.seat,
                                   "type": "play"})
        return canonical_json({"seat": action.seat, "type": "pass"})

    return tuple(sorted(actions, key=text))


# -- apply ----------------------------------------------------------------------------------------


def _wrong_node(state: State, what: str) -> IllegalActionError:
    if state.phase is _OVER:
        return IllegalActionError("KOPA-22", f"the match is over; no {what}")
    if state.phase is _DEAL:
        # KOPA-4: every round starts with the deal.
        return IllegalActionError("KOPA-4", f"the round must be dealt first; no {what}")
    return IllegalActionError("KOPA-6", f"seat {state.turn} is to act; no {what}")


def apply(state: State, action: Action) -> State:
    """The state after *action*; a round's scoring follows the play that empties a hand.

    :raises IllegalActionError: naming the broken rule (KOPA-4, KOPA-6 to KOPA-8, KOPA-11 to
        KOPA-13, KOPA-16 to KOPA-18, KOPA-22); the state is unchanged.
    :raises MalformedInputError: for a value that is not a Kopa state, or an action whose
        fields do not have exactly their types (KOPA-1: a card is a ``Card``; ``True`` is
        not a seat; a list is not a hand).
    """
    if type(state) is not State or getattr(state, CHECKED, None) is not _KEY:
        _check_state(state)
    _check_action(action)
    return _CHECKS.built(_apply(state, action))


def _apply(state: State, action: Action) -> State:
    """:func:`apply` without the entry checks: for a state and an action whose types are
    known to be right (the rules' own, or checked by :func:`apply`)."""
    kind = type(action)
    if kind is Play:
        return _play(state, action)  # type: ignore[arg-type]
    if kind is Pass:
        return _pass(state, action)  # type: ignore[arg-type]
    if kind is Deal:
        return _deal(state, action)  # type: ignore[arg-type]
    raise _wrong_node(state, f"{kind.__name__} action")


# The input checks of the entry points: a Kopa state, a seat, an action of exact types.


def _check_state(state: object, seat: object = None) -> None:
    """*state* passes the whole :func:`check_state` (its shape, then every rule), checked
    once per state object and marked, or carries the mark of this module's checks
    (:mod:`copa_ref.core.entry`), and *seat* is ``None`` or a seat at its table: the first
    line of every entry point.

    :raises MalformedInputError: not a Kopa state, a field not shaped right, or a seat not
        at the table.
    :raises InvalidStateError: naming the first rule the state breaks.
    """
    _CHECKS.enter(state)
    if seat is not None:
        check_position(state, State, "a Kopa state", seat, _seats)


def _seats(state: State) -> int:
    return len(state.hands)


def _check_card(card: object, what: str) -> None:
    # KOPA-1: only the 60 cards exist.
    check_instance(card, Card, "a Kopa card", what)


def _check_hand(hand: object, what: str) -> None:
    check_tuple(hand, what, _check_card)


def _check_action(action: object) -> None:
    """*action* is a Kopa action whose fields have exactly their types.

    :raises MalformedInputError: otherwise.
    """
    plain = isinstance(action, Pass) or (isinstance(action, Play) and type(action.card) is Card)
    if plain and type(action.seat) is int and 0 <= action.seat < 5:  # type: ignore[attr-defined]
        return  # the common case, without the calls below
    check_instance(action, (Play, Pass, Deal), "a Kopa action")
    if isinstance(action, Play):
        check_int(action.seat, "seat")
        _check_card(action.card, "card")
    elif isinstance(action, Pass):
        check_int(action.seat, "seat")
    else:
        check_tuple(action.hands, "hands", _check_hand)  # type: ignore[attr-defined]


def _deal(state: State, action: Deal) -> State:
    if state.phase is not _DEAL:
        raise _wrong_node(state, "deal")
    n = state.config.players
    lists, size = deal_shape(n)
    rule = "KOPA-17" if n == 2 else "KOPA-4"
    hands = action.hands
    # KOPA-4 / KOPA-17: one list per hand (and the stock).
    if len(hands) != lists:
        what = "two hands and the stock" if n == 2 else f"one hand per seat ({n})"
        msg = f"a deal lists {what}: {lists} lists, got {len(hands)}"
        raise IllegalActionError(rule, msg)
    in_deck = bytearray(60)  # by card index: 1 for a card of the deck, then 2 once dealt
    for card in DECK:
        in_deck[card.index] = 1
    for k, hand in enumerate(hands):
        for card in hand:
            mark = in_deck[card.index]
            # KOPA-1: only the cards of the deck are dealt. Every Card is one of the 60, so
            # this refuses nothing under the rules as read; it is where a deck read
            # otherwise (DECK, the KOPA-1 seam) shows. Something that is no Card is not
            # shaped right (MalformedInputError, refused before).
            if not mark:
                msg = f"list {k} of the deal holds {card}, which is no card of the deck"
                raise IllegalActionError("KOPA-1", msg)
            # KOPA-4: every card dealt exactly once.
            if mark == 2:
                msg = f"{card} is dealt twice"
                raise IllegalActionError("KOPA-4", msg)
            in_deck[card.index] = 2
        # KOPA-4 / KOPA-17: the cards are dealt evenly.
        if len(hand) != size:
            msg = f"list {k} of the deal has {len(hand)} cards; with {n} players each has {size}"
            raise IllegalActionError(rule, msg)
    if 1 in in_deck:  # pragma: no cover - sizes and uniqueness imply it
        raise IllegalActionError("KOPA-4", "the deal is not the whole deck")
    dealt = tuple(tuple(sorted(hand, key=_index)) for hand in hands[:n])
    return _state(
        config=state.config,
        phase=_PLAY,
        round=state.round,
        dealer=state.dealer,
        # KOPA-5: the player to the dealer's left begins.
        turn=leader(state.dealer, n),
        hands=dealt,
        # KOPA-17: with two players the third list is the stock, top card first.
        stock=hands[2] if n == 2 else (),
        drawn=None,
        piles=((),) * 8,
        eights=(),
        penalties=(0,) * n,
        scores=state.scores,
        last_round=state.last_round,
    )


def _seat_to_act(state: State, seat: object) -> None:
    """Raise unless *seat* is the seat to act in a round in play (the callers ask only when
    the turn is not *seat*'s or no round is in play, the common case without a call)."""
    phase = state.phase
    if phase is not _PLAY and phase is not _DRAWN:
        raise _wrong_node(state, "play or pass")
    # KOPA-6: one turn at a time, clockwise.
    if seat != state.turn:
        msg = f"seat {seat} acted, but it is seat {state.turn}'s turn"
        raise IllegalActionError("KOPA-6", msg)


def _play(state: State, action: Play) -> State:
    seat = action.seat
    card = action.card
    phase = state.phase
    if seat != state.turn or (phase is not _PLAY and phase is not _DRAWN):
        _seat_to_act(state, seat)
    hands = state.hands
    hand = hands[seat]
    # KOPA-7: a card from one's own hand.
    if not holds(hand, card):
        msg = f"seat {seat} does not hold {card}"
        raise IllegalActionError("KOPA-7", msg)
    # KOPA-18: after a draw, only the drawn card may be played.
    if phase is _DRAWN and card is not state.drawn:
        msg = f"seat {seat} may play only the card it drew ({state.drawn}), not {card}"
        raise IllegalActionError("KOPA-18", msg)
    piles = state.piles
    eights = state.eights
    if card.number == 8:
        row = card.row
        # KOPA-13: the 8 only across its suit's 7 and 9.
        if not eight_ready(piles[_up_pile(row)], piles[_down_pile(row)]):
            msg = f"{card} needs its suit's 7 and 9 on the table first"
            raise IllegalActionError("KOPA-13", msg)
        eights = tuple(sorted((*eights, card), key=_row))
    else:
        place = _place(card, piles)
        if place < 0:
            raise refusal(card, piles)
        table = list(piles)  # a list, one entry set, a tuple: cheaper than slices
        table[place] = piles[place] + (card,)
        piles = tuple(table)
    try:
        at = hand.index(card)
    except ValueError:  # KOPA-7 read otherwise: a card from another hand
        new_hand = hand
    else:
        new_hand = hand[:at] + hand[at + 1:]
    held = list(hands)
    held[seat] = new_hand
    hands = tuple(held)
    if round_over(new_hand):
        return _end_round(state, hands, piles, eights, seat)
    return _state(
        config=state.config,
        phase=_PLAY,
        round=state.round,
        dealer=state.dealer,
        turn=next_seat(seat, len(hands)),
        hands=hands,
        stock=state.stock,
        drawn=None,
        piles=piles,
        eights=eights,
        penalties=state.penalties,
        scores=state.scores,
        last_round=state.last_round,
    )


def _row(card: Card) -> int:
    return card.row


def _pass(state: State, action: Pass) -> State:
    seat = action.seat
    if seat != state.turn or (state.phase is not _PLAY and state.phase is not _DRAWN):
        _seat_to_act(state, seat)
    config = state.config
    n = config.players
    hands = state.hands
    stock = state.stock
    phase = _PLAY
    turn = next_seat(seat, n)
    drawn = None
    cost = 0  # the penalty points this turn charges the seat
    if state.phase is _DRAWN:
        # KOPA-18: keeping a playable drawn card is a turn without a card (KOPA-Q6).
        if config.declined_draw is _DECLINE_COSTS:
            cost = failed_turn_penalty()
    else:
        could = legal_cards(hands[seat], state.piles, state.eights)
        if could:
            # KOPA-16: a false claim costs four more points, or is refused (KOPA-Q3).
            if pass_refused(config):
                msg = f"seat {seat} claims it cannot play but holds {could[0]}"
                raise IllegalActionError("KOPA-16", msg)
            cost = false_claim_penalty()
        if draws(n, stock):
            # KOPA-18: draw the top card of the stock; play it at once if playable, else keep
            # it and take the one-point penalty.
            card = stock[0]
            stock = stock[1:]
            hand = tuple(sorted((*hands[seat], card), key=_index))
            held = list(hands)
            held[seat] = hand
            hands = tuple(held)
            if offer_drawn(card, state.piles, state.eights):
                phase, turn, drawn = _DRAWN, seat, card
            else:
                cost += failed_turn_penalty()
        else:
            # KOPA-15: a turn without a card costs one point.
            cost += failed_turn_penalty()
    penalties = state.penalties
    if cost:
        charged = list(penalties)
        charged[seat] += cost
        penalties = tuple(charged)
    return _state(
        config=config,
        phase=phase,
        round=state.round,
        dealer=state.dealer,
        turn=turn,
        hands=hands,
        stock=stock,
        drawn=drawn,
        piles=state.piles,
        eights=state.eights,
        penalties=penalties,
        scores=state.scores,
        last_round=state.last_round,
    )


def _end_round(state: State, hands: tuple[tuple[Card, ...], ...],
               piles: tuple[tuple[Card, ...], ...], eights: tuple[Card, ...], winner: int
               ) -> State:
    config = state.config
    n = config.players
    changes = round_changes(hands, winner, state.penalties, state.stock)
    # KOPA-20: the round's points and penalties are booked.
    scores = tuple([a + b for a, b in zip(state.scores, changes, strict=True)])
    over = match_over(scores, config.target)
    # KOPA-22: the match ends when a seat reaches the target; KOPA-21: otherwise the deal
    # passes clockwise and a new round begins.
    dealer = state.dealer if over else next_dealer(state.dealer, n)
    return _state(
        config=config,
        phase=_OVER if over else _DEAL,
        round=state.round if over else state.round + 1,
        dealer=dealer,
        turn=winner if over else leader(dealer, n),
        hands=hands,
        stock=state.stock,
        drawn=None,
        piles=piles,
        eights=eights,
        penalties=state.penalties,
        scores=scores,
        last_round=changes,
    )


# -- chance, outcome, observation -----------------------------------------------------------------


def _seat_lists(state: State, cards: list[Card]) -> Deal:
    n = state.config.players
    lists, _ = deal_shape(n)
    dealt = [cards[k::lists] for k in range(lists)]  # one card at a time, round the lists
    # The k-th list is dealt to the k-th seat clockwise from the dealer's left (the stock,
    # with two players, last); the Deal lists hands in seat order.
    by_seat: list[tuple[Card, ...]] = [()] * lists
    for k in range(lists):
        target = (state.dealer + 1 + k) % n if k < n else k
        by_seat[target] = tuple(dealt[k]) if target >= n else tuple(sorted(dealt[k], key=_index))
    return Deal(tuple(by_seat))




def sample_chance(state: State, rng: random.Random) -> Deal:
    """Shuffle the deck and deal it one card at a time clockwise from the dealer's left
    (KOPA-4; with two players, the stock third in every circuit, KOPA-17).

    :raises IllegalActionError: KOPA-6 (a seat is to act) or KOPA-22 (the match is over)
        when no deal is due (a ``ValueError``).
    :raises MalformedInputError: for a value that is not a Kopa state.
    """
    _check_state(state)
    check_rng(rng)
    if state.phase is not _DEAL:
        raise _wrong_node(state, "deal is due")
    return _seat_lists(state, list(shuffled(rng, DECK)))


def chance_step(state: State, prefix: tuple[int, ...]
                ) -> tuple[tuple[int, Fraction], ...] | Action:
    """The deal broken into 60 small steps, one card each (shared contract 2).

    *prefix* holds the cards dealt so far at this chance node, by their canonical index
    (``Card.index``), in dealing order (clockwise from the dealer's left; with two players
    the stock third in every circuit). Returns the next card's outcomes (each remaining card
    by its index, probability 1 / remaining), or, once all 60 are chosen, the whole
    :class:`~copa_ref.kopa.state.Deal` they build.

    :raises IllegalActionError: when no deal is due (a ``ValueError``).
    :raises MalformedInputError: for a value that is not a Kopa state, or a *prefix* that
        names a card twice or no card.
    """
    _check_state(state)
    if state.phase is not _DEAL:
        raise _wrong_node(state, "deal is due")
    check_tuple(prefix, "prefix")
    taken: set[int] = set()
    for i in prefix:
        if type(i) is not int or not 0 <= i < 60 or i in taken:
            msg = f"the prefix names {excerpt(i)}, which is no card left to deal"
            raise MalformedInputError(msg)
        taken.add(i)
    if len(prefix) == 60:
        return _seat_lists(state, [DECK[i] for i in prefix])
    left = [i for i in range(60) if i not in taken]
    p = Fraction(1, len(left))
    return tuple((i, p) for i in left)


def outcome(state: State) -> Outcome | None:
    """The winner once a seat has reached the target (KOPA-22), else ``None``.

    :raises MalformedInputError: for a value that is not a Kopa state.
    """
    _check_state(state)
    if state.phase is not _OVER:
        return None
    scores = state.scores
    n = len(scores)
    # KOPA-22: the seat that reached the target wins (the highest, ties shared, KOPA-Q13).
    top = max(scores)
    winners = tuple(Seat(s) for s in range(n) if scores[s] == top)
    losers = tuple(Seat(s) for s in range(n) if scores[s] != top)
    return Outcome(winners=winners, losers=losers, scores=scores, rule="KOPA-22")


def observe(state: State, seat: int | None = None) -> Observation:
    """What *seat* may know: the public state and its own hand (and its drawn card);
    ``None``: the public view (KOPA-Q15).

    :raises MalformedInputError: for a value that is not a Kopa state, or a seat that is not
        at the table.
    """
    _check_state(state, seat)
    hands = state.hands
    own = seat is not None and state.turn == seat
    return Observation(
        config=state.config,
        seat=seat,
        phase=state.phase,
        round=state.round,
        dealer=state.dealer,
        turn=state.turn,
        hand=() if seat is None else hands[seat],
        drawn=state.drawn if own else None,
        hand_sizes=tuple(len(h) for h in hands),
        stock_size=len(state.stock),
        piles=arrange(state.piles),
        eights=state.eights,
        penalties=state.penalties,
        scores=state.scores,
        last_round=state.last_round,
    )


# -- validity of a whole state ---------------------------------------------------------------------


def _cards_ok(value: object) -> bool:
    """*value* is a tuple of cards."""
    return type(value) is tuple and all([type(c) is Card for c in value])


def _ints_ok(value: object) -> bool:
    """*value* is a tuple of integers within the codec's bound."""
    return type(value) is tuple and all([type(v) is int and -MAX_INT <= v <= MAX_INT
                                         for v in value])


def _int_ok(value: object) -> bool:
    """*value* is an integer within the codec's bound (``True`` is not one)."""
    return type(value) is int and -MAX_INT <= value <= MAX_INT


def _shape_problem(state: State) -> str | None:
    """What is wrong with the types and shape of *state* (a ``MalformedInputError``), or
    ``None``: every field of exactly its type, integers within the codec's bound, one entry
    per seat, the dealer and the seat to act seats at the table. The config is checked
    already."""
    n = state.config.players
    if type(state.phase) is not Phase:
        return "phase is not a Phase"
    if not (_int_ok(state.round) and _int_ok(state.dealer) and _int_ok(state.turn)):
        return "round, dealer and turn are integers"
    if not (0 <= state.dealer < n and 0 <= state.turn < n):
        return f"dealer and turn are seats at the table (0 to {n - 1})"
    penalties, scores, last_round = state.penalties, state.scores, state.last_round
    if not (_ints_ok(penalties) and _ints_ok(scores) and _ints_ok(last_round)):
        return "penalties, scores and last_round are tuples of integers"
    if len(penalties) != n or len(scores) != n or len(last_round) not in (0, n):
        return f"penalties, scores and last_round have one entry per seat ({n})"
    hands = state.hands
    if type(hands) is not tuple or len(hands) != n or not all([_cards_ok(h) for h in hands]):
        return f"hands is not one tuple of cards per seat ({n})"
    piles = state.piles
    if type(piles) is not tuple or len(piles) != 8 or not all([_cards_ok(p) for p in piles]):
        return "piles is not eight tuples of cards"
    if not _cards_ok(state.stock) or not _cards_ok(state.eights):
        return "stock or eights is not a tuple of cards"
    if state.drawn is not None and type(state.drawn) is not Card:
        return "drawn is neither null nor a card"
    return None


def _shape(state: State) -> None:
    """The shape of a Kopa state: a playable config, every field of exactly its type,
    integers within the codec's bound, one entry per seat, the dealer and the seat to act
    seats at the table.

    :raises MalformedInputError: naming the first field not shaped right.
    :raises InvalidStateError: KOPA-2/KOPA-3/KOPA-22 for a config no match is played with.
    """
    check_config(state.config)
    problem = _shape_problem(state)
    if problem is not None:
        msg = f"malformed Kopa state: {problem}"
        raise MalformedInputError(msg)


def _canonical_shape(state: State) -> None:
    """:func:`_shape`, and the state's canonical form (specs/kopa.md, State): every hand
    sorted by card code (no rule says it; a position set up by hand may ignore it, so the
    entry points do not ask).

    :raises MalformedInputError: as :func:`_shape`, or for a hand out of its order.
    """
    _shape(state)
    if any([list(h) != sorted(h, key=_index) for h in state.hands]):
        msg = "malformed Kopa state: a hand is not sorted by card code"
        raise MalformedInputError(msg)


def _unplayed(state: State) -> bool:
    """Before the first deal: nothing on the table or in a hand."""
    return (state.phase is _DEAL and not any(state.hands) and not state.stock
            and not any(state.piles) and not state.eights)


def _in_round(state: State) -> bool:
    return state.phase is _PLAY or state.phase is _DRAWN


@rule("KOPA-1")
def _deck(state: State) -> str | None:
    # KOPA-1: every card of the deck exactly once (a hand, the stock, a pile or the 8s).
    cards = [c for h in state.hands for c in h] + list(state.stock)
    cards += [c for p in state.piles for c in p] + list(state.eights)
    if not _unplayed(state) and sorted(cards, key=_index) != list(DECK):
        return "the cards in play are not exactly the deck"
    return None


@rule("KOPA-3")
def _first_round_dealer(state: State) -> str | None:
    # KOPA-3: the first round is dealt by the first dealer.
    if state.round == 1 and state.dealer != first_dealer(state.config):
        return "the first round is dealt by the first dealer"
    return None


@rule("KOPA-5")
def _round_leader(state: State) -> str | None:
    # KOPA-5: the player to the dealer's left begins the round.
    if state.phase is _DEAL and state.turn != leader(state.dealer, state.config.players):
        return "the dealer's left begins the round"
    return None


def _runs(state: State, down: bool, start: bool) -> str | None:
    """The first pile (a down-pile or an up-pile) whose first card (*start*) or later
    cards do not follow the pile's rule, in words, or None."""
    for i, pile in enumerate(state.piles):
        if _is_down_pile(i) == down:
            for k, card in enumerate(pile):
                if (k == 0) == start and card not in pile_accepts(i, pile[:k]):
                    return f"the {PILE_NAMES[i]}-pile {[str(c) for c in pile]} is no run"
    return None


@rule("KOPA-8")
def _pile_starts(state: State) -> str | None:
    # KOPA-8: a pile starts with its 1 (an up-pile) or its 15 (a down-pile).
    return _runs(state, False, True) or _runs(state, True, True)


@rule("KOPA-9")
def _up_piles(state: State) -> str | None:
    # KOPA-9: an up-pile goes on 2, 3, 4, 5, 6, 7 (KOPA-11, KOPA-12: its suit, no skipping).
    return _runs(state, False, False)


@rule("KOPA-10")
def _down_piles(state: State) -> str | None:
    # KOPA-10: a down-pile goes on 14, 13, 12, 11, 10, 9 (KOPA-11, KOPA-12 as above).
    return _runs(state, True, False)


@rule("KOPA-13")
def _eights(state: State) -> str | None:
    # KOPA-13: the 8s laid are 8s, in suit order, each across its suit's 7 and 9.
    eights, piles = state.eights, state.piles
    if list(eights) != sorted(eights, key=_row) or any(c.number != 8 for c in eights):
        return "eights are the 8s laid, in suit order"
    for card in eights:
        if not eight_ready(piles[_up_pile(card.row)], piles[_down_pile(card.row)]):
            return f"{card} lies without its 7 and 9"
    return None


@rule("KOPA-15")
def _penalties(state: State) -> str | None:
    # KOPA-15, KOPA-16: penalty points are charged, never paid back, within a round.
    if any(p < 0 for p in state.penalties):
        return "negative penalty points"
    return None


@rule("KOPA-17")
def _stock(state: State) -> str | None:
    # KOPA-17: a stock only with two players.
    if state.stock and state.config.players != 2:
        return "a stock with more than two players"
    return None


@rule("KOPA-18")
def _drawn(state: State) -> str | None:
    # KOPA-18: a drawn card exactly in the drawn phase, in the drawer's hand, playable.
    drawn = state.drawn
    if (state.phase is _DRAWN) != (drawn is not None):
        return "a drawn card exactly in the drawn phase"
    if drawn is not None and (state.config.players != 2 or drawn not in state.hands[state.turn]):
        return "the drawn card is not in the drawer's hand"
    if drawn is not None and not offer_drawn(drawn, state.piles, state.eights):
        return "a drawn card that cannot be played is kept at once"
    return None


@rule("KOPA-19")
def _round_end(state: State) -> str | None:
    # KOPA-19: a round goes on exactly while every hand holds a card.
    if _in_round(state) and not all(state.hands):
        return "a round goes on after a hand is empty"
    if not _in_round(state) and all(state.hands) and not _unplayed(state):
        return "a round ended with no empty hand"
    return None


def _rounds_scored(state: State) -> int:
    """How many rounds have been scored: those before the round being dealt or played (and
    that round too once the match is over)."""
    return state.round if state.phase is _OVER else state.round - 1


@rule("KOPA-20")
def _rounds_booked(state: State) -> str | None:
    # KOPA-20: scores change only at a round's end: none before the first is scored; once a
    # round is scored (between rounds) its changes are recorded; after one round the scores
    # are its changes. (A state resumed at a deal from given scores records no change.)
    scores, changes = state.scores, state.last_round
    scored = _rounds_scored(state)
    if scored == 0 and (any(scores) or changes):
        return "scores changed before the first round is scored"
    if scored > 0 and not _in_round(state) and not _unplayed(state) and not changes:
        return "a round was scored, but its changes are not recorded"
    if scored == 1 and changes and scores != changes:
        return f"after one round the scores {list(scores)} are not its changes"
    return None


@rule("KOPA-20")
def _booking(state: State) -> str | None:
    # KOPA-20: the last round's changes are what a round books: between rounds, for the
    # cards still held and the penalties of the round; otherwise its winner gains at most
    # the deck less its last card, less penalties, and every other seat loses its penalties.
    changes = state.last_round
    if not changes:
        return None
    if not _in_round(state) and not _unplayed(state):
        winners = [s for s, h in enumerate(state.hands) if not h]
        if len(winners) != 1 or changes != round_changes(
                state.hands, winners[0], state.penalties, state.stock):
            return (f"the cards held and the penalties {list(state.penalties)} do not book "
                    f"{list(changes)}")
        return None
    gainers = [s for s, c in enumerate(changes) if c > 0]
    if len(gainers) > 1 or (gainers and changes[gainers[0]] > len(DECK) - 1):
        return f"no round books {list(changes)}"
    return None


@rule("KOPA-21")
def _rounds(state: State) -> str | None:
    # KOPA-21: rounds are counted from 1; a finished round is followed by the next; the
    # penalty points start again from zero at each deal.
    if state.round < 1:
        return f"round {state.round}: rounds are counted from 1"
    if state.phase is _DEAL and not _unplayed(state) and state.round == 1:
        return "a finished round before round 1"
    if _unplayed(state) and any(state.penalties):
        return "penalty points before the round's deal"
    return None


@rule("KOPA-22")
def _match_end(state: State) -> str | None:
    # KOPA-22: the match goes on exactly while nobody has reached the target, and nobody
    # had before the last round was booked.
    target = state.config.target
    if (state.phase is _OVER) != match_over(state.scores, target):
        return "the match is over exactly when a seat has reached the target"
    if state.last_round and match_over(tuple([s - c for s, c in zip(
            state.scores, state.last_round, strict=True)]), target):
        return "a seat had reached the target before the last round was booked"
    return None


CHECKS: StateChecks[State] = StateChecks(
    cls=State, what="a Kopa state", shape=_canonical_shape,
    rules=(_deck, _first_round_dealer, _round_leader, _pile_starts, _up_piles, _down_piles,
           _eights, _penalties, _stock,
           _drawn, _round_end, _rounds_booked, _booking, _rounds, _match_end))
"""The checks of a Kopa state: its shape, then one check per rule in the order of
``specs/kopa.md`` (:class:`~copa_ref.core.entry.StateChecks`)."""

_CHECKS: StateChecks[State] = CHECKS
"""The entry check of every public function: the whole :data:`CHECKS`
(:mod:`copa_ref.core.entry`)."""
_KEY = _CHECKS.key
"""The mark :data:`_CHECKS` writes on a state it checked or the rules built."""


def check_state(state: State) -> None:
    """Raise the precise error for a state no legal play can produce.

    :raises MalformedInputError: for a value that is not a Kopa state, or a field of the
        wrong type or shape (an integer beyond the codec's bound included).
    :raises InvalidStateError: naming the first rule, in spec order, the state breaks.
    """
    CHECKS.check(state)


def well_formed(state: State) -> bool:
    """Whether *state* could arise from legal play (pure, total, never raises)."""
    return CHECKS.well_formed(state)


# -- text --------------------------------------------------------------------------------------


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def render(state: State) -> str:
    """A readable picture: round, dealer, scores, penalties, the table, the hands."""
    n = state.config.players
    lines = [
        f"Kopa, round {state.round}, dealer seat {state.dealer}, phase {state.phase.value}, "
        f"seat {state.turn} to act",
        "scores: " + " ".join(f"{s}:{p}" for s, p in enumerate(state.scores))
        + "  penalties: " + " ".join(f"{s}:{p}" for s, p in enumerate(state.penalties)),
    ]
    for row, name in enumerate(("Sable", "Vert", "Gules", "Or")):
        up, down = state.piles[2 * row], state.piles[2 * row + 1]
        eight = " + 8" if any(c.row == row for c in state.eights) else ""
        lines.append(f"  {name:6} up {_cards(up):28} down {_cards(down)}{eight}")
    for s in range(n):
        lines.append(f"  seat {s}: {_cards(state.hands[s])}")
    if state.stock:
        lines.append(f"  stock: {len(state.stock)} cards")
    return "\n".join(lines)
