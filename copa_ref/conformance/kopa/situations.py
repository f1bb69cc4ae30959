"""Kopa's rare situations (besides each rule's ``<RULE>/fires``): the stock running out and
a pass with the stock empty (two players), a round ending with the target reached. See
:mod:`copa_ref.conformance.explore.situations`.
"""

from __future__ import annotations

import random
from typing import Any

from copa_ref.conformance.explore.situations import Situation
from copa_ref.conformance.kopa.diagnosis import round_ends
from copa_ref.kopa import Config, Pass, Phase, Play, State
from copa_ref.kopa.rules import DECK, deal_shape
from copa_ref.kopa.state import FalsePass

__all__ = ["AIMS", "PROGRESS", "REQUIRES", "SITUATIONS"]


def _two_players(config: Config) -> str | None:
    if config.players != 2:
        return f"only two players have a stock (this config: players={config.players})"
    return None


def _stock_runs_out(before: State, action: Any, after: State) -> bool:
    return bool(before.stock) and not after.stock and before.phase is not Phase.DEAL


def _pass_on_empty_stock(before: State, action: Any, after: State) -> bool:
    return (isinstance(action, Pass) and before.config.players == 2 and not before.stock
            and before.phase is Phase.PLAY)


def _stock_drawn(state: State) -> float:
    """How much of the stock has been drawn this round."""
    return 0.0 if state.phase is Phase.DEAL else 20.0 - len(state.stock)


def _reaches_target(before: State, action: Any, after: State) -> bool:
    return (after.phase is Phase.OVER and before.phase is not Phase.OVER
            and before.config.target in after.scores)


def _number(action: Any) -> int:
    return int(action.card.value[1:]) if isinstance(action, Play) else 0


def _starts_with(number: int) -> Any:
    def test(before: State, action: Any, after: State) -> bool:
        return _number(action) == number
    return test


def _negative_score(before: State, action: Any, after: State) -> bool:
    return (round_ends(before.phase, after.phase)
            and any(s < 0 for s in after.scores) and not any(s < 0 for s in before.scores))


def _penalised(state: State) -> float:
    """Penalties on one seat (a few), while another seat empties its hand."""
    worst = max(range(len(state.penalties)), key=lambda s: state.penalties[s])
    others = [len(h) for s, h in enumerate(state.hands) if s != worst]
    return 3.0 * min(state.penalties[worst], 5) - min(others)


PLAYABLE_ALONE = (*range(1, 8), *range(15, 8, -1), 8)
"""The numbers of one suit in an order one seat can play them alone, one a turn: up from 1
to 7, down from 15 to 9, then the 8 that bridges them (KOPA-8 to KOPA-13)."""


def _run_deal(game: Any, state: State, rng: random.Random) -> Any:
    """A deal giving the first player (the dealer's left, KOPA-5) runs it can play out one
    card a turn (one suit in :data:`PLAYABLE_ALONE`'s order, then the next suit), the rest
    shuffled round: a round it can end while the others still hold every card."""
    if state.phase is not Phase.DEAL:
        return None
    n = state.config.players
    lists, size = deal_shape(n)
    suits = sorted({card.value[0] for card in DECK})
    run = [f"{suit}{number}" for suit in suits for number in PLAYABLE_ALONE][:size]
    rest = [card.value for card in DECK if card.value not in run]
    rng.shuffle(rest)
    first = (state.dealer + 1) % n
    hands: list[list[str]] = [[] for _ in range(lists)]
    hands[first] = run
    for k in range(lists):
        while len(hands[k]) < size:
            hands[k].append(rest.pop())
    return game.action_from_json({"type": "deal", "hands": hands})


def PROGRESS(state: State) -> float:
    """How far a match has gone: the best score, then one hand emptied while the others
    stay full (the round's winner gains a point for each card they hold, KOPA-20)."""
    sizes = sorted(len(h) for h in state.hands)
    return 10.0 * max(state.scores) - 3.0 * sizes[0] + sum(sizes[1:])


def _toward_target(state: State) -> float:
    """How near a seat is to ending a round on exactly the target: the best of each seat's
    score after the round if it went out now (its score, a point for each card the others
    hold, less its penalties) measured against the target, a short hand counting towards
    it (KOPA-20, KOPA-22)."""
    target = state.config.target
    best = float("-inf")
    for seat, hand in enumerate(state.hands):
        others = sum(len(h) for s, h in enumerate(state.hands) if s != seat)
        projected = state.scores[seat] + others - state.penalties[seat]
        best = max(best, -abs(target - projected) - 3.0 * len(hand))
    return best


SITUATIONS: tuple[Situation, ...] = (
    Situation(name="KOPA-8/up-pile-started", rule="KOPA-8",
              text="a 1 starts its suit's up-pile", fires=_starts_with(1)),
    Situation(name="KOPA-8/down-pile-started", rule="KOPA-8",
              text="a 15 starts its suit's down-pile", fires=_starts_with(15)),
    Situation(name="KOPA-13/eight-played", rule="KOPA-13",
              text="an 8 is played", fires=_starts_with(8)),
    Situation(name="KOPA-20/score-below-zero", rule="KOPA-20",
              text="a round's penalties take a seat's score below zero",
              fires=_negative_score, heuristic=_penalised),
    Situation(name="KOPA-18/stock-runs-out", rule="KOPA-18",
              text="a draw takes the stock's last card", fires=_stock_runs_out,
              why_not=_two_players, heuristic=_stock_drawn),
    Situation(name="KOPA-18/pass-on-empty-stock", rule="KOPA-18",
              text="with the stock empty, a pass is a plain failed turn",
              fires=_pass_on_empty_stock, why_not=_two_players, heuristic=_stock_drawn),
    Situation(name="KOPA-22/exactly-the-target", rule="KOPA-22",
              text="the match ends with a seat on exactly the target", fires=_reaches_target,
              heuristic=_toward_target, chance=_run_deal),
)
"""Kopa's situations beyond each rule's ``/fires``."""


def _false_pass_penalised(config: Config) -> str | None:
    if config.false_pass is not FalsePass.PENALTY:
        return ("under false_pass=refused a pass with a playable card is refused, never "
                "played")
    return None


AIMS = {"KOPA-22": _run_deal}
"""The match's end is aimed at with a deal whose first player can play out its hand."""

REQUIRES = {"KOPA-16": _false_pass_penalised, "KOPA-17": _two_players,
            "KOPA-18": _two_players}
"""The stock and drawing from it are two players' rules (KOPA-17, KOPA-18); a false claim
is played only where it costs the four points (KOPA-16; under false_pass=refused it is
refused, a rejection the corpus and the probes check, not a step)."""
