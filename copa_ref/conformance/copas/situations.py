"""Copas' rare situations (besides each rule's ``<RULE>/fires``): one seat taking every
trick, all ten copas, a five-player bonus round, a score of exactly the limit, a tie among
the burst seats. See :mod:`copa_ref.conformance.explore.situations`.
"""

from __future__ import annotations

import random
from typing import Any

from copa_ref.conformance.explore.situations import Situation
from copa_ref.copas import Config, Phase, Play, State, Suit
from copa_ref.copas.rules import deck, hand_size, strength
from copa_ref.copas.state import AllCards, RankOrder

__all__ = ["PROGRESS", "REQUIRES", "SITUATIONS"]

LIMIT = 50
"""The highest total that has not burst (COPAS-20: 51 minus points or more ends the match)."""


def _round_ends(before: State, after: State) -> bool:
    return before.phase is Phase.PLAY and after.phase is not Phase.PLAY


def _taken(state: State) -> list[int]:
    """The copas each seat has taken so far this round."""
    taken = [0] * state.config.players
    for trick in state.tricks:
        taken[trick.winner] += sum(1 for c in trick.cards if c.suit is Suit.COPAS)
    return taken


def _concentration(state: State) -> float:
    """How near one seat is to taking every copa of the round (the others took none)."""
    if state.phase is not Phase.PLAY:
        return 0.0
    taken = _taken(state)
    best = max(taken)
    return 2.0 * best - 4.0 * (sum(taken) - best)


def _one_taker(state: State) -> float:
    """How many tricks one seat has taken, none lost (minus a lot once two seats took one)."""
    if state.phase is not Phase.PLAY or not state.tricks:
        return 0.0
    winners = {t.winner for t in state.tricks}
    return float(len(state.tricks)) if len(winners) == 1 else -100.0


def _strong_first(state: State) -> list[Any]:
    """The deck's cards, copas strongest first, then the aces, then the rest weakest first."""
    plain = state.config.rank_order is RankOrder.PLAIN
    cards = list(deck(state.config.players))
    copas = sorted((c for c in cards if c.suit is Suit.COPAS),
                   key=lambda c: -strength(c, plain))
    aces = [c for c in cards if c.suit is not Suit.COPAS and strength(c, plain) == 9]
    rest = sorted((c for c in cards if c not in copas and c not in aces),
                  key=lambda c: strength(c, plain))
    return copas + aces + rest


def _deal(game: Any, state: State, first: list[Any], rng: random.Random) -> Any:
    """A deal giving the round's leader *first*, the rest of the deck shuffled round."""
    n, size = state.config.players, hand_size(state.config.players)
    rest = [c for c in deck(n) if c not in first]
    rng.shuffle(rest)
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[state.leader] = [c.value for c in first]
    for seat in range(n):
        while len(hands[seat]) < size:
            hands[seat].append(rest.pop().value)
    return game.action_from_json({"type": "deal", "hands": hands})


def _every_trick_deal(game: Any, state: State, rng: random.Random) -> Any:
    """The leader holds the strongest copas (and then the aces): every trick is his."""
    if state.phase is not Phase.DEAL:
        return None
    return _deal(game, state, _strong_first(state)[:hand_size(state.config.players)], rng)


def _ten_copas_deal(game: Any, state: State, rng: random.Random) -> Any:
    """The leader holds the strongest copas but one card and the weakest card of the deck:
    he can take every copa and still lose a trick."""
    if state.phase is not Phase.DEAL:
        return None
    ordered = _strong_first(state)
    size = hand_size(state.config.players)
    return _deal(game, state, [*ordered[:size - 1], ordered[-1]], rng)


def _bonus_deal(game: Any, state: State, rng: random.Random) -> Any:
    """All ten copas first; the bonus round itself is dealt at random."""
    if state.pending is not None:
        return None
    return _ten_copas_deal(game, state, rng)


def _all_tricks(before: State, action: Any, after: State) -> bool:
    n = before.config.players
    return (_round_ends(before, after) and len(after.tricks) == hand_size(n)
            and len({t.winner for t in after.tricks}) == 1)


def _all_ten(before: State, action: Any, after: State) -> bool:
    return (_round_ends(before, after) and after.pending is not None
            and after.pending != before.pending)


def _five_player_bonus(before: State, action: Any, after: State) -> bool:
    return _round_ends(before, after) and before.pending is not None


def _five_players(config: Config) -> str | None:
    if config.players != 5:
        return f"a five-player round needs players=5 (this config: players={config.players})"
    return None


def _bonus_near(state: State) -> float:
    return 100.0 if state.pending is not None else _concentration(state)


def _exactly_limit(before: State, action: Any, after: State) -> bool:
    return (_round_ends(before, after) and after.phase is not Phase.OVER
            and LIMIT in after.scores)


def _towards_limit(state: State) -> float:
    return float(max((s for s in state.scores if s <= LIMIT), default=0)) + _one_taker(state)


def _tied_burst(before: State, action: Any, after: State) -> bool:
    if after.phase is not Phase.OVER or before.phase is Phase.OVER:
        return False
    burst = sorted((s for s in after.scores if s > LIMIT), reverse=True)
    return len(burst) >= 2 and burst[0] == burst[1]


def _towards_burst(state: State) -> float:
    """The two highest totals high and equal."""
    top, second = sorted(state.scores)[-2:][::-1]
    return float(second) - 2.0 * (top - second)


def _towards_51(state: State) -> float:
    return float(max((s for s in state.scores if s <= LIMIT + 1), default=0))


def _discard(before: State, action: Any, after: State) -> bool:
    return (isinstance(action, Play) and bool(before.trick)
            and action.card.suit is not before.trick[0].suit)


def _bonus_ends(before: State, after: State) -> bool:
    return _round_ends(before, after) and before.pending is not None


def _bonus_erased(before: State, action: Any, after: State) -> bool:
    return (_bonus_ends(before, after) and before.pending is not None
            and after.last_round[before.pending] == 0 and max(after.last_round) < 10)


def _bonus_booked(before: State, action: Any, after: State) -> bool:
    return (_bonus_ends(before, after) and before.pending is not None
            and 10 < after.last_round[before.pending] < 20)


def _burst_at_51(before: State, action: Any, after: State) -> bool:
    return (after.phase is Phase.OVER and before.phase is not Phase.OVER
            and max(after.scores) == LIMIT + 1)


def _play_of_last_card(before: State, action: Any, after: State) -> bool:
    return isinstance(action, Play) and _round_ends(before, after) and not any(after.hands)


SITUATIONS: tuple[Situation, ...] = (
    Situation(name="COPAS-12/discard-when-void", rule="COPAS-12",
              text="a seat without the led suit plays another suit", fires=_discard),
    Situation(name="COPAS-14/last-card-ends-round", rule="COPAS-14",
              text="the round ends with the last card of every hand played",
              fires=_play_of_last_card),
    Situation(name="COPAS-17/all-ten-copas", rule="COPAS-17",
              text="one seat takes all ten copas (and not every trick): its bonus round is due",
              fires=_all_ten, heuristic=_concentration, chance=_ten_copas_deal),
    Situation(name="COPAS-18/five-player-bonus-round", rule="COPAS-18",
              text="a bonus round is played out and scored with five players",
              fires=_five_player_bonus, why_not=_five_players, heuristic=_bonus_near,
              chance=_bonus_deal),
    Situation(name="COPAS-18/bonus-round-erased", rule="COPAS-18",
              text="the pending seat takes no copa in its bonus round: its ten are erased",
              fires=_bonus_erased, heuristic=_bonus_near, chance=_bonus_deal),
    Situation(name="COPAS-18/bonus-round-booked", rule="COPAS-18",
              text="the pending seat takes some copas (not all) in its bonus round: it books "
                   "ten and those", fires=_bonus_booked, heuristic=_bonus_near,
              chance=_bonus_deal),
    Situation(name="COPAS-19/all-tricks-one-seat", rule="COPAS-19",
              text="one seat takes every trick of a round",
              fires=_all_tricks, heuristic=_one_taker, chance=_every_trick_deal),
    Situation(name="COPAS-20/exactly-the-limit", rule="COPAS-20",
              text="a round leaves a seat on exactly 50: nobody has burst, the match goes on",
              fires=_exactly_limit, heuristic=_towards_limit, chance=_every_trick_deal),
    Situation(name="COPAS-20/burst-at-exactly-51", rule="COPAS-20",
              text="the match ends with the highest total on exactly 51",
              fires=_burst_at_51, heuristic=_towards_51),
    Situation(name="COPAS-21/tied-burst-totals", rule="COPAS-21",
              text="two seats burst on the same, highest total: both lose",
              fires=_tied_burst, heuristic=_towards_burst),
)
"""Copas' situations beyond each rule's ``/fires``."""


def PROGRESS(state: State) -> float:
    """How far a match has gone: its minus points in all."""
    return float(sum(state.scores))


def _others_book_ten(config: Config) -> str | None:
    if config.all_cards is AllCards.BONUS_ONLY:
        return ("under all_cards=bonus_only taking every trick books the others nothing: "
                "the step COPAS-19 tags (every other seat on 10) never comes")
    return None


REQUIRES = {"COPAS-19": _others_book_ten}
"""COPAS-19's tag is the others' ten each (its other readings are its situations')."""
