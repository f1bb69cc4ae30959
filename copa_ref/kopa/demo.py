"""A seeded Kopa match between simple players: the first round turn by turn, then one line a
round, to the end of the match.

Every seat is a *simple player* (:func:`simple_player`): it plays a legal card whenever it
has one and passes only when it must. A match between such players ends (with three to five
players after a median of 11 to 26 rounds), but not every Kopa match does: uniformly random
players, who also pass while holding a card at 1 + 4 points, fall ever further below zero,
and with two players even simple players do, since the draws' penalty points outweigh what a
round's winner gains (KOPA-Q14). The demo says so when it stops.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from copa_ref.kopa.rules import apply, legal_actions, new_game, outcome, sample_chance
from copa_ref.kopa.state import Action, Config, Phase, Play, State

__all__ = ["MAX_ROUNDS", "POLICY", "demo", "play_round", "simple_player"]

MAX_ROUNDS = 100
"""The demo stops after this many rounds: a match need not end (KOPA-Q14). Simple players'
matches with three to five players have ended within 80 rounds at every seed tried."""

POLICY = ("every seat is a simple player: it plays a legal card whenever it has one (an 8 "
          "first, else a card farthest from the middle) and passes only when it must")
"""The demo's policy, in words (its first line says it)."""


def simple_player(state: State, rng: random.Random) -> Action:
    """A simple player: plays a random legal card when it has one (an 8 or a card far from
    the middle first), and passes only when it must."""
    actions = legal_actions(state)
    assert actions, "simple_player asked at a node where nobody acts"
    plays = [a for a in actions if isinstance(a, Play)]
    if not plays:
        return actions[-1]
    eights = [p for p in plays if p.card.number == 8]
    if eights:
        return eights[0]
    best = max(abs(p.card.number - 8) for p in plays)
    return rng.choice([p for p in plays if abs(p.card.number - 8) == best])


def play_round(state: State, rng: random.Random) -> tuple[State, list[str]]:
    """Play the round in progress between simple players to its end; the state after it and
    each turn in short (``1:S2``, ``0:pass(+1)``)."""
    turns: list[str] = []
    while state.phase is Phase.PLAY or state.phase is Phase.DRAWN:
        seat = state.turn
        action = simple_player(state, rng)
        before = state.penalties[seat]
        state = apply(state, action)
        if isinstance(action, Play):
            turns.append(f"{seat}:{action.card}")
        else:
            turns.append(f"{seat}:pass(+{state.penalties[seat] - before})")
    return state, turns


def _scores(values: tuple[int, ...], sign: bool = False) -> str:
    return " ".join(f"{s}:{v:+d}" if sign else f"{s}:{v}" for s, v in enumerate(values))


def demo(seed: int, config: Config | None = None, players: int | None = None
         ) -> Iterator[str]:
    """Play a seeded match between simple players (*players* seats, default the config's);
    yield it as lines of text: the first round's deal and turns, then a line per round."""
    rng = random.Random(seed)
    if players is not None:
        config = Config(players=players)
    state = new_game(config)
    n = state.config.players
    target = state.config.target
    yield f"Kopa, {n} players, to {target} points, seed {seed}; {POLICY}"
    yield ("   (uniformly random players' matches need not end: they pass while holding a card, "
           "at 1 + 4 points, and every score falls; KOPA-Q14)")
    while state.phase is not Phase.OVER:
        if state.round > MAX_ROUNDS:
            why = ("with two players the penalty points of the draws outweigh what a "
                   "round's winner gains, so the scores fall" if n == 2 else
                   "penalties can outweigh what a round's winner gains")
            yield (f"stopped after {MAX_ROUNDS} rounds with no one at {target}: {why}, and a "
                   f"match need not end (KOPA-Q14); scores {_scores(state.scores)}")
            return
        dealer = state.dealer
        state = apply(state, sample_chance(state, rng))
        first = state.round == 1
        if first:
            yield f"-- round 1, dealer seat {dealer}"
            for seat, hand in enumerate(state.hands):
                yield f"   seat {seat}: {' '.join(str(c) for c in hand)}"
            if state.stock:
                yield f"   stock: {len(state.stock)} cards face down"
        played = state.round
        state, turns = play_round(state, rng)
        winner = next(s for s in range(n) if not state.hands[s])
        if first:
            for k in range(0, len(turns), 12):
                yield "   " + " ".join(turns[k:k + 12])
            yield "   later rounds: the dealer, who goes out after how many turns, the changes"
        yield (f"   round {played}, dealer {dealer}: seat {winner} goes out after "
               f"{len(turns)} turns; changes {_scores(state.last_round, sign=True)}; scores "
               f"{_scores(state.scores)}")
    result = outcome(state)
    assert result is not None
    yield (f"match over after round {state.round}: winners {list(result.winners)} "
           f"({result.rule}), scores {list(result.scores)}")
