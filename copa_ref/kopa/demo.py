"""A seeded Kopa match between simple players, told round by round."""

from __future__ import annotations

import random
from collections.abc import Iterator

from copa_ref.kopa.rules import apply, legal_actions, new_game, outcome, sample_chance
from copa_ref.kopa.state import Action, Config, Phase, Play, State

__all__ = ["demo", "simple_player"]


def simple_player(state: State, rng: random.Random) -> Action:
    """A simple player: plays a random legal card when it has one (an 8 or a card far from
    the middle first), and passes only when it must."""
    actions = legal_actions(state)
    assert actions, "simple_player asked at a node where nobody acts"
    plays = [a for a in actions if isinstance(a, Play)]
    if not plays:
        return actions[-1]
    best = max(abs(p.card.number - 8) for p in plays if p.card.number != 8) if any(
        p.card.number != 8 for p in plays) else 0
    eights = [p for p in plays if p.card.number == 8]
    if eights:
        return eights[0]
    return rng.choice([p for p in plays if abs(p.card.number - 8) == best])


def demo(seed: int, config: Config | None = None, players: int | None = None
         ) -> Iterator[str]:
    """Play a seeded match between simple players (*players* seats, default the config's);
    yield it as lines of text."""
    rng = random.Random(seed)
    if players is not None:
        config = Config(players=players)
    state = new_game(config)
    n = state.config.players
    yield f"Kopa, {n} players, to {state.config.target} points, seed {seed}"
    while state.phase is not Phase.OVER:
        if state.phase is Phase.DEAL:
            yield f"-- round {state.round}, dealer seat {state.dealer}"
            state = apply(state, sample_chance(state, rng))
            for seat, hand in enumerate(state.hands):
                yield f"   seat {seat}: {' '.join(str(c) for c in hand)}"
            if state.stock:
                yield f"   stock: {len(state.stock)} cards face down"
            continue
        turns: list[str] = []
        while state.phase in (Phase.PLAY, Phase.DRAWN):
            seat = state.turn
            action = simple_player(state, rng)
            before = state.penalties[seat]
            state = apply(state, action)
            if isinstance(action, Play):
                turns.append(f"{seat}:{action.card}")
            else:
                turns.append(f"{seat}:pass(+{state.penalties[seat] - before})")
        for k in range(0, len(turns), 12):
            yield "   " + " ".join(turns[k:k + 12])
        changes = " ".join(f"{s}:{c:+d}" for s, c in enumerate(state.last_round))
        total = " ".join(f"{s}:{p}" for s, p in enumerate(state.scores))
        yield f"   round scored {changes}; scores {total}"
    result = outcome(state)
    assert result is not None
    yield (f"match over after round {state.round}: winners {list(result.winners)} "
           f"({result.rule}), scores {list(result.scores)}")
