"""Copas' scenarios: following suit and discarding, the bonus round, all the cards, bursting,
and the house-rule options of ``specs/copas.md``. The rare hands (one seat taking all ten
copas, or every trick) come from deals arranged on purpose; the rest from seeded random play.

Rule IDs refer to ``specs/copas.md``.
"""

from __future__ import annotations

from typing import Any

import attrs

from copa_ref.conformance.copas.diagnosis import check_public, legal_rule
from copa_ref.conformance.copas.rules import CATALOGUE, READINGS, RULES, VIEW_RULES, diagnose
from copa_ref.conformance.predicates import first_deal, first_of
from copa_ref.conformance.vocabulary import CountSpec, GameRecord, RandomGames, Scenario
from copa_ref.copas import GAME, Action, Config, Observation, Phase, Play, State
from copa_ref.copas.rules import deck, hand_size
from copa_ref.copas.state import AllCards, BonusAllCards, BonusOtherTen, CopasLead, RankOrder
from copa_ref.core import MoverKind

__all__ = ["RECORD"]

RANKS = ["2", "3", "4", "5", "6", "Q", "J", "K", "7", "A"]


def _code(card: Any) -> str:
    value: str = card.value
    return value


def events(before: State, action: Any, after: State) -> frozenset[str]:
    """The rules one Copas step exercises."""
    rules: set[str] = set()
    if not isinstance(action, Play):
        rules |= {"COPAS-1", "COPAS-4", "COPAS-5", "COPAS-6"}
        if before.round > 1:
            rules.add("COPAS-7")
        return frozenset(rules)
    rules |= {"COPAS-9", "COPAS-10"}
    if not before.trick:
        rules.add("COPAS-12")
        if not before.tricks:
            rules.add("COPAS-8")
    else:
        led = _code(before.trick[0])[1]
        rules.add("COPAS-11" if _code(action.card)[1] == led else "COPAS-12")
    if len(after.tricks) > len(before.tricks) or after.phase is not Phase.PLAY:
        rules |= {"COPAS-2", "COPAS-13"}
    if before.phase is Phase.PLAY and after.phase is not Phase.PLAY:
        rules |= {"COPAS-3", "COPAS-14", "COPAS-16"}
        if after.pending is not None and after.pending != before.pending:
            rules.add("COPAS-17")
        if before.pending is not None:
            rules.add("COPAS-18")
        if after.last_round.count(10) == len(after.last_round) - 1 and sum(
                after.last_round) >= 10 * (len(after.last_round) - 1):
            rules.add("COPAS-19")
    if after.phase is Phase.OVER:
        rules |= {"COPAS-20", "COPAS-21"}
    return frozenset(rules)


def _arranged(first: list[str], second: list[str] | None = None) -> Any:
    """A policy dealing round 1 (4 players): seat 1, who leads, gets *first*; seat 2 gets
    *second* (if given) topped up; the rest of the deck goes round in order."""

    def deal(game: Any, state: State) -> Any:
        rest = [_code(c) for c in deck(4) if _code(c) not in first + (second or [])]
        size = hand_size(4)
        hands: list[list[str]] = [[], list(first), list(second or []), []]
        for seat in (0, 2, 3):
            while len(hands[seat]) < size:
                hands[seat].append(rest.pop(0))
        return game.action_from_json({"type": "deal", "hands": hands})
    return first_deal(deal)


def _leader_plays_high(game: Any, state: State, rng: Any) -> Any:
    """Seat 1 plays its strongest legal card, copas first (to take every copa)."""
    if state.phase is not Phase.PLAY or game.to_move(state).seats != (1,):
        return None
    legal = game.legal_actions(state, 1)
    return max(legal, key=lambda a: (_code(a.card)[1] == "c", RANKS.index(_code(a.card)[0])))


ALL_COPAS = [f"{r}c" for r in RANKS]
NINE_COPAS_AND_2P = [f"{r}c" for r in RANKS[1:]] + ["2p"]
BONUS_ROUND_EVERY_TRICK = [
    [f"{r}e" for r in RANKS],
    [f"{r}{s}" for s in "pc" for r in RANKS[5:]],
    [f"{r}{s}" for s in "pc" for r in RANKS[:5]],
    [f"{r}o" for r in RANKS],
]
"""The bonus round's deal (dealer 1, seat 2 leads): the pending seat 1 holds the five best
paus and copas, seat 2 the five lowest of each, so seat 1 takes every trick."""


def _bonus_round_deal(game: Any, state: State, rng: Any) -> Any:
    if game.to_move(state).kind is not MoverKind.CHANCE or state.round != 2:
        return None
    return game.action_from_json({"type": "deal", "hands": BONUS_ROUND_EVERY_TRICK})

Hands = dict[int, list[str]]
"""Cards a round's deal gives to some seats; the rest of the deck goes round in order."""


def _strongest(game: Any, state: State, seat: int) -> Any:
    """The seat's strongest legal card, copas first (to take every copa it can)."""
    legal = game.legal_actions(state, seat)
    return max(legal, key=lambda a: (_code(a.card)[1] == "c", RANKS.index(_code(a.card)[0])))


def _deal_of(state: State, fixed: Hands, rng: Any = None) -> list[list[str]]:
    """The deal giving the *fixed* cards, the rest of the deck round the seats in order
    (shuffled first with *rng*, when given)."""
    n = state.config.players
    size = hand_size(n)
    taken = {card for cards in fixed.values() for card in cards}
    hands = [list(fixed.get(seat, [])) for seat in range(n)]
    rest = [_code(c) for c in deck(n) if _code(c) not in taken]
    if rng is not None:
        rng.shuffle(rest)
    seat = 0
    for card in rest:
        while len(hands[seat]) >= size:
            seat = (seat + 1) % n
        hands[seat].append(card)
        seat = (seat + 1) % n
    return hands


@attrs.frozen
class _Plan:
    """How one round goes: who is dealt what, and who plays its strongest cards."""

    hands: Any
    """``state -> Hands`` at the round's deal (``state.leader`` leads the round)."""
    taker: Any = None
    """``state -> seat`` that plays its strongest card, copas first (else random play)."""
    opening: str | None = None
    """The card the leader leads to the round's first trick."""
    keep_clubs: bool = False
    """Whether the other seats keep their clubs (and copas) while they can, so that the
    taker's 2p loses the last trick."""


def _all_tricks(state: State) -> Hands:
    # The leader holds every copa (and, with three, the aces besides): every trick is his.
    extra = ["Ap", "Ae", "Ao"] if state.config.players == 3 else []
    return {state.leader: ALL_COPAS + extra}


def _ten_copas(state: State) -> Hands:
    # The leader takes all ten copas (the 2c falls to his ace) but loses the last trick.
    return {state.leader: NINE_COPAS_AND_2P, (state.leader + 1) % 4: ["2c"]}


def _ten_again(state: State) -> Hands:
    # The pending seat wins the 3p the leader opens with its Ap, then draws every copa with
    # its eight highest, and loses the last trick with its 2p.
    assert state.pending is not None
    third = next(s for s in range(4) if s not in (state.pending, state.leader))
    return {state.pending: ["Ap", "2p"] + [f"{r}c" for r in RANKS[2:]],
            state.leader: ["3p", "2c"], third: ["3c"]}


def _spread(state: State) -> Hands:
    # The seat across from the leader holds every copa and never leads: each trick's winner
    # takes the one copa it discards.
    return {(state.leader + 2) % 4: ALL_COPAS}


ALL_TRICKS = _Plan(_all_tricks)
TEN_COPAS = _Plan(_ten_copas, taker=lambda s: (s.dealer + 1) % 4, keep_clubs=True)
TEN_AGAIN = _Plan(_ten_again, taker=lambda s: s.pending, opening="3p", keep_clubs=True)
SPREAD = _Plan(_spread)


def _planned(plans: dict[int, _Plan]) -> Any:
    """A policy playing the rounds in *plans* (by round number) as planned."""

    def policy(game: Any, state: State, rng: Any) -> Any:
        plan = plans.get(state.round)
        if plan is None or state.phase is Phase.OVER:
            return None
        if state.phase is Phase.DEAL:
            return game.action_from_json({"type": "deal",
                                          "hands": _deal_of(state, plan.hands(state), rng)})
        mover = game.to_move(state).seats[0]
        if plan.opening is not None and not state.tricks and not state.trick:
            return game.action_from_json({"type": "play", "seat": mover,
                                          "card": plan.opening})
        if plan.taker is not None and mover == plan.taker(state):
            return _strongest(game, state, mover)
        if plan.keep_clubs:
            legal = game.legal_actions(state, mover)
            return min(legal, key=lambda a: ("cp".find(_code(a.card)[1]),
                                             RANKS.index(_code(a.card)[0])))
        return None
    return policy


def _round_of(number: int, test: Any = None) -> Any:
    """Fires when round *number* ends (and *test(before, after)* holds)."""
    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        return (before.phase is Phase.PLAY and after.phase is not Phase.PLAY
                and before.round == number and (test is None or bool(test(before, after))))
    return fires


def _burst(test: Any) -> Any:
    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        burst = sorted((s for s in after.scores if s >= 51), reverse=True)
        return after.phase is Phase.OVER and len(burst) >= 2 and bool(test(burst))
    return fires


SIX_ALL_TRICKS = dict.fromkeys(range(1, 7), ALL_TRICKS)
"""Six rounds in which the leader takes every trick: seats 0 and 3 end on exactly 50."""


def _round_ends(test: Any) -> Any:
    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        return before.phase is Phase.PLAY and after.phase is not Phase.PLAY and bool(
            test(before, after))
    return fires


def _play_where(test: Any) -> Any:
    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        return isinstance(action, Play) and bool(test(before, action, after))
    return fires


def _discard(before: State, action: Any, after: State) -> bool:
    return bool(before.trick) and _code(action.card)[1] != _code(before.trick[0])[1]


def _q_and_j_decide(order: str) -> Any:
    """A trick where the Q and the J of the led suit are its two strongest cards of that
    suit (in *order*, weakest first), so that the order of the two decides who takes it."""

    def test(before: State, action: Any, after: State) -> bool:
        if len(after.tricks) <= len(before.tricks):
            return False
        cards = [_code(c) for c in after.tricks[-1].cards]
        led = cards[0][1]
        ranks = [c[0] for c in cards if c[1] == led]
        if "Q" not in ranks or "J" not in ranks:
            return False
        return max(ranks, key=order.index) in "QJ" and sorted(
            ranks, key=order.index)[-2] in "QJ"
    return test


def _copas_out_early(before: State, action: Any, after: State) -> bool:
    return before.phase is Phase.PLAY and after.phase is not Phase.PLAY and sum(
        len(h) for h in before.hands) > 1


def candidates(game: Any, state: State) -> Any:
    """Every card of the mover's hand that the rules do not let him play here; at a
    three-player deal, a deal that keeps the two of clubs."""
    if state.phase is Phase.DEAL and state.config.players == 3:
        hands = _deal_of(state, {})
        hands[0][0] = "2p"
        yield ("two-of-clubs-with-three", f"a three-player deal giving seat 0 the 2p instead "
               f"of the {_deal_of(state, {})[0][0]}", {"type": "deal", "hands": hands})
    if state.phase is not Phase.PLAY:
        return
    mover = game.to_move(state).seats[0]
    legal = {_code(a.card) for a in game.legal_actions(state, mover)}
    for card in state.hands[mover]:
        if _code(card) not in legal:
            yield ("card-not-allowed", f"seat {mover} plays {_code(card)} from its hand",
                   {"type": "play", "seat": mover, "card": _code(card)})


RECORD: GameRecord[State, Action, Config, Observation] = GameRecord(
    game=GAME,
    random_games=(
        RandomGames("4p", Config(), (1,)),
        RandomGames("3p", Config(players=3), (1,)),
        RandomGames("5p", Config(players=5), (1,)),
    ),
    whole_game_rules=("COPAS-1", "COPAS-2", "COPAS-3", "COPAS-4", "COPAS-5", "COPAS-6",
                      "COPAS-7", "COPAS-8", "COPAS-9", "COPAS-10", "COPAS-11", "COPAS-12",
                      "COPAS-13", "COPAS-14", "COPAS-15", "COPAS-16", "COPAS-20", "COPAS-21",
                      "COPAS-22"),
    scenarios=(
        Scenario("discard-when-void", "A seat without the led suit discards another suit",
                 ("COPAS-11", "COPAS-12"), Config(), _play_where(_discard)),
        Scenario("queen-against-jack", "A trick where the Q and the J are the two strongest "
                 "cards of the led suit: in the printed order the J takes it (it would go to "
                 "the Q were the two swapped)", ("COPAS-2", "COPAS-13"), Config(),
                 _play_where(_q_and_j_decide("23456QJK7A"))),
        Scenario("queen-against-jack-plain", "The Q and the J are the two strongest cards of "
                 "the led suit under the plain rank order (COPAS-Q1): the Q takes the trick",
                 ("COPAS-2", "COPAS-13"), Config(rank_order=RankOrder.PLAIN),
                 _play_where(_q_and_j_decide("234567JQKA"))),
        Scenario("first-round-scored", "The first round ends and each seat books its copas",
                 ("COPAS-3", "COPAS-14", "COPAS-16"), Config(),
                 _round_ends(lambda b, a: True), extra=1),
        Scenario("all-tricks", "One seat takes every trick (it holds all ten copas and leads): "
                 "every other seat books 10 and no bonus round follows",
                 ("COPAS-19",), Config(), _round_ends(lambda b, a: True),
                 policy=_arranged(ALL_COPAS)),
        Scenario("all-tricks-bonus-reading", "One seat takes every trick under the reading "
                 "that also gives a bonus round (COPAS-Q6)", ("COPAS-17", "COPAS-19"),
                 Config(all_cards=AllCards.OTHERS_TEN_AND_BONUS), _round_ends(lambda b, a: True),
                 policy=_arranged(ALL_COPAS)),
        Scenario("all-ten-copas-bonus-round", "One seat takes all ten copas but not every "
                 "trick: nothing is booked and its bonus round follows; the bonus round is "
                 "then played out and scored", ("COPAS-17", "COPAS-18"), Config(),
                 _round_ends(lambda b, a: b.pending is not None),
                 policy=first_of(_arranged(NINE_COPAS_AND_2P, ["2c"]), _leader_plays_high)),
        Scenario("bonus-round-every-trick", "The pending seat takes every trick of its "
                 "bonus round: it took all ten again and books 20, every other seat 10 "
                 "(COPAS-Q14)", ("COPAS-18", "COPAS-19"), Config(),
                 _round_ends(lambda b, a: b.pending is not None),
                 policy=first_of(_arranged(NINE_COPAS_AND_2P, ["2c"]), _bonus_round_deal,
                             _leader_plays_high)),
        Scenario("bonus-round-every-trick-pending-ten", "The pending seat takes every trick "
                 "of its bonus round under bonus_all_cards=pending_ten (COPAS-Q14): it books "
                 "its pending 10, every other seat 10", ("COPAS-18", "COPAS-19"),
                 Config(bonus_all_cards=BonusAllCards.PENDING_TEN),
                 _round_ends(lambda b, a: b.pending is not None),
                 policy=first_of(_arranged(NINE_COPAS_AND_2P, ["2c"]), _bonus_round_deal,
                             _leader_plays_high)),
        Scenario("all-ten-copas-book-reading", "All ten copas under the bonus_other_ten=book "
                 "reading (COPAS-Q5)", ("COPAS-17",), Config(bonus_other_ten=BonusOtherTen.BOOK),
                 _round_ends(lambda b, a: a.pending is not None),
                 policy=first_of(_arranged(NINE_COPAS_AND_2P, ["2c"]), _leader_plays_high)),
        Scenario("round-ends-when-copas-out", "With end_when_copas_out (COPAS-Q4) the round "
                 "ends with the trick that brings the last copa out", ("COPAS-14",),
                 Config(end_when_copas_out=True), _play_where(_copas_out_early)),
        Scenario("first-round-copas-lead-broken", "A first round under copas_lead=broken "
                 "(COPAS-Q4): no copa is led before one has been played",
                 ("COPAS-15",), Config(copas_lead=CopasLead.BROKEN),
                 _round_ends(lambda b, a: True)),
        Scenario("burst", "A seat reaches 51 minus points: the match ends, the highest burst "
                 "total loses, the lowest total wins", ("COPAS-20", "COPAS-21"), Config(),
                 lambda b, a, af, e: af.phase is Phase.OVER),
        Scenario("first-dealer-2", "The first round dealt by seat 2 (first_dealer, COPAS-Q8): "
                 "seat 3, the shuffler, leads", ("COPAS-5", "COPAS-8"), Config(first_dealer=2),
                 lambda b, a, af, e: len(af.tricks) == 1),
        Scenario("bonus-round-erased", "All ten copas to one seat, then its bonus round, in "
                 "which it takes no copa: its ten are erased", ("COPAS-17", "COPAS-18"), Config(),
                 _round_of(2, lambda b, a: a.last_round[b.pending] == 0
                           and b.pending is not None and a.pending is None and max(
                               a.last_round) < 10),
                 policy=_planned({1: TEN_COPAS})),
        Scenario("bonus-round-booked", "All ten copas to one seat, then its bonus round, in "
                 "which it takes some copas: it books 10 and those", ("COPAS-17", "COPAS-18"),
                 Config(), _round_of(2, lambda b, a: 10 < a.last_round[b.pending] < 20),
                 policy=_planned({1: TEN_COPAS})),
        Scenario("bonus-round-ten-again", "The pending seat takes all ten copas again in its "
                 "bonus round (not every trick): it books 20 and no bonus round follows",
                 ("COPAS-17", "COPAS-18"), Config(), _round_of(2), extra=1,
                 policy=_planned({1: TEN_COPAS, 2: TEN_AGAIN})),
        Scenario("bonus-round-other-ten", "Another seat takes all ten copas in a bonus round: "
                 "the pending seat's ten are erased and the other's bonus round follows "
                 "(bonus_other_ten=new_bonus, COPAS-Q5)", ("COPAS-17", "COPAS-18"), Config(),
                 _round_of(2), extra=1, policy=_planned({1: TEN_COPAS, 2: TEN_COPAS})),
        Scenario("bonus-round-other-ten-book", "Another seat takes all ten copas in a bonus "
                 "round under bonus_other_ten=book (COPAS-Q5): it books them, no bonus round",
                 ("COPAS-17", "COPAS-18"), Config(bonus_other_ten=BonusOtherTen.BOOK),
                 _round_of(2), extra=1, policy=_planned({1: TEN_COPAS, 2: TEN_COPAS})),
        Scenario("bonus-round-all-tricks", "Another seat takes every trick in a bonus round: "
                 "every other seat books 10 (the pending seat too: COPAS-19 over COPAS-18)",
                 ("COPAS-18", "COPAS-19"), Config(), _round_of(2), extra=1,
                 policy=_planned({1: TEN_COPAS, 2: ALL_TRICKS})),
        Scenario("three-players-all-tricks", "A three-player round (39 cards, no 2p) in which "
                 "the leader takes every trick", ("COPAS-4", "COPAS-6", "COPAS-19"),
                 Config(players=3), _round_of(1), extra=1, policy=_planned({1: ALL_TRICKS})),
        Scenario("exactly-50", "Six rounds in which the leader takes every trick leave two "
                 "seats on exactly 50: nobody has burst, the match goes on", ("COPAS-20",),
                 Config(), _round_of(6), extra=1, policy=_planned(SIX_ALL_TRICKS)),
        Scenario("burst-different-totals", "Two seats burst in the same round with different "
                 "totals: only the higher loses", ("COPAS-20", "COPAS-21"), Config(),
                 _burst(lambda burst: burst[0] != burst[1] and burst[-1] == 51),
                 policy=_planned({**SIX_ALL_TRICKS, 7: SPREAD})),
        Scenario("burst-equal-totals", "Two seats burst in the same round on the same total: "
                 "both lose", ("COPAS-20", "COPAS-21"), Config(),
                 _burst(lambda burst: burst[0] == burst[1]),
                 policy=_planned({**SIX_ALL_TRICKS, 7: SPREAD})),
    ),
    counts=(
        CountSpec("first-trick-4p", "The first trick after a seeded deal",
                  ("COPAS-9", "COPAS-11", "COPAS-12"), Config(), 4,
                  lambda b, a, af, e: b.phase is Phase.DEAL),
        CountSpec("mid-round-4p", "Five tricks into the first round",
                  ("COPAS-11", "COPAS-12", "COPAS-13"), Config(), 4,
                  lambda b, a, af, e: len(af.tricks) == 5 and not af.trick and af.round == 1),
        CountSpec("copas-lead-broken", "The first lead under copas_lead=broken",
                  ("COPAS-15",), Config(copas_lead=CopasLead.BROKEN), 3,
                  lambda b, a, af, e: b.phase is Phase.DEAL),
    ),
    events=events,
    check_public=check_public,
    candidates=candidates,
    rejection_games=3,
    rules=RULES,
    view_rules=VIEW_RULES,
    readings=READINGS,
    catalogue=CATALOGUE,
    diagnose=diagnose,
    config_rule=lambda _config: "COPAS-4",
    legal_rule=legal_rule,
    bad_configs=({"players": 6}, {"first_dealer": 4}),
)
"""Copas' scenarios."""
