"""A seeded Copas match between simple players, told trick by trick."""

from __future__ import annotations

import random
from collections.abc import Iterator

from copa_ref.copas.rules import apply, legal_actions, new_game, outcome, sample_chance
from copa_ref.copas.state import Config, Phase, Play, State, Suit

__all__ = ["demo", "simple_player"]


def simple_player(state: State, rng: random.Random) -> Play:
    """A simple player: follows with its lowest card, discards its highest copa if it can,
    and otherwise plays a random legal card."""
    plays = legal_actions(state)
    assert plays, "simple_player asked at a node where nobody plays"
    if state.trick:
        led = state.trick[0].suit
        following = [p for p in plays if isinstance(p, Play) and p.card.suit is led]
        if following:
            return min(following, key=lambda p: p.card.rank)
        copas = [p for p in plays if isinstance(p, Play) and p.card.suit is Suit.COPAS]
        if copas:
            return max(copas, key=lambda p: p.card.rank)
    choice = rng.choice(plays)
    assert isinstance(choice, Play)
    return choice


def demo(seed: int, config: Config | None = None) -> Iterator[str]:
    """Play a seeded match between simple players; yield it as lines of text."""
    rng = random.Random(seed)
    state = new_game(config)
    n = state.config.players
    yield f"Copas, {n} players, seed {seed}"
    while state.phase is not Phase.OVER:
        if state.phase is Phase.DEAL:
            bonus = f" (bonus round for seat {state.pending})" if state.pending is not None else ""
            yield f"-- round {state.round}, dealer seat {state.dealer}{bonus}"
            state = apply(state, sample_chance(state, rng))
            for seat, hand in enumerate(state.hands):
                yield f"   seat {seat}: {' '.join(str(c) for c in hand)}"
            continue
        leader = state.leader
        before = len(state.tricks)
        while len(state.tricks) == before and state.phase is Phase.PLAY:
            state = apply(state, simple_player(state, rng))
        last = state.tricks[-1]
        cards = " ".join(str(c) for c in last.cards)
        yield f"   trick {before + 1}: seat {leader} leads {cards} -> seat {last.winner}"
        if state.phase is not Phase.PLAY:
            booked = " ".join(f"{s}:+{b}" for s, b in enumerate(state.last_round))
            total = " ".join(f"{s}:{p}" for s, p in enumerate(state.scores))
            yield f"   round booked {booked}; scores {total}"
            if state.pending is not None:
                yield f"   seat {state.pending} took all ten copas: bonus round next"
    result = outcome(state)
    assert result is not None
    yield (
        f"match over after round {state.round}: losers {list(result.losers)}, "
        f"winners {list(result.winners)} ({result.rule})"
    )
