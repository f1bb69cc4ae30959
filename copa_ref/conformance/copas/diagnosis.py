"""Copas's diagnosis code: the predicates and contexts its rule entries (:mod:`.rules`)
refer to, the findings that are searches rather than tables (:func:`lead_suit_findings`,
:func:`ended`), ``legal_rule`` and ``check_public``.

The public view shows the finished tricks with their cards and winners, the scores, the
pending seat and the hand sizes; the hands are hidden. A view rule's ``when`` is a predicate
on the divergence; the ladders' checks read a :class:`TrickDone`, a :class:`Round` or a
:class:`Missing`. Rule IDs refer to ``specs/copas.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from copa_ref.conformance.predicates import action_is, leaves, reaches
from copa_ref.conformance.vocabulary import Divergence, Finding
from copa_ref.copas import (
    GAME,
    Action,
    Card,
    Config,
    Deal,
    Observation,
    Phase,
    Play,
    State,
    legal_actions,
)
from copa_ref.copas.rules import BURST, copas_taken, deck, round_points, trick_winner
from copa_ref.copas.state import CopasLead, RankOrder, Suit, Trick
from copa_ref.core import JSON, InvariantViolation, canonical_json

__all__ = ["Missing", "Round", "TrickDone", "check_public", "ended", "lead_suit_findings",
           "legal_rule"]

CopasDivergence = Divergence[State, Action, Config, Observation]


def _pending_involved(d: CopasDivergence) -> bool:
    reported = d.reported_view
    return d.before.pending is not None or d.expected.pending is not None or (
        reported is not None and reported.pending is not None)


_round_ended = leaves(Phase.PLAY)
_over = reaches(Phase.OVER)
_dealt = action_is(Deal)


def _trick_done(d: CopasDivergence) -> bool:
    return isinstance(d.action, Play) and len(d.expected.tricks) > len(d.before.tricks)


def _first_trick(d: CopasDivergence) -> bool:
    return not d.expected.tricks or d.expected.phase is Phase.DEAL


class TrickDone:
    """The trick a card finished as the engine reports it, with its winner re-derived from
    its cards: what the trick ladder (:data:`TRICK`) compares."""

    def __init__(self, d: CopasDivergence, seen: Observation, trick: Trick,
                 players: int) -> None:
        self.d, self.seen, self.trick, self.players = d, seen, trick, players
        self.number = len(d.before.tricks) + 1
        self.plain = d.config.rank_order is RankOrder.PLAIN
        self.right = (trick.leader + trick_winner(trick.cards, self.plain)) % players

    @property
    def given(self) -> Card:
        """The card of the seat the engine gives the trick to."""
        return self.trick.cards[(self.trick.winner - self.trick.leader) % self.players]

    @property
    def best(self) -> Card:
        """The card that takes the trick."""
        return self.trick.cards[(self.right - self.trick.leader) % self.players]


def _trick(d: CopasDivergence) -> TrickDone | None:
    """The trick ladder's context: a card played that finished a trick (in the reference
    and as reported), with a decoded report whose trick can be judged."""
    seen = d.reported_view
    if seen is None or not isinstance(d.action, Play):
        return None
    done = len(d.before.tricks)
    if len(seen.tricks) <= done or len(d.expected.tricks) <= done:
        return None
    trick = seen.tricks[done]
    players = len(seen.hand_sizes)
    if not trick.cards or players < 3 or not 0 <= trick.leader < players:
        return None
    return TrickDone(d, seen, trick, players)


def _wrong_winner(t: TrickDone) -> bool:
    return t.trick.winner != t.right


def _beaten_in_suit(t: TrickDone) -> bool:
    return _wrong_winner(t) and t.given.suit is t.trick.cards[0].suit


def _winner_does_not_lead(t: TrickDone) -> bool:
    seen = t.seen
    return (not _wrong_winner(t) and seen.phase is Phase.PLAY
            and t.d.expected.phase is Phase.PLAY and seen.leader != t.trick.winner)


def _taken(tricks: tuple[Trick, ...], players: int, suit: Suit) -> tuple[int, ...]:
    """How many cards of *suit* each seat took in *tricks*."""
    count = [0] * players
    for t in tricks:
        count[t.winner] += sum(1 for c in t.cards if c.suit is suit)
    return tuple(count)


def _booked_suit(d: CopasDivergence, seen: Observation, taker: int | None) -> Suit | None:
    """The suit other than copas whose cards, as each seat took them in the reported
    tricks, give exactly the engine's booking and pending seat by the booking rules
    (COPAS-16 to COPAS-19), where the copas taken do not: the engine counts that suit as
    the penalty cards (COPAS-3). ``None`` when no suit does, or when its cards went as the
    copas went (then the booking, not the suit, is wrong)."""
    players = len(d.before.scores)
    tricks = seen.tricks
    if len(seen.last_round) != players or any(not 0 <= t.winner < players for t in tricks):
        return None
    copas = _taken(tricks, players, Suit.COPAS)
    config = d.config
    for suit in Suit:
        taken = _taken(tricks, players, suit)
        if suit is Suit.COPAS or taken == copas:
            continue
        if sum(taken) == 10:
            booked = round_points(taken, taker, d.before.pending, config.all_cards,
                                  config.bonus_other_ten, config.bonus_all_cards)
        else:
            booked = taken, None
        if booked == (seen.last_round, seen.pending):
            return suit
    return None


def _extra_penalty_card(d: CopasDivergence, seen: Observation,
                        taker: int | None) -> tuple[Card, ...]:
    """The one card other than a copa that, counted as a penalty card with the copas (a
    point to the seat that took it), gives exactly the engine's booking and pending seat by
    the booking rules (COPAS-16 to COPAS-19), where the copas alone do not: the engine
    counts that card among the penalty cards (COPAS-3), and the total it books is its
    consequence. Every card that does, in the order of the tricks (empty when none does;
    several when, say, one seat took them all)."""
    players = len(d.before.scores)
    tricks = seen.tricks
    if len(seen.last_round) != players or any(not 0 <= t.winner < players for t in tricks):
        return ()
    copas = copas_taken(tricks, players)
    config = d.config
    if round_points(copas, taker, d.before.pending, config.all_cards, config.bonus_other_ten,
                    config.bonus_all_cards) == (seen.last_round, seen.pending):
        return ()
    found: list[Card] = []
    for trick in tricks:
        for card in trick.cards:
            if card.suit is Suit.COPAS:
                continue
            taken = list(copas)
            taken[trick.winner] += 1
            booked = round_points(tuple(taken), taker, d.before.pending, config.all_cards,
                                  config.bonus_other_ten, config.bonus_all_cards)
            if booked == (seen.last_round, seen.pending):
                found.append(card)
    return tuple(found)


def _penalty_card_finding(cards: tuple[Card, ...], what: str) -> Finding:
    which = (f"the {cards[0]}" if len(cards) == 1
             else f"one more card (one of {' '.join(map(str, cards[:8]))}"
                  f"{' ...' if len(cards) > 8 else ''})")
    return Finding("COPAS-3", f"the penalty cards are the copas, and only they count; the "
                              f"engine {what} {which} as one of them")


def _penalty_suit_finding(suit: Suit, what: str) -> Finding:
    return Finding("COPAS-3", f"the penalty cards are the copas; the engine {what} the "
                              f"{suit.name.lower()} as if they were")


class Round:
    """The end of a round and its booking as the reference derives them from the reported
    tricks, beside what the engine reports: what the round ladder (:data:`ROUND`)
    compares."""

    def __init__(self, d: CopasDivergence, seen: Observation) -> None:
        self.d, self.seen, self.config = d, seen, d.config
        self.ended = d.expected.phase is not Phase.PLAY
        self.reported = seen.phase is not Phase.PLAY
        self.players = len(d.before.scores)
        self.pending = d.before.pending

    @functools.cached_property
    def suit_ending(self) -> Suit | None:
        """The suit the engine ends the round on as if its cards were the penalty cards."""
        return _booked_suit(self.d, self.seen, None) if self.reported else None

    @functools.cached_property
    def card_ending(self) -> tuple[Card, ...]:
        """The cards the engine ends the round on as if one were a penalty card."""
        return (_extra_penalty_card(self.d, self.seen, None)
                if self.reported and self.suit_ending is None else ())

    @functools.cached_property
    def copas(self) -> tuple[int, ...]:
        return copas_taken(self.seen.tricks, self.players)

    @functools.cached_property
    def taker(self) -> int | None:
        """The seat that took every trick (``None``: none did)."""
        tricks = self.seen.tricks
        winners = {t.winner for t in tricks}
        return tricks[0].winner if len(winners) == 1 and not sum(self.seen.hand_sizes) else None

    @functools.cached_property
    def booking(self) -> tuple[tuple[int, ...], int | None]:
        """The points booked and the seat left pending, by the booking rules."""
        config = self.config
        return round_points(self.copas, self.taker, self.pending, config.all_cards,
                            config.bonus_other_ten, config.bonus_all_cards)

    @property
    def ten(self) -> int | None:
        """The seat that took all ten copas (``None``: none did)."""
        return self.copas.index(10) if 10 in self.copas else None

    @functools.cached_property
    def wrong(self) -> list[int]:
        """The seats the engine books otherwise."""
        booked = self.booking[0]
        return [s for s in range(self.players) if booked[s] != self.seen.last_round[s]]

    @functools.cached_property
    def suit_booked(self) -> Suit | None:
        return _booked_suit(self.d, self.seen, self.taker)

    @functools.cached_property
    def card_booked(self) -> tuple[Card, ...]:
        return _extra_penalty_card(self.d, self.seen, self.taker)

    @property
    def text(self) -> str:
        """The booking from the reported tricks beside the engine's."""
        (booked, new_pending), seen = self.booking, self.seen
        return (f"from the reported tricks the round books {list(booked)} and leaves "
                f"{'no seat' if new_pending is None else f'seat {new_pending}'} pending; the "
                f"engine books {list(seen.last_round)}, pending "
                f"{'none' if seen.pending is None else f'seat {seen.pending}'}")

    @property
    def added(self) -> tuple[int, ...]:
        return tuple(a + b for a, b in zip(self.d.before.scores, self.seen.last_round,
                                           strict=True))

    @property
    def dealer(self) -> int:
        """The next round's dealer."""
        return (self.d.before.dealer + 1) % self.players


def _round(d: CopasDivergence) -> Round | None:
    """The round ladder's context: a card played, with a decoded report."""
    seen = d.reported_view
    if seen is None or not isinstance(d.action, Play):
        return None
    return Round(d, seen)


def _end_differs(r: Round) -> bool:
    return r.ended != r.reported


def _ends_on_suit(r: Round) -> bool:
    return _end_differs(r) and r.suit_ending is not None


def _ends_on_card(r: Round) -> bool:
    return _end_differs(r) and bool(r.card_ending)


def _ends_early(r: Round) -> bool:
    return _end_differs(r) and r.reported


def _plays_on(r: Round) -> bool:
    return _end_differs(r)


def _still_playing(r: Round) -> bool:
    return not r.ended


def _unreadable(r: Round) -> bool:
    players, seen, tricks = r.players, r.seen, r.seen.tricks
    unplayed = sum(seen.hand_sizes) > 0 and not r.config.end_when_copas_out
    return len(seen.last_round) != players or len(seen.scores) != players or not tricks or any(
        not 0 <= t.winner < players for t in tricks) or unplayed


def _not_ten_copas(r: Round) -> bool:
    return sum(r.copas) != 10


def _booked_otherwise(r: Round) -> bool:
    return r.booking != (r.seen.last_round, r.seen.pending)


def _books_suit(r: Round) -> bool:
    return _booked_otherwise(r) and r.suit_booked is not None


def _books_card(r: Round) -> bool:
    return _booked_otherwise(r) and bool(r.card_booked)


def _every_trick(r: Round) -> bool:
    taker, new_pending = r.taker, r.booking[1]
    return _booked_otherwise(r) and taker is not None and (
        any(s != taker for s in r.wrong) or new_pending != r.seen.pending)


def _bonus_round(r: Round) -> bool:
    pending, new_pending = r.pending, r.booking[1]
    return _booked_otherwise(r) and pending is not None and (pending in r.wrong or (
        r.ten == pending and new_pending != r.seen.pending))


def _all_ten(r: Round) -> bool:
    ten = r.ten
    return _booked_otherwise(r) and ten is not None and ten != r.taker and (
        ten in r.wrong or r.booking[1] != r.seen.pending)


def _scores_added(r: Round) -> bool:
    return r.added != r.seen.scores


def _burst(r: Round) -> bool:
    return (max(r.seen.scores) >= BURST) != (r.seen.phase is Phase.OVER)


def _next_dealer(r: Round) -> bool:
    seen = r.seen
    return max(seen.scores) < BURST and (
        seen.dealer != r.dealer or seen.round != r.d.before.round + 1)


def _next_leader(r: Round) -> bool:
    return max(r.seen.scores) < BURST and r.seen.leader != (r.dealer + 1) % r.players


def _outcome_findings(d: CopasDivergence, seen: Observation) -> Iterator[Finding]:
    """The losers and winners, re-derived from the reported scores (COPAS-21)."""
    if not any(p.startswith("outcome") for p in d.differing) or seen.phase is not Phase.OVER:
        return
    scores = seen.scores
    top = max(scores)
    losers = [s for s, x in enumerate(scores) if x == top]
    rest = [x for s, x in enumerate(scores) if x != top]
    winners = [s for s, x in enumerate(scores) if rest and x == min(rest)]
    yield Finding("COPAS-21", f"with the scores {list(scores)} the highest total loses "
                              f"(seats {losers}) and the lowest total wins (seats {winners})")


class Missing:
    """Legal cards the engine leaves out (and none it adds) at a play: what the legal
    ladder (:data:`LEGAL`) names by the situation."""

    def __init__(self, d: CopasDivergence, mover: int, missing: int) -> None:
        self.d, self.state, self.mover, self.missing = d, d.expected, mover, missing
        self.hand = d.expected.hands[mover]


def _missing(d: CopasDivergence) -> Missing | None:
    """The legal ladder's context: only the legal actions differ, at a play, and the engine
    lists fewer cards than the reference and no other."""
    state = d.expected
    if set(d.differing) != {"legal"} or state.phase is not Phase.PLAY:
        return None
    mover = (state.leader + len(state.trick)) % len(state.hands)
    listed = d.reported.legal.get(mover, d.reported.legal.get(None))
    if listed is None:
        return None
    shown = {canonical_json(a) for a in listed}
    wanted = {canonical_json(GAME.to_json(a)) for a in legal_actions(state, mover)}
    missing = wanted - shown
    if not missing or shown - wanted:
        return None
    return Missing(d, mover, len(missing))


def _a_lead(m: Missing) -> bool:
    return not m.state.trick


def _holds_led_suit(m: Missing) -> bool:
    return any(c.suit is m.state.trick[0].suit for c in m.hand)


def _void_in_led_suit(m: Missing) -> bool:
    return not _holds_led_suit(m)


def _lead_cards(state: State, hand: tuple[Card, ...], suit: Suit) -> tuple[Card, ...]:
    """The cards *hand* may lead under copas_lead=broken were *suit* the penalty suit: none
    of it before one was played in the round, unless the hand holds nothing else."""
    if any(c.suit is suit for t in state.tricks for c in t.cards):
        return hand
    others = tuple(c for c in hand if c.suit is not suit)
    return others or hand


def lead_suit_findings(d: CopasDivergence) -> Iterator[Finding]:
    """Under copas_lead=broken the cards an engine lets a leader lead show which suit it
    protects: when that is another suit than copas, it takes that suit for the penalty
    cards (COPAS-3)."""
    state = d.expected
    if (set(d.differing) != {"legal"} or state.phase is not Phase.PLAY or state.trick
            or d.config.copas_lead is not CopasLead.BROKEN):
        return
    mover = state.leader
    listed = d.reported.legal.get(mover, d.reported.legal.get(None))
    if listed is None:
        return
    shown = {canonical_json(a) for a in listed}
    hand = state.hands[mover]
    for suit in Suit:
        if suit is Suit.COPAS:
            continue
        cards = _lead_cards(state, hand, suit)
        if {canonical_json(GAME.to_json(Play(mover, c))) for c in cards} == shown:
            yield _penalty_suit_finding(suit, f"keeps seat {mover} from leading")
            return


def ended(d: CopasDivergence) -> Iterator[Finding]:
    seen = d.reported_view
    if seen is None or not isinstance(d.action, Play):
        return
    yield from _outcome_findings(d, seen)


def legal_rule(state: State, action: Action) -> str | None:
    """The rule that makes a legal Copas action legal here: a deal by the deck and the
    hands of COPAS-4 (three players) or COPAS-6; a card by COPAS-11 when it follows the led
    suit, by COPAS-12 when its seat holds none of it or leads, by COPAS-15 when it leads a
    copa under copas_lead=broken."""
    if isinstance(action, Deal):
        return "COPAS-4" if len(state.hands) == 3 else "COPAS-6"
    if not isinstance(action, Play):
        return None
    if not state.trick:
        if state.config.copas_lead is CopasLead.BROKEN and action.card.suit is Suit.COPAS:
            return "COPAS-15"
        return "COPAS-12"
    return "COPAS-11" if action.card.suit is state.trick[0].suit else "COPAS-12"


def check_public(before: JSON | None, action: JSON | None, after: JSON) -> None:
    """Cards add up in a reported public view: in play, hand sizes plus the trick plus the
    finished tricks make the deck, no card shows twice, and hands are equal at a trick's
    start (COPAS-1, COPAS-6, COPAS-14)."""
    players = after["config"]["players"]
    shown = list(after["trick"]) + [c for t in after["tricks"] for c in t["cards"]]
    if len(shown) != len(set(shown)):
        raise InvariantViolation("COPAS-1", "a card shows twice in the tricks")
    if after["phase"] != "play":
        return
    total = sum(after["hand_sizes"]) + len(shown)
    if total != len(deck(players)):
        msg = f"{total} cards in hands and tricks, the deck has {len(deck(players))}"
        raise InvariantViolation("COPAS-6", msg)
    if not after["trick"] and len(set(after["hand_sizes"])) != 1:
        raise InvariantViolation("COPAS-14", f"unequal hands {after['hand_sizes']} "
                                 "at the start of a trick")
